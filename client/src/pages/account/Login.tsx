import { useState } from 'react'
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { LoginModel } from '@flagwave/shared/schemas/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { Captcha, useCaptcha } from '../../components/Captcha/Captcha'
import { useSession } from '../../stores/session'
import { notifyError, notifySuccess } from '../../utils/notify'
import { safeRedirect } from '../../utils/redirect'
import { zodValidate } from '../../utils/zodForm'
import { SsoLogin } from '../../components/SsoLogin/SsoLogin'
import { needsSecondStep, twoFactorApi } from '../../api/security'
import { SecondStep } from './SecondStep'
import { t } from '../../i18n'

/**
 * POST /api/account/login with user name or e-mail; then back to `from`. An account with two-factor
 * sign-in answers `twoFactorRequired` and the second step follows on the same page; an account the
 * policy holds at enrolment goes to its profile's two-factor section first.
 */
export default function Login() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const login = useSession((state) => state.login)
  const signedIn = useSession((state) => state.signedIn)
  const [busy, setBusy] = useState(false)
  const [secondStep, setSecondStep] = useState(false)
  const captcha = useCaptcha('login')
  const form = useForm({
    mode: 'controlled',
    initialValues: { userName: '', password: '' },
    validate: zodValidate(LoginModel),
  })

  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      const challenge = await captcha.getChallenge()
      const profile = await login({ userName: values.userName.trim(), password: values.password, challenge })
      await welcome(profile?.userName ?? values.userName)
    } catch (error) {
      captcha.reset()
      if (needsSecondStep(error)) setSecondStep(true)
      else notifyError(error, t('登录失败'))
    } finally {
      setBusy(false)
    }
  })

  const welcome = async (userName: string) => {
    notifySuccess(t('欢迎回来，{{v0}}', { v0: userName }), t('登录成功'))
    const status = await twoFactorApi.status().catch(() => null)
    if (status?.required && !status.enabled) navigate('/account/profile#two-factor', { replace: true })
    else navigate(safeRedirect(params.get('from')), { replace: true })
  }

  if (secondStep) {
    return (
      <SecondStep
        onDone={async () => {
          const profile = await signedIn()
          await welcome(profile?.userName ?? form.values.userName)
        }}
        onCancel={() => setSecondStep(false)}
      />
    )
  }

  return (
    <AccountPanel title={t('登录')} subtitle={t('使用用户名或邮箱登录')} testId="login-page">
      <SsoLogin returnTo={safeRedirect(params.get('from'))} error={params.get('ssoError')} />
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label={t('用户名或邮箱')} autoComplete="username" data-testid="login-username" autoFocus {...form.getInputProps('userName')} />
          <PasswordInput label={t('密码')} autoComplete="current-password" data-testid="login-password" {...form.getInputProps('password')} />
          <Captcha captcha={captcha} />
          <Group justify="space-between">
            <Anchor component={Link} to="/account/recovery" size="sm">
              {t('忘记密码？')}
            </Anchor>
            <Text size="sm">
              {t('没有账户？')}{' '}
              <Anchor component={Link} to="/account/register" data-testid="login-to-register">
                {t('注册')}
              </Anchor>
            </Text>
          </Group>
          <Button type="submit" loading={busy} fullWidth data-testid="login-submit">
            {t('登录')}
          </Button>
        </Stack>
      </form>
    </AccountPanel>
  )
}
