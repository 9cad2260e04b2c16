import { useEffect, useState } from 'react'
import { Button, Group, Loader, Stack, Text } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import { teamApi } from '../../api/teams'
import { errorMessage } from '../../api/http'
import { useTeamsStore } from '../../stores/teams'
import { notifySuccess } from '../../utils/notify'
import { confirmDialog } from '../ConfirmDialog/confirm'
import { CopyableText } from '../CopyableText/CopyableText'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

export interface InviteCodeBoxProps {
  teamId: number
  /** The team's current name: the code embeds it, so a rename fetches a fresh code. */
  teamName: string | null
}

/**
 * The captain's invite code (GET /api/team/{id}/invite, docs/compatibility.md#team-invite-code `{name}:{id}:{token}`):
 * shown, copied to the clipboard, regenerated (PUT) after a confirmation — old codes then stop working.
 */
export function InviteCodeBox({ teamId, teamName }: InviteCodeBoxProps) {
  const invite = useTeamsStore((state) => state.invites[teamId])
  const setInvite = useTeamsStore((state) => state.setInvite)
  const [error, setError] = useState<string | null>(null)
  const { busy, run } = useAction()

  const stale = !invite || invite.name !== teamName
  useEffect(() => {
    if (!stale) return
    let active = true
    setError(null)
    teamApi
      .invite(teamId)
      .then((code) => active && setInvite(teamId, code, teamName))
      .catch((cause: unknown) => active && setError(errorMessage(cause)))
    return () => {
      active = false
    }
  }, [teamId, teamName, stale, setInvite])

  const regenerate = async () => {
    const ok = await confirmDialog({ title: t('重新生成邀请码'), message: t('重新生成后，旧的邀请码将立即失效。确定继续吗？'), confirmLabel: t('重新生成') })
    if (!ok) return
    await run(t('邀请码更新失败'), async () => {
      setInvite(teamId, await teamApi.regenerateInvite(teamId), teamName)
      notifySuccess(t('邀请码已更新'))
    })
  }

  return (
    <Stack gap="xs" data-testid="invite-box">
      {invite && !stale ? (
        <CopyableText value={invite.code} copiedMessage={t('邀请码已复制')} testId="invite-code" copyTestId="invite-copy" />
      ) : error ? (
        <Text size="sm" c="alert" data-testid="invite-error">
          {error}
        </Text>
      ) : (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('正在获取邀请码…')}
          </Text>
        </Group>
      )}
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t('将邀请码发给队友，队友在「加入队伍」中粘贴即可加入。')}
        </Text>
        <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} />} loading={busy} onClick={() => void regenerate()} data-testid="invite-regenerate">
          {t('重新生成')}
        </Button>
      </Group>
    </Stack>
  )
}
