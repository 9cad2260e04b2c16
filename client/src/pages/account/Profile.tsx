import { useEffect, useState } from 'react'
import { Avatar, Badge, Button, Divider, FileButton, Grid, Group, Paper, PasswordInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconUpload } from '@tabler/icons-react'
import { IMAGE_MIME_TYPES } from '@flagwave/shared/limits'
import { MailChangeModel, PasswordChangeModel, ProfileUpdateModel, isValidUserName, type ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { accountApi } from '../../api/account'
import { useSession } from '../../stores/session'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { acceptImage } from '../../utils/acceptImage'
import { SsoIdentities } from './SsoIdentities'
import { TwoFactor } from './TwoFactor'
import { ApiTokens } from './ApiTokens'
import { t } from '../../i18n'
import { ROLE_LABELS } from '../../utils/roleLabels'
import { READING_WIDTH } from '../../layouts/widths'

interface DetailsValues {
  userName: string
  bio: string
  phone: string
  realName: string
  stdNumber: string
}

const detailsOf = (profile: ProfileUserInfoModel): DetailsValues => ({
  userName: profile.userName ?? '',
  bio: profile.bio ?? '',
  phone: profile.phone ?? '',
  realName: profile.realName ?? '',
  stdNumber: profile.stdNumber ?? '',
})

/** The wire body: an empty phone means "no change" (the phone rule rejects ""). */
const updateBody = (values: DetailsValues) => ({
  userName: values.userName.trim(),
  bio: values.bio,
  phone: values.phone.trim() === '' ? null : values.phone.trim(),
  realName: values.realName.trim(),
  stdNumber: values.stdNumber.trim(),
})

function DetailsForm({ profile }: { profile: ProfileUserInfoModel }) {
  const refresh = useSession((state) => state.refresh)
  const [busy, setBusy] = useState(false)
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: detailsOf(profile),
    validate: (values) => ({
      ...(values.userName && !isValidUserName(values.userName.trim()) ? { userName: t('用户名 {{v0}} 无效', { v0: values.userName.trim() }) } : {}),
      ...zodErrors(ProfileUpdateModel, updateBody(values)),
    }),
  })

  // Follow server-side changes (revalidation, another tab) while the user is not editing.
  const serverValues = JSON.stringify(detailsOf(profile))
  useEffect(() => {
    if (!form.isDirty()) {
      const values = JSON.parse(serverValues) as DetailsValues
      form.setInitialValues(values)
      form.setValues(values)
    }
  }, [serverValues])

  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      await accountApi.update(updateBody(values))
      const fresh = await refresh()
      if (fresh) {
        form.setInitialValues(detailsOf(fresh))
        form.setValues(detailsOf(fresh))
      }
      notifySuccess(t('个人信息已更新'))
    } catch (error) {
      notifyError(error, t('更新失败'))
    } finally {
      setBusy(false)
    }
  })

  return (
    <form onSubmit={submit} noValidate data-testid="profile-form">
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('用户名')} data-testid="profile-username" {...form.getInputProps('userName')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('手机号')} data-testid="profile-phone" {...form.getInputProps('phone')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('真实姓名')} data-testid="profile-realname" {...form.getInputProps('realName')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label={t('学工号')} data-testid="profile-stdnumber" {...form.getInputProps('stdNumber')} />
          </Grid.Col>
        </Grid>
        <Textarea label={t('个人简介')} autosize minRows={2} maxRows={4} data-testid="profile-bio" {...form.getInputProps('bio')} />
        <Group justify="flex-end">
          <Button variant="default" disabled={!form.isDirty() || busy} onClick={() => form.reset()}>
            {t('撤销')}
          </Button>
          <Button type="submit" loading={busy} disabled={!form.isDirty()} data-testid="profile-save">
            {t('保存')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function AvatarUpload({ profile }: { profile: ProfileUserInfoModel }) {
  const refresh = useSession((state) => state.refresh)
  const [busy, setBusy] = useState(false)

  const upload = async (file: File | null) => {
    if (!file || !acceptImage(file, t('头像上传失败'))) return
    setBusy(true)
    try {
      await accountApi.avatar(file)
      await refresh()
      notifySuccess(t('头像已更新'))
    } catch (error) {
      notifyError(error, t('头像上传失败'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack align="center" gap="sm">
      <Avatar src={profile.avatar ?? undefined} size={120} radius={120} color="brand" data-testid="profile-avatar" data-src={profile.avatar ?? ''}>
        {profile.userName?.slice(0, 1).toUpperCase()}
      </Avatar>
      <FileButton onChange={(file) => void upload(file)} accept={IMAGE_MIME_TYPES.join(',')} inputProps={{ 'data-testid': 'avatar-input' }}>
        {(props) => (
          <Button {...props} variant="light" size="xs" leftSection={<IconUpload size={14} />} loading={busy} data-testid="avatar-button">
            {t('更换头像')}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed" ta="center">
        {t('PNG、GIF、JPEG、WebP、BMP 或 TIFF，不超过 3 MB')}
      </Text>
    </Stack>
  )
}

function EmailForm({ profile }: { profile: ProfileUserInfoModel }) {
  const [busy, setBusy] = useState(false)
  const form = useForm({ mode: 'controlled', initialValues: { newMail: '' }, validate: (values) => zodErrors(MailChangeModel, values) })
  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      const result = await accountApi.changeEmail({ newMail: values.newMail.trim() })
      notifySuccess(t('请前往新邮箱查收确认邮件'), result.title)
      form.reset()
    } catch (error) {
      notifyError(error, t('更换邮箱失败'))
    } finally {
      setBusy(false)
    }
  })
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          {t('当前邮箱：')}<b data-testid="profile-email">{profile.email}</b>
        </Text>
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TextInput placeholder={t('新邮箱地址')} type="email" style={{ flex: 1 }} data-testid="email-new" {...form.getInputProps('newMail')} />
          <Button type="submit" loading={busy} variant="light" data-testid="email-submit">
            {t('更换邮箱')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function PasswordForm() {
  const [busy, setBusy] = useState(false)
  const form = useForm({
    mode: 'controlled',
    initialValues: { old: '', new: '', confirm: '' },
    validate: (values) => ({
      ...zodErrors(PasswordChangeModel, values),
      ...(values.confirm !== values.new ? { confirm: t('两次输入的密码不一致') } : {}),
    }),
  })
  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      await accountApi.changePassword({ old: values.old, new: values.new })
      notifySuccess(t('密码已修改'))
      form.reset()
    } catch (error) {
      notifyError(error, t('修改密码失败'))
    } finally {
      setBusy(false)
    }
  })
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <PasswordInput label={t('当前密码')} autoComplete="current-password" data-testid="password-old" {...form.getInputProps('old')} />
        <PasswordInput label={t('新密码')} autoComplete="new-password" data-testid="password-new" {...form.getInputProps('new')} />
        <PasswordInput label={t('确认新密码')} autoComplete="new-password" data-testid="password-confirm" {...form.getInputProps('confirm')} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} variant="light" data-testid="password-submit">
            {t('修改密码')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

/** The signed-in user's profile: details, avatar, e-mail change, password change, two-factor sign-in, API tokens. */
export default function Profile() {
  const profile = useSession((state) => state.profile)
  if (!profile) return null
  return (
    <Stack gap="lg" maw={READING_WIDTH} mx="auto" data-testid="profile-page">
      <Group justify="space-between">
        <Title order={2}>{t('个人资料')}</Title>
        <Badge variant="light" size="lg" tt="none" data-testid="profile-role" data-role={profile.role ?? ''}>
          {profile.role ? ROLE_LABELS[profile.role] : null}
        </Badge>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, sm: 3 }}>
            <AvatarUpload profile={profile} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 9 }}>
            <DetailsForm profile={profile} />
          </Grid.Col>
        </Grid>
      </Paper>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder p="lg" radius="md" h="100%">
            <Title order={4} mb="sm">
              {t('邮箱')}
            </Title>
            <Divider mb="sm" />
            <EmailForm profile={profile} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder p="lg" radius="md" h="100%">
            <Title order={4} mb="sm">
              {t('密码')}
            </Title>
            <Divider mb="sm" />
            <PasswordForm />
          </Paper>
        </Grid.Col>
      </Grid>
      <SsoIdentities />
      <Paper withBorder p="lg" radius="md" id="two-factor">
        <Title order={4} mb="sm">
          {t('两步验证')}
        </Title>
        <Divider mb="sm" />
        <TwoFactor />
      </Paper>
      <Paper withBorder p="lg" radius="md" id="api-tokens">
        <Title order={4} mb="sm">
          {t('API 令牌')}
        </Title>
        <Divider mb="sm" />
        <ApiTokens role={profile.role ?? 'User'} />
      </Paper>
    </Stack>
  )
}
