import { useState } from 'react'
import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { twoFactorApi } from '../../api/security'
import { notifyError } from '../../utils/notify'
import { t } from '../../i18n'

/** Every string of the second step, in one place. */
const STRINGS = {
  title: t('两步验证'),
  subtitle: t('输入身份验证器应用中的 6 位验证码，或一个恢复码'),
  code: t('验证码或恢复码'),
  remember: t('在此设备上 30 天内不再询问'),
  submit: t('验证'),
  back: t('返回重新登录'),
  failed: t('验证失败'),
}

/** The second step of a sign-in (POST /api/account/2fa/login), after the password answered `twoFactorRequired`. */
export function SecondStep({ onDone, onCancel }: { onDone: () => Promise<void>; onCancel: () => void }) {
  const [code, setCode] = useState('')
  const [remember, setRemember] = useState(false)
  const [busy, setBusy] = useState(false)

  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      await twoFactorApi.login({ code: code.trim(), rememberDevice: remember })
      await onDone()
    } catch (error) {
      notifyError(error, STRINGS.failed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AccountPanel title={STRINGS.title} subtitle={STRINGS.subtitle} testId="login-second-step">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={STRINGS.code}
            autoComplete="one-time-code"
            inputMode="text"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-testid="login-2fa-code"
          />
          <Checkbox label={STRINGS.remember} checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} data-testid="login-2fa-remember" />
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={onCancel}>
              <Text span size="sm">
                {STRINGS.back}
              </Text>
            </Anchor>
          </Group>
          <Button type="submit" loading={busy} fullWidth disabled={code.trim() === ''} data-testid="login-2fa-submit">
            {STRINGS.submit}
          </Button>
        </Stack>
      </form>
    </AccountPanel>
  )
}
