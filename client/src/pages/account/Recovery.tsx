import { useState } from 'react'
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconMailForward } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { RecoveryModel } from '@flagwave/shared/schemas/account'
import { accountApi } from '../../api/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { Captcha, useCaptcha } from '../../components/Captcha/Captcha'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodValidate } from '../../utils/zodForm'
import { t } from '../../i18n'

/** POST /api/account/recovery: mails a password-reset link. */
export default function Recovery() {
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState<string | null>(null)
  const captcha = useCaptcha('recovery')
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: zodValidate(RecoveryModel) })

  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      const challenge = await captcha.getChallenge()
      const result = await accountApi.recovery({ email: values.email.trim(), challenge })
      setSent(result.title)
      notifySuccess(result.title)
    } catch (error) {
      captcha.reset()
      notifyError(error, t('找回密码失败'))
    } finally {
      setBusy(false)
    }
  })

  return (
    <AccountPanel title={t('找回密码')} subtitle={t('输入注册邮箱，我们将发送重置密码的链接')} testId="recovery-page">
      {sent ? (
        <Alert color="brand" variant="light" icon={<IconMailForward />} title={sent} data-testid="recovery-sent">
          {t('请查收邮件并点击其中的链接重置密码。')}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput label={t('邮箱')} type="email" autoComplete="email" data-testid="recovery-email" autoFocus {...form.getInputProps('email')} />
            <Captcha captcha={captcha} />
            <Button type="submit" loading={busy} fullWidth data-testid="recovery-submit">
              {t('发送重置邮件')}
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/account/login">
          {t('返回登录')}
        </Anchor>
      </Text>
    </AccountPanel>
  )
}
