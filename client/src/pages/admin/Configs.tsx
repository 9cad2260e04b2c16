/**
 * admin/Configs: every runtime setting (docs/compatibility.md#configuration-shapes) — account policy, global config (with the
 * Flagwave `beianInfo`), game policy — edited in one form (GET/PUT /api/admin/config).
 *
 * Only the leaves that changed are sent (a null leaf means "keep", docs/compatibility.md#group-admin), so an
 * untouched `footerInfo: null` is not turned into `""`; clearing a text sends `""`. A badge says
 * when there are unsaved changes (and leaving the page asks first); saving notifies and the new
 * public config reaches every open tab through `ReceivedConfigUpdate`.
 */
import { useEffect, useState, type ReactNode } from 'react'
import { Alert, Badge, Button, Card, Center, FileButton, Group, Loader, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconAlertCircle, IconDeviceFloppy, IconRestore, IconTrash, IconUpload } from '@tabler/icons-react'
import type { z } from 'zod'
import type { ConfigEditInput, ConfigEditModel } from '@flagwave/shared/schemas/config'
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@flagwave/shared/schemas/twoFactor'
import { adminConfigApi } from '../../api/adminConfig'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { IMAGE_MIME_TYPES } from '@flagwave/shared/limits'
import { configQuery, logoUrl, useGlobalConfig } from '../../api/globalConfig'
import { acceptImage } from '../../utils/acceptImage'
import classes from './Configs.module.css'
import { queryKeys } from '../../api/queryKeys'
import { notifyError, notifySuccess } from '../../utils/notify'
import { LoadError } from '../../components/LoadError/LoadError'
import { t } from '../../i18n'

interface ConfigValues {
  accountPolicy: {
    allowRegister: boolean
    activeOnRegister: boolean
    useCaptcha: boolean
    emailConfirmationRequired: boolean
    emailDomainList: string
    twoFactorPolicy: TwoFactorPolicy
  }
  globalConfig: { title: string; slogan: string; footerInfo: string; beianInfo: string }
  gamePolicy: { autoDestroyOnLimitReached: boolean }
}

const CONFIG_SAVED = t('全局设置已更新')
/** The two-factor policy's strings, in one place. */
const TWO_FACTOR_STRINGS = {
  label: t('两步验证策略'),
  description: t('要求哪些账户启用两步验证；未启用者登录后须先完成设置'),
  options: { Off: t('不要求'), Admins: t('要求管理员'), Everyone: t('要求所有用户') } as Record<TwoFactorPolicy, string>,
}
const TITLE_MAX = 32
const SLOGAN_MAX = 128

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.[a-z]{2,63}$/i

/** The entries of a comma-separated domain list (blanks dropped). */
const domainEntries = (list: string): string[] =>
  list
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)

function toValues(model: ConfigEditModel): ConfigValues {
  const account = model.accountPolicy
  const global = model.globalConfig
  return {
    accountPolicy: {
      allowRegister: account?.allowRegister ?? true,
      activeOnRegister: account?.activeOnRegister ?? true,
      useCaptcha: account?.useCaptcha ?? false,
      emailConfirmationRequired: account?.emailConfirmationRequired ?? false,
      emailDomainList: account?.emailDomainList ?? '',
      twoFactorPolicy: account?.twoFactorPolicy ?? 'Off',
    },
    globalConfig: { title: global?.title ?? '', slogan: global?.slogan ?? '', footerInfo: global?.footerInfo ?? '', beianInfo: global?.beianInfo ?? '' },
    gamePolicy: { autoDestroyOnLimitReached: model.gamePolicy?.autoDestroyOnLimitReached ?? false },
  }
}

/** The PUT body: changed leaves only, each section null when nothing in it changed. */
function changes(values: ConfigValues, initial: ConfigValues): z.input<typeof ConfigEditInput> {
  const section = <K extends keyof ConfigValues>(name: K) => {
    const out: Record<string, unknown> = {}
    for (const [leaf, value] of Object.entries(values[name])) {
      if (value !== (initial[name] as Record<string, unknown>)[leaf]) out[leaf] = value
    }
    return Object.keys(out).length > 0 ? out : null
  }
  const account = section('accountPolicy')
  if (account && typeof account.emailDomainList === 'string') account.emailDomainList = domainEntries(account.emailDomainList).join(',')
  const global = section('globalConfig')
  if (global && typeof global.title === 'string') global.title = global.title.trim()
  return { accountPolicy: account, globalConfig: global, gamePolicy: section('gamePolicy') } as z.input<typeof ConfigEditInput>
}

