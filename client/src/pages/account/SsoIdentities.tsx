/**
 * The profile's single sign-on section (docs/compatibility.md#single-sign-on): the caller's linked
 * identities with an unlink button, a link button for every other enabled provider (the server
 * answers the provider's URL, the browser goes there and comes back to the profile), and the
 * reason a link came back with `?ssoError=`.
 */
import { useState } from 'react'
import { Alert, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router-dom'
import { queryKeys } from '../../api/queryKeys'
import { SSO_ERROR_MESSAGES, ssoApi } from '../../api/sso'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

export function SsoIdentities() {
  const [params] = useSearchParams()
  const error = params.get('ssoError')
  const queryClient = useQueryClient()
  const info = useQuery({ queryKey: queryKeys.sso, queryFn: ssoApi.info })
  const identities = useQuery({ queryKey: queryKeys.identities, queryFn: ssoApi.identities })
  const [busy, setBusy] = useState<string | null>(null)
  const linked = new Set((identities.data ?? []).map((i) => i.provider))
  const linkable = (info.data?.providers ?? []).filter((p) => !linked.has(p.id))

  const link = async (id: string) => {
    setBusy(id)
    try {
      window.location.assign((await ssoApi.link(id)).url)
    } catch (err) {
      notifyError(err, t('关联失败'))
      setBusy(null)
    }
  }
  const unlink = async (id: string) => {
    setBusy(id)
    try {
      await ssoApi.unlink(id)
      notifySuccess(t('已解除关联'))
      await queryClient.invalidateQueries({ queryKey: queryKeys.identities })
    } catch (err) {
      notifyError(err, t('解除关联失败'))
    } finally {
      setBusy(null)
    }
  }

  if (!identities.data?.length && !linkable.length && !error) return null
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={4} mb="sm">
        {t('单点登录')}
      </Title>
      <Divider mb="sm" />
      <Stack gap="sm" data-testid="sso-identities">
        {error && (
          <Alert color="alert" variant="light" icon={<IconAlertCircle />} title={t('关联失败')} data-testid="sso-error">
            {SSO_ERROR_MESSAGES[error] ?? t('关联失败，请重试')}
          </Alert>
        )}
        {identities.data?.map((identity) => (
          <Group key={identity.provider} justify="space-between" data-testid={`sso-linked-${identity.provider}`}>
            <Text size="sm">
              {identity.providerName}
              {identity.email && (
                <Text span c="dimmed" size="sm">
                  {' '}
                  ({identity.email})
                </Text>
              )}
            </Text>
            <Button size="xs" variant="light" color="alert" loading={busy === identity.provider} onClick={() => unlink(identity.provider)} data-testid={`sso-unlink-${identity.provider}`}>
              {t('解除关联')}
            </Button>
          </Group>
        ))}
        {linkable.map((p) => (
          <Group key={p.id} justify="space-between">
            <Text size="sm" c="dimmed">
              {p.name}{t('（未关联）')}
            </Text>
            <Button size="xs" variant="light" loading={busy === p.id} onClick={() => link(p.id)} data-testid={`sso-link-${p.id}`}>
              {t('关联')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  )
}
