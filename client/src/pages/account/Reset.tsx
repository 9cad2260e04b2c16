import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core'
import { useForm } from '@mantine/form'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { PasswordResetModel } from '@flagwave/shared/schemas/account'
import { accountApi } from '../../api/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

/**
 * Reset link target `/account/reset?token=…&email=…` (docs/compatibility.md#group-account): posts `rToken` (= token)
 * and `email` exactly as received, with the new password.
 */
export default function Reset() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const token = params.get('token') ?? ''
  const email = params.get('email') ?? ''
  const { busy, run } = useAction()
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirm: '' },
    validate: (values) => ({
      ...zodErrors(PasswordResetModel.pick({ password: true }), values),
      ...(values.confirm !== values.password ? { confirm: t('两次输入的密码不一致') } : {}),
    }),
  })

  const submit = form.onSubmit(async (values) => {
    await run(t('重置密码失败'), async () => {
      await accountApi.passwordReset({ rToken: token, email, password: values.password })
      notifySuccess(t('密码已重置，请使用新密码登录'))
      navigate('/account/login', { replace: true })
    })
  })

  return (
    <AccountPanel title={t('重置密码')} testId="reset-page">
      {!token || !email ? (
        <Alert color="alert" variant="light" title={t('链接无效')} data-testid="reset-invalid">
          {t('重置链接缺少必要的参数，请重新申请找回密码。')}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <PasswordInput label={t('新密码')} autoComplete="new-password" data-testid="reset-password" autoFocus {...form.getInputProps('password')} />
            <PasswordInput label={t('确认新密码')} autoComplete="new-password" data-testid="reset-confirm" {...form.getInputProps('confirm')} />
            <Button type="submit" loading={busy} fullWidth data-testid="reset-submit">
              {t('重置密码')}
            </Button>
          </Stack>
        </form>
      )}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/account/recovery">
          {t('重新找回密码')}
        </Anchor>
      </Text>
    </AccountPanel>
  )
}
