import { useCallback, useEffect, useState } from 'react'
import { Button, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconDoorExit, IconLink, IconPlus, IconSettings, IconUsersGroup } from '@tabler/icons-react'
import type { TeamUpdate } from '@flagwave/shared/events'
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { useLiveQuery } from '../../api/useLiveQuery'
import { ApiError } from '../../api/http'
import { teamApi } from '../../api/teams'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { TeamCard } from '../../components/TeamCard/TeamCard'
import { useHubEvent } from '../../realtime/hooks'
import { useSession } from '../../stores/session'
import { applyTeamUpdate, isCaptainOf, useTeamsStore } from '../../stores/teams'
import { notifyError, notifySuccess } from '../../utils/notify'
import { CreateTeamModal } from './CreateTeamModal'
import { JoinTeamModal } from './JoinTeamModal'
import { TeamManageModal } from './TeamManageModal'
import { removeTeam } from './teamCache'
import { LoadError } from '../../components/LoadError/LoadError'
import { formatList, t } from '../../i18n'

/**
 * A banned user gets 403 from every RequireUser endpoint (docs/compatibility.md#sessions-and-roles) and the server drops
 * their sockets, after which this screen refetches at once: let the session re-read the profile,
 * which logs out and says "account disabled" on 403 (and signs out on 401).
 */
function recheckSession(error: Error): void {
  if (error instanceof ApiError && (error.status === 401 || error.effectiveStatus === 403)) void useSession.getState().refresh().catch(() => undefined)
}

/** GET /api/team, re-checking the session when it is refused. */
async function listTeams(): Promise<TeamInfoModel[]> {
  try {
    return await teamApi.list()
  } catch (error) {
    recheckSession(error as Error)
    throw error
  }
}

/** Tell the user what a push changed, unless they did it themselves from this tab. */
function announce(update: TeamUpdate, userId: string, result: ReturnType<typeof applyTeamUpdate>): void {
  const { previous, kind } = result
  if (useTeamsStore.getState().busy[update.teamId]) return
  const name = update.team?.name ?? previous?.name ?? `#${update.teamId}`
  if (kind === 'deleted') {
    notifications.show({ color: 'alert', title: t('队伍变动'), message: t('队伍「{{name}}」已解散', { name }) })
  } else if (kind === 'removed') {
    notifications.show({ color: 'alert', title: t('队伍变动'), message: t('你已不在队伍「{{name}}」中', { name }) })
  } else if (kind === 'updated' && previous && update.team) {
    const before = new Set((previous.members ?? []).map((m) => m.id))
    const joined = (update.team.members ?? []).filter((m) => !before.has(m.id) && m.id !== userId)
    if (joined.length) notifications.show({ color: 'brand', title: t('队伍变动'), message: t('{{v0}} 加入了队伍「{{name}}」', { v0: formatList(joined.map((m) => m.userName)), name }) })
    if (!isCaptainOf(previous, userId) && isCaptainOf(update.team, userId)) {
      notifications.show({ color: 'brand', title: t('队伍变动'), message: t('你已成为队伍「{{name}}」的队长', { name }) })
    }
  }
}

/**
 * Teams (route `Teams`): the caller's teams as cards; create, join by invite code, manage
 * (captain) or leave. Membership changes arrive live through `ReceivedTeamUpdate`.
 */
export default function Teams() {
  const userId = useSession((state) => state.profile?.userId ?? null)
  const busy = useTeamsStore((state) => state.busy)
  const setBusy = useTeamsStore((state) => state.setBusy)
  const [createOpened, setCreateOpened] = useState(false)
  const [joinOpened, setJoinOpened] = useState(false)
  const [managedId, setManagedId] = useState<number | null>(null)

  const onTeamUpdate = useCallback(
    (update: TeamUpdate) => {
      const result = applyTeamUpdate(queryClient.getQueryData<TeamInfoModel[]>(queryKeys.teams), update, userId)
      if (result.kind === 'ignored' || result.teams === undefined) return
      queryClient.setQueryData<TeamInfoModel[]>(queryKeys.teams, result.teams)
      if (userId) announce(update, userId, result)
    },
    [userId],
  )
  const { connected } = useHubEvent('user', 'ReceivedTeamUpdate', onTeamUpdate)
  const { data: teams, error, isLoading } = useLiveQuery({ queryKey: queryKeys.teams, queryFn: listTeams }, connected)

  // The managed team as it is now; gone (or no longer captained) closes the dialog.
  const managed = teams?.find((team) => team.id === managedId && isCaptainOf(team, userId)) ?? null
  useEffect(() => {
    if (managedId !== null && teams && !managed) setManagedId(null)
  }, [managedId, teams, managed])

  const leave = async (team: TeamInfoModel) => {
    const ok = await confirmDialog({ title: t('退出队伍'), message: t('确定退出队伍「{{name}}」吗？', { name: team.name }), confirmLabel: t('退出'), danger: true })
    if (!ok) return
    setBusy(team.id, true)
    try {
      await teamApi.leave(team.id)
      removeTeam(team.id)
      notifySuccess(t('已退出队伍「{{name}}」', { name: team.name }))
    } catch (cause) {
      notifyError(cause, t('退出队伍失败'))
    } finally {
      setBusy(team.id, false)
    }
  }

  const actions = (
    <Group gap="xs">
      <Button variant="default" leftSection={<IconLink size={16} />} onClick={() => setJoinOpened(true)} data-testid="team-join-open">
        {t('加入队伍')}
      </Button>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setCreateOpened(true)} data-testid="team-create-open">
        {t('创建队伍')}
      </Button>
    </Group>
  )

  return (
    <Stack gap="lg" data-testid="teams-page" data-live={connected ? 'true' : 'false'}>
      <Group justify="space-between">
        <Title order={2}>{t('队伍')}</Title>
        {actions}
      </Group>
      {error && (
        <LoadError error={error} testId="teams-error" />
      )}
      {isLoading ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : teams && teams.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="team-list">
          {teams.map((team) => {
            const captain = isCaptainOf(team, userId)
            return (
              <TeamCard
                key={team.id}
                team={team}
                userId={userId}
                actions={
                  captain ? (
                    <Button size="xs" variant="light" leftSection={<IconSettings size={14} />} onClick={() => setManagedId(team.id)} data-testid="team-manage">
                      {t('管理队伍')}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="alert"
                      leftSection={<IconDoorExit size={14} />}
                      loading={!!busy[team.id]}
                      onClick={() => void leave(team)}
                      data-testid="team-leave"
                    >
                      {t('退出队伍')}
                    </Button>
                  )
                }
              />
            )
          })}
        </SimpleGrid>
      ) : (
        !error && (
          <Stack align="center" gap="xs" py={60} data-testid="teams-empty">
            <IconUsersGroup size={56} stroke={1.2} color="var(--mantine-color-dimmed)" />
            <Text c="dimmed">{t('你还没有加入任何队伍')}</Text>
            <Text size="sm" c="dimmed">
              {t('创建一支队伍并把邀请码发给队友，或者用队长给你的邀请码加入队伍。')}
            </Text>
          </Stack>
        )
      )}
      <CreateTeamModal opened={createOpened} onClose={() => setCreateOpened(false)} />
      <JoinTeamModal opened={joinOpened} onClose={() => setJoinOpened(false)} />
      {userId && <TeamManageModal team={managed} userId={userId} onClose={() => setManagedId(null)} />}
    </Stack>
  )
}