/** The platform logo (POST/DELETE /api/admin/config/logo): shown in the header, the favicon is made from it. */
function LogoCard() {
  const config = useGlobalConfig()
  const client = useQueryClient()
  const [busy, setBusy] = useState(false)
  const logo = logoUrl(config)
  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    setBusy(true)
    try {
      await action()
      // The push (ReceivedConfigUpdate) updates every tab; this one need not wait for it.
      await client.invalidateQueries({ queryKey: configQuery.queryKey })
      notifySuccess(done)
    } catch (error) {
      notifyError(error, failed)
    } finally {
      setBusy(false)
    }
  }
  const upload = (file: File | null) => {
    if (file && acceptImage(file, t('标志上传失败'))) void run(() => adminConfigApi.uploadLogo(file), t('标志已更新'), t('标志上传失败'))
  }
  return (
    <Card withBorder radius="md" padding="md" data-testid="config-logo" data-logo={config.logoHash ?? ''}>
      <Stack gap="sm">
        <div>
          <Title order={4}>{t('平台标志')}</Title>
          <Text size="sm" c="dimmed">
            {t('显示在页面顶部，并用作浏览器标签页的图标')}
          </Text>
        </div>
        <Group gap="md">
          <Center w={160} h={64} className={classes.logoPreview}>
            {logo ? <img src={logo} alt="" className={classes.logoImage} data-testid="config-logo-preview" /> : <Text size="sm" c="dimmed">{t('使用默认标志')}</Text>}
          </Center>
          <Group gap="xs">
            <FileButton onChange={upload} accept={IMAGE_MIME_TYPES.join(',')} inputProps={{ 'data-testid': 'config-logo-input' }}>
              {(props) => (
                <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />} loading={busy} data-testid="config-logo-upload">
                  {t('上传标志')}
                </Button>
              )}
            </FileButton>
            {logo && (
              <Button size="xs" variant="subtle" color="alert" leftSection={<IconTrash size={14} />} disabled={busy} onClick={() => void run(adminConfigApi.removeLogo, t('已恢复默认标志'), t('移除标志失败'))} data-testid="config-logo-remove">
                {t('恢复默认标志')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  )
}

function SectionCard({ title, description, dirty, children, testId }: { title: string; description: string; dirty: boolean; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <div>
            <Title order={4}>{title}</Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </div>
          {dirty && (
            <Badge color="yellow" variant="dot">
              {t('已修改')}
            </Badge>
          )}
        </Group>
        {children}
      </Stack>
    </Card>
  )
}

export default function Configs() {
  const query = useQuery({ queryKey: queryKeys.admin.config, queryFn: adminConfigApi.config, refetchInterval: false })
  const [saving, setSaving] = useState(false)
  const form = useForm<ConfigValues>({
    mode: 'controlled',
    initialValues: toValues({ accountPolicy: null, globalConfig: null, gamePolicy: null, containerPolicy: null }),
    validateInputOnChange: true,
    validate: {
      accountPolicy: {
        emailDomainList: (value) => {
          const bad = domainEntries(value).find((d) => !DOMAIN.test(d))
          return bad ? t('邮箱域名格式错误：{{bad}}', { bad }) : null
        },
      },
      globalConfig: {
        title: (value) => (!value.trim() ? t('平台名称不能为空') : value.trim().length > TITLE_MAX ? t('平台名称不能超过 {{TITLE_MAX}} 个字符', { TITLE_MAX }) : null),
        slogan: (value) => (value.length > SLOGAN_MAX ? t('标语不能超过 {{SLOGAN_MAX}} 个字符', { SLOGAN_MAX }) : null),
      },
    },
  })

  // Load the stored settings into the form, unless the admin is editing.
  const { data } = query
  useEffect(() => {
    if (!data) return
    if (form.isDirty()) return
    const values = toValues(data)
    form.setInitialValues(values)
    form.setValues(values)
    form.resetDirty(values)
  }, [data])

  const dirty = form.isDirty()
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])

  const save = form.onSubmit(async (values) => {
    const body = changes(values, form.getInitialValues())
    if (!body.accountPolicy && !body.globalConfig && !body.gamePolicy) return
    setSaving(true)
    try {
      await adminConfigApi.updateConfig(body)
      const saved = { ...values, globalConfig: { ...values.globalConfig, title: values.globalConfig.title.trim() } }
      saved.accountPolicy = { ...values.accountPolicy, emailDomainList: domainEntries(values.accountPolicy.emailDomainList).join(',') }
      form.setInitialValues(saved)
      form.setValues(saved)
      form.resetDirty(saved)
      notifySuccess(CONFIG_SAVED)
      void query.refetch()
    } catch (error) {
      notifyError(error, t('保存失败'))
    } finally {
      setSaving(false)
    }
  })

  if (!data && query.error) {
    return (
      <LoadError error={query.error} icon testId="admin-configs-error" />
    )
  }
  if (!data) return <Loader />

  const title = form.values.globalConfig.title.trim()
  return (
    <form onSubmit={save} data-testid="admin-configs-page" data-dirty={dirty ? 'true' : 'false'}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Title order={2}>{t('全局设置')}</Title>
            {dirty ? (
              <Badge color="yellow" variant="light" data-testid="config-dirty">
                {t('有未保存的更改')}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" data-testid="config-clean">
                {t('已保存')}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" leftSection={<IconRestore size={16} />} disabled={!dirty || saving} onClick={() => form.reset()} data-testid="config-reset">
              {t('撤销更改')}
            </Button>
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} disabled={!dirty} loading={saving} data-testid="config-save">
              {t('保存')}
            </Button>
          </Group>
        </Group>
        {query.error && (
          <Alert color="alert" variant="light" icon={<IconAlertCircle />}>
            {query.error.message}
          </Alert>
        )}

        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <SectionCard title={t('账户策略')} description={t('注册、激活与验证方式')} dirty={form.isDirty('accountPolicy')} testId="config-account-policy">
            <Switch label={t('允许注册')} description={t('关闭后新用户无法注册账户')} {...form.getInputProps('accountPolicy.allowRegister', { type: 'checkbox' })} data-testid="config-allow-register" />
            <Switch
              label={t('注册后自动激活')}
              description={t('关闭后新账户需要管理员审核')}
              {...form.getInputProps('accountPolicy.activeOnRegister', { type: 'checkbox' })}
              data-testid="config-active-on-register"
            />
            <Switch label={t('使用验证码')} description={t('注册、登录与找回密码时校验验证码')} {...form.getInputProps('accountPolicy.useCaptcha', { type: 'checkbox' })} data-testid="config-use-captcha" />
            <Switch
              label={t('需要邮箱确认')}
              description={t('注册、更换邮箱与找回密码通过邮件链接完成')}
              {...form.getInputProps('accountPolicy.emailConfirmationRequired', { type: 'checkbox' })}
              data-testid="config-email-confirmation"
            />
            <TextInput
              label={t('邮箱域名白名单')}
              description={t('以逗号分隔，例如 example.edu.cn,example.com；留空则不限制')}
              placeholder={t('不限制')}
              {...form.getInputProps('accountPolicy.emailDomainList')}
              data-testid="config-email-domains"
            />
            <Select
              label={TWO_FACTOR_STRINGS.label}
              description={TWO_FACTOR_STRINGS.description}
              data={TWO_FACTOR_POLICIES.map((value) => ({ value, label: TWO_FACTOR_STRINGS.options[value] }))}
              allowDeselect={false}
              {...form.getInputProps('accountPolicy.twoFactorPolicy')}
              data-testid="config-two-factor-policy"
            />
          </SectionCard>

          <SectionCard title={t('平台信息')} description={t('标题、标语与页脚')} dirty={form.isDirty('globalConfig')} testId="config-global">
            <TextInput
              label={t('平台名称')}
              description={t('显示为 {{v0}}::CTF', { v0: title || '…' })}
              withAsterisk
              {...form.getInputProps('globalConfig.title')}
              data-testid="config-title"
            />
            <TextInput label={t('标语')} {...form.getInputProps('globalConfig.slogan')} data-testid="config-slogan" />
            <Textarea label={t('页脚信息')} description={t('显示在页脚的附加文字，留空则不显示')} autosize minRows={2} maxRows={6} {...form.getInputProps('globalConfig.footerInfo')} data-testid="config-footer" />
            <TextInput label={t('备案信息')} description={t('ICP 备案号，留空则不显示')} {...form.getInputProps('globalConfig.beianInfo')} data-testid="config-beian" />
          </SectionCard>

          <LogoCard />

          <SectionCard title={t('比赛策略')} description={t('容器实例的限制')} dirty={form.isDirty('gamePolicy')} testId="config-game-policy">
            <Switch
              label={t('达到容器上限时自动销毁')}
              description={t('队伍容器数量达到上限时，销毁最早的容器而不是拒绝创建')}
              {...form.getInputProps('gamePolicy.autoDestroyOnLimitReached', { type: 'checkbox' })}
              data-testid="config-auto-destroy"
            />
          </SectionCard>
        </SimpleGrid>
      </Stack>
    </form>
  )
}
