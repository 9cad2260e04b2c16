import { useState } from 'react'
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCircleCheck, IconMailForward, IconUserCheck, IconBan } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router-dom'
import type { RegisterStatus } from '@flagwave/shared/enums'
import { RegisterModel, isValidUserName } from '@flagwave/shared/schemas/account'
import { isApiError } from '../../api/http'
import { accountApi } from '../../api/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { Captcha, useCaptcha } from '../../components/Captcha/Captcha'
import { useSession } from '../../stores/session'
import { notifyError, notifySuccess } from '../../utils/notify'
import { zodValidate } from '../../utils/zodForm'
import { t } from '../../i18n'

const REGISTRATION_DISABLED = t('注册功能已禁用')

interface Outcome {
  status: RegisterStatus
  title: string
}

/** POST /api/account/register: logged in, awaiting an administrator, or awaiting e-mail verification. */
export default function Register() {
  const navigate = useNavigate()
  const signedIn = useSession((state) => state.signedIn)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [disabled, setDisabled] = useState(false)
  const captcha = useCaptcha('register')
  const form = useForm({
    mode: 'controlled',
    initialValues: { userName: '', email: '', password: '', confirm: '' },
    validate: zodValidate(RegisterModel, (values: { userName: string; password: string; confirm: string }) => ({
      ...(values.userName.trim() && !isValidUserName(values.userName.trim()) ? { userName: t('用户名 {{v0}} 无效', { v0: values.userName.trim() }) } : {}),
      ...(values.confirm !== values.password ? { confirm: t('两次输入的密码不一致') } : {}),
    })),
  })

  const submit = form.onSubmit(async (values) => {
    setBusy(true)
    try {
      const challenge = await captcha.getChallenge()
      const result = await accountApi.register({ userName: values.userName.trim(), email: values.email.trim(), password: values.password, challenge })
      setOutcome({ status: result.data, title: result.title })
      if (result.data === 'LoggedIn') {
        await signedIn()
        notifySuccess(result.title, t('注册成功'))
        navigate('/', { replace: true })
      }
    } catch (error) {
      captcha.reset()
      if (isApiError(error) && error.message === REGISTRATION_DISABLED) setDisabled(true)
      notifyError(error, t('注册失败'))
    } finally {
      setBusy(false)
    }
  })

  if (outcome && outcome.status !== 'LoggedIn') {
    const awaitingMail = outcome.status === 'EmailConfirmationRequired'
    return (
      <AccountPanel title={t('注册')} testId="register-page">
        <Alert
          color="brand"
          variant="light"
          icon={awaitingMail ? <IconMailForward /> : <IconUserCheck />}
          title={outcome.title}
          data-testid="register-result"
          data-status={outcome.status}
        >
          {awaitingMail ? t('验证邮件已发送，请前往邮箱点击链接完成注册。') : t('请等待管理员审核通过后登录。')}
        </Alert>
        <Button component={Link} to="/account/login" variant="light">
          {t('前往登录')}
        </Button>
      </AccountPanel>
    )
  }

  return (
    <AccountPanel title={t('注册')} subtitle={t('创建一个新账户')} testId="register-page">
      {disabled && (
        <Alert color="alert" variant="light" icon={<IconBan />} title={REGISTRATION_DISABLED} data-testid="register-disabled">
          {t('平台当前未开放注册，请联系管理员。')}
        </Alert>
      )}
      {outcome?.status === 'LoggedIn' && (
        <Alert color="brand" variant="light" icon={<IconCircleCheck />} title={outcome.title} data-testid="register-result" data-status={outcome.status} />
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label={t('用户名')} autoComplete="username" data-testid="register-username" autoFocus {...form.getInputProps('userName')} />
          <TextInput label={t('邮箱')} type="email" autoComplete="email" data-testid="register-email" {...form.getInputProps('email')} />
          <PasswordInput
            label={t('密码')}
            description={t('至少 6 位，包含数字、小写字母和大写字母')}
            autoComplete="new-password"
            data-testid="register-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput label={t('确认密码')} autoComplete="new-password" data-testid="register-confirm" {...form.getInputProps('confirm')} />
          <Captcha captcha={captcha} />
          <Button type="submit" loading={busy} disabled={disabled} fullWidth data-testid="register-submit">
            {t('注册')}
          </Button>
          <Text size="sm" ta="center">
            {t('已有账户？')}{' '}
            <Anchor component={Link} to="/account/login">
              {t('登录')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AccountPanel>
  )
}
