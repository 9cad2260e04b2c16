/**
 * The sign-in page's single sign-on part: a button per enabled provider (a full navigation to the
 * server, which redirects to the provider) and the reason a previous attempt came back with
 * `?ssoError=` (docs/compatibility.md#single-sign-on).
 */
import { Alert, Button, Divider, Stack, Text } from '@mantine/core'
import { IconAlertCircle, IconKey } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { SSO_ERROR_MESSAGES, ssoApi } from '../../api/sso'
import { t } from '../../i18n'

export function SsoLogin({ returnTo, error }: { returnTo: string; error: string | null }) {
  const info = useQuery({ queryKey: queryKeys.sso, queryFn: ssoApi.info })
  const providers = info.data?.providers ?? []
  return (
    <Stack gap="sm">
      {error && (
        <Alert color="alert" variant="light" icon={<IconAlertCircle />} title={t('单点登录失败')} data-testid="sso-error">
          {SSO_ERROR_MESSAGES[error] ?? t('登录失败，请重试')}
        </Alert>
      )}
      {providers.map((p) => (
        <Button key={p.id} component="a" href={ssoApi.signInUrl(p.id, returnTo)} variant="default" leftSection={<IconKey size={16} />} fullWidth data-testid={`sso-${p.id}`}>
          {t('使用 {{name}} 登录', { name: p.name })}
        </Button>
      ))}
      {info.data?.ssoOnly && (
        <Text size="sm" c="dimmed" data-testid="sso-only">
          {t('本站仅允许单点登录，密码登录仅供管理员使用。')}
        </Text>
      )}
      {providers.length > 0 && <Divider label={t('或使用密码')} labelPosition="center" />}
    </Stack>
  )
}
