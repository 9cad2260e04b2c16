/**
 * admin/Sso: single sign-on providers and the SSO-only policy (docs/compatibility.md#single-sign-on).
 * Each provider shows the redirect URI to register at the provider; the secret is never shown,
 * and saving with the secret field empty keeps the stored one.
 */
import { useState } from 'react'
import { Badge, Button, Card, Group, Loader, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { SsoProviderId, SsoProviderInput, type SsoProviderAdminModel } from '@flagwave/shared/schemas/sso'
import { queryKeys } from '../../api/queryKeys'
import { ssoApi } from '../../api/sso'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { LoadError } from '../../components/LoadError/LoadError'
import { CopyableText } from '../../components/CopyableText/CopyableText'
import { t } from '../../i18n'

interface ProviderValues {
  id: string
  name: string
  issuer: string
  clientId: string
  clientSecret: string
  scopes: string
  roleClaim: string
  adminValues: string
  monitorValues: string
  allowedDomains: string
  enabled: boolean
}

const EMPTY: ProviderValues = {
  id: '',
  name: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid email profile',
  roleClaim: '',
  adminValues: '',
  monitorValues: '',
  allowedDomains: '',
  enabled: true,
}

const valuesOf = (p: SsoProviderAdminModel): ProviderValues => ({ ...p, clientSecret: '' })

/** An empty secret field keeps the stored secret. */
const bodyOf = ({ id: _id, clientSecret, ...rest }: ProviderValues) => ({ ...rest, clientSecret: clientSecret === '' ? null : clientSecret })

function ProviderForm({ initial, onDone }: { initial: SsoProviderAdminModel | null; onDone: () => void }) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const form = useForm<ProviderValues>({
    mode: 'controlled',
    initialValues: initial ? valuesOf(initial) : EMPTY,
    validate: (values) => ({
      ...(SsoProviderId.safeParse(values.id).success ? {} : { id: t('标识只能包含小写字母、数字和连字符，至多 32 个字符') }),
      ...zodErrors(SsoProviderInput, bodyOf(values)),
    }),
  })
  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      if (initial) await ssoApi.updateProvider(initial.id, bodyOf(values))
      else await ssoApi.createProvider({ id: values.id, ...bodyOf(values) })
      notifySuccess(t('单点登录设置已保存'))
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.sso })
      await queryClient.invalidateQueries({ queryKey: queryKeys.sso })
      onDone()
    } catch (err) {
      notifyError(err, t('保存失败'))
    } finally {
      setBusy(false)
    }
  })
  return (
    <Card withBorder padding="lg" data-testid="sso-provider-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={4}>{initial ? t('编辑 {{name}}', { name: initial.name }) : t('添加登录方式')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('标识')} description={t('回调地址中的名称')} disabled={!!initial} data-testid="sso-form-id" {...form.getInputProps('id')} />
            <TextInput label={t('显示名称')} data-testid="sso-form-name" {...form.getInputProps('name')} />
            <TextInput label={t('发行者地址 (issuer)')} placeholder="https://idp.example.org/realms/ctf" data-testid="sso-form-issuer" {...form.getInputProps('issuer')} />
            <TextInput label={t('范围 (scopes)')} {...form.getInputProps('scopes')} />
            <TextInput label={t('客户端 ID')} data-testid="sso-form-client-id" {...form.getInputProps('clientId')} />
            <PasswordInput label={t('客户端密钥')} description={initial?.hasSecret ? t('留空则保留已保存的密钥') : undefined} data-testid="sso-form-secret" {...form.getInputProps('clientSecret')} />
            <TextInput label={t('角色声明')} description={t('如 groups；留空则不映射角色')} {...form.getInputProps('roleClaim')} />
            <TextInput label={t('允许的邮箱域名')} description={t('逗号分隔；留空则不限')} {...form.getInputProps('allowedDomains')} />
            <TextInput label={t('管理员取值')} description={t('声明包含其中任一值 → Admin')} {...form.getInputProps('adminValues')} />
            <TextInput label={t('监控者取值')} description={t('声明包含其中任一值 → Monitor')} {...form.getInputProps('monitorValues')} />
          </SimpleGrid>
          <Switch label={t('启用')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('取消')}
            </Button>
            <Button type="submit" loading={busy} data-testid="sso-form-submit">
              {t('保存')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}

export default function Sso() {
  const queryClient = useQueryClient()
  const admin = useQuery({ queryKey: queryKeys.admin.sso, queryFn: ssoApi.admin })
  const [editing, setEditing] = useState<SsoProviderAdminModel | 'new' | null>(null)

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.admin.sso })
    await queryClient.invalidateQueries({ queryKey: queryKeys.sso })
  }
  const setPolicy = async (ssoOnly: boolean) => {
    try {
      await ssoApi.setPolicy(ssoOnly)
      notifySuccess(ssoOnly ? t('已启用仅单点登录') : t('已停用仅单点登录'))
      await refresh()
    } catch (err) {
      notifyError(err, t('保存失败'))
    }
  }
  const remove = async (p: SsoProviderAdminModel) => {
    if (!window.confirm(t('删除 {{name}}？已关联的外部账户将一并解除。', { name: p.name }))) return
    try {
      await ssoApi.deleteProvider(p.id)
      notifySuccess(t('已删除'))
      await refresh()
    } catch (err) {
      notifyError(err, t('删除失败'))
    }
  }

  if (admin.error) return <LoadError error={admin.error} />
  if (!admin.data) return <Loader />
  return (
    <Stack gap="md" data-testid="admin-sso">
      <Group justify="space-between">
        <Title order={3}>{t('单点登录')}</Title>
        <Button onClick={() => setEditing('new')} data-testid="sso-add">
          {t('添加登录方式')}
        </Button>
      </Group>
      <Switch
        label={t('仅允许单点登录')}
        description={t('开启后拒绝密码登录与注册；管理员仍可使用密码登录，以便在登录服务故障时处理')}
        checked={admin.data.ssoOnly}
        onChange={(event) => setPolicy(event.currentTarget.checked)}
        data-testid="sso-only-switch"
      />
      {editing && <ProviderForm key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      {admin.data.providers.map((p) => (
        <Card key={p.id} withBorder padding="md" data-testid={`sso-provider-${p.id}`}>
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Group gap="xs">
                <Text fw={600}>{p.name}</Text>
                <Badge variant="light" color={p.enabled ? 'green' : 'gray'}>
                  {p.enabled ? t('已启用') : t('已停用')}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {p.issuer} · {p.clientId}
                {p.roleClaim && t(' · 角色声明 {{roleClaim}}', { roleClaim: p.roleClaim })}
              </Text>
              <Text size="sm">{t('回调地址（在登录服务中登记）：')}</Text>
              <CopyableText value={p.redirectUri} />
            </Stack>
            <Group gap="xs">
              <Button size="xs" variant="light" onClick={() => setEditing(p)}>
                {t('编辑')}
              </Button>
              <Button size="xs" variant="light" color="alert" onClick={() => remove(p)}>
                {t('删除')}
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  )
}
