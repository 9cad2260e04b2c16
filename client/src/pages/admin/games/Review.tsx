/**
 * Participation review (GET /api/game/{id}/participations, PUT /api/admin/participation/{id}/{status}):
 * every team of the game grouped by status (pending first), with its organization and members —
 * registered members marked, with real name, student number and contacts — and buttons to
 * accept, reject or suspend. Accepting locks the team and creates its challenge instances. A game
 * with divisions shows a select per participation that moves it to another division
 * (PUT /api/admin/participation/{id} `{divisionId}`, docs/scoring.md#divisions).
 */
import { useMemo, useState } from 'react'
import { Avatar, Badge, Button, Card, Group, SegmentedControl, Select, Skeleton, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconBan, IconCheck, IconLock, IconSearch, IconX } from '@tabler/icons-react'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import type { ParticipationInfoModel } from '@flagwave/shared/schemas/teams'
import type { Division } from '@flagwave/shared/schemas/games'
import { editApi } from '../../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { GameEditFrame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { LoadError } from '../../../components/LoadError/LoadError'
import { t } from '../../../i18n'
import classes from './Review.module.css'

const STATUS_META: Record<ParticipationStatus, { label: string; color: string }> = {
  Pending: { label: t('待审核'), color: 'yellow' },
  Accepted: { label: t('已通过'), color: 'brand' },
  Suspended: { label: t('已禁赛'), color: 'orange' },
  Rejected: { label: t('已拒绝'), color: 'alert' },
  Unsubmitted: { label: t('未提交'), color: 'gray' },
}

/** Groups in display order. */
const STATUS_ORDER: ParticipationStatus[] = ['Pending', 'Accepted', 'Suspended', 'Rejected', 'Unsubmitted']

const ACTIONS: { status: ParticipationStatus; label: string; color: string; icon: typeof IconCheck }[] = [
  { status: 'Accepted', label: t('通过'), color: 'brand', icon: IconCheck },
  { status: 'Rejected', label: t('拒绝'), color: 'alert', icon: IconX },
  { status: 'Suspended', label: t('禁赛'), color: 'orange', icon: IconBan },
]

interface CardProps {
  participation: ParticipationInfoModel
  busy: ParticipationStatus | null
  onSet: (status: ParticipationStatus) => void
  divisions: Division[]
  moving: boolean
  onMove: (divisionId: number) => void
}

function ParticipationCard({ participation, busy, onSet, divisions, moving, onMove }: CardProps) {
  const { team } = participation
  const registered = new Set(participation.registeredMembers)
  const members = [...(team.members ?? [])].sort((a, b) => Number(registered.has(b.userId)) - Number(registered.has(a.userId)))
  return (
    <Card withBorder radius="md" padding="sm" data-testid="participation-card" data-participation-id={participation.id} data-status={participation.status}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Avatar src={team.avatar ?? undefined} radius="xl" color="brand">
              {team.name.slice(0, 1)}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <Text fw={600} lineClamp={1} data-testid="participation-team">
                  {team.name}
                </Text>
                {team.locked && (
                  <Tooltip label={t('队伍已锁定')} withArrow>
                    <IconLock size={14} />
                  </Tooltip>
                )}
              </Group>
              <Text size="xs" c="dimmed" lineClamp={1}>
                #{team.id} {team.bio}
              </Text>
            </Stack>
          </Group>
          <Group gap={6} wrap="nowrap">
            {divisions.length > 0 ? (
              <Select
                size="xs"
                w={160}
                aria-label={t('分组')}
                placeholder={t('未分组')}
                data={divisions.map((d) => ({ value: String(d.id), label: d.name }))}
                value={participation.divisionId === null ? null : String(participation.divisionId)}
                onChange={(value) => value !== null && Number(value) !== participation.divisionId && onMove(Number(value))}
                allowDeselect={false}
                disabled={moving}
                data-testid="participation-division"
              />
            ) : participation.organization && (
              <Badge variant="outline" data-testid="participation-organization">
                {participation.organization}
              </Badge>
            )}
            <Badge color={STATUS_META[participation.status].color} variant="light" data-testid="participation-status">
              {STATUS_META[participation.status].label}
            </Badge>
          </Group>
        </Group>
        {/* Fixed column widths: the members of every card line up under each other. */}
        <Table fz="xs" verticalSpacing={4} layout="fixed" data-testid="participation-members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="30%">{t('用户')}</Table.Th>
              <Table.Th w="15%">{t('真实姓名')}</Table.Th>
              <Table.Th w="15%">{t('学工号')}</Table.Th>
              <Table.Th w="25%">{t('邮箱')}</Table.Th>
              <Table.Th w="15%">{t('手机号')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => {
              const isRegistered = registered.has(member.userId)
              return (
                <Table.Tr key={member.userId} style={{ opacity: isRegistered ? 1 : 0.55 }} data-testid="participation-member" data-registered={isRegistered ? 'true' : 'false'}>
                  <Table.Td className={classes.cell}>
                    <Group gap={6} wrap="nowrap">
                      <Avatar src={member.avatar ?? undefined} size={20} radius="xl" />
                      <Text size="xs">{member.userName}</Text>
                      {member.userId === team.captainId && (
                        <Badge size="xs" variant="light">
                          {t('队长')}
                        </Badge>
                      )}
                      {!isRegistered && (
                        <Badge size="xs" color="gray" variant="outline">
                          {t('未报名')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td className={classes.cell} title={member.realName || '—'}>
                    {member.realName || '—'}
                  </Table.Td>
                  <Table.Td className={classes.cell} title={member.stdNumber || '—'}>
                    {member.stdNumber || '—'}
                  </Table.Td>
                  <Table.Td className={classes.cell} title={member.email ?? '—'}>
                    {member.email ?? '—'}
                  </Table.Td>
                  <Table.Td className={classes.cell} title={member.phone || '—'}>
                    {member.phone || '—'}
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end" gap="xs">
          {ACTIONS.filter((action) => action.status !== participation.status).map(({ status, label, color, icon: Icon }) => (
            <Button
              key={status}
              size="xs"
              variant="light"
              color={color}
              leftSection={<Icon size={14} />}
              loading={busy === status}
              disabled={busy !== null && busy !== status}
              onClick={() => onSet(status)}
              data-testid={`participation-${status.toLowerCase()}`}
            >
              {label}
            </Button>
          ))}
        </Group>
      </Stack>
    </Card>
  )
}

export default function Review() {
  const gameId = useEditGameId()
  const queryKey = queryKeys.game.participations(gameId ?? 0)
  const { data, error, isLoading, refetch: revalidate } = useQuery({ queryKey, queryFn: gameId === null ? skipToken : () => editApi.participations.list(gameId) })
  const mutate = (update: (current: ParticipationInfoModel[] | undefined) => ParticipationInfoModel[]) => queryClient.setQueryData(queryKey, update)
  const [filter, setFilter] = useState<ParticipationStatus | 'all'>('all')
  const [search, setSearch] = useState('')
  const [busy, setBusy] = useState<{ id: number; status: ParticipationStatus } | null>(null)
  const { data: divisions } = useQuery({ queryKey: queryKeys.edit.divisions(gameId ?? 0), queryFn: gameId === null ? skipToken : () => editApi.divisions.list(gameId) })
  const [moving, setMoving] = useState<number | null>(null)

  const setDivision = async (participation: ParticipationInfoModel, divisionId: number) => {
    const division = (divisions ?? []).find((d) => d.id === divisionId)
    if (!division) return
    setMoving(participation.id)
    try {
      await editApi.participations.setDivision(participation.id, divisionId)
      await mutate((current) => (current ?? []).map((p) => (p.id === participation.id ? { ...p, divisionId, division: division.name, organization: division.name } : p)))
      notifySuccess(t('「{{name}}」已移至分组「{{division}}」', { name: participation.team.name, division: division.name }))
      void revalidate()
    } catch (err) {
      notifyError(err, t('移动分组失败'))
    } finally {
      setMoving(null)
    }
  }

  const setStatus = async (participation: ParticipationInfoModel, status: ParticipationStatus) => {
    if (status === 'Suspended' || status === 'Rejected') {
      const confirmed = await confirmDialog({
        title: t('{{label}}：{{name}}', { label: STATUS_META[status].label, name: participation.team.name }),
        message: status === 'Suspended' ? t('禁赛后该队伍将从排行榜中移除，且无法继续提交。确定吗？') : t('确定要拒绝该队伍的报名吗？'),
        danger: true,
      })
      if (!confirmed) return
    }
    setBusy({ id: participation.id, status })
    try {
      await editApi.participations.setStatus(participation.id, status)
      await mutate((current) => (current ?? []).map((p) => (p.id === participation.id ? { ...p, status } : p)))
      notifySuccess(t('「{{name}}」{{label}}', { name: participation.team.name, label: STATUS_META[status].label }))
      void revalidate()
    } catch (err) {
      notifyError(err, t('审核操作失败'))
    } finally {
      setBusy(null)
    }
  }

  const counts = useMemo(() => {
    const map = new Map<ParticipationStatus, number>()
    for (const p of data ?? []) map.set(p.status, (map.get(p.status) ?? 0) + 1)
    return map
  }, [data])

  const needle = search.trim().toLowerCase()
  const visible = (data ?? []).filter(
    (p) =>
      (filter === 'all' || p.status === filter) &&
      (!needle || p.team.name.toLowerCase().includes(needle) || (p.organization ?? '').toLowerCase().includes(needle) || (p.team.members ?? []).some((m) => (m.userName ?? '').toLowerCase().includes(needle))),
  )

  return (
    <GameEditFrame testId="admin-game-review-page">
      <Group justify="space-between">
        <SegmentedControl
          value={filter}
          onChange={(value) => setFilter(value as ParticipationStatus | 'all')}
          data={[
            { value: 'all', label: t('全部（{{v0}}）', { v0: data?.length ?? 0 }) },
            ...STATUS_ORDER.filter((s) => s !== 'Unsubmitted' || counts.has(s)).map((s) => ({ value: s, label: t('{{label}}（{{v1}}）', { label: STATUS_META[s].label, v1: counts.get(s) ?? 0 }) })),
          ]}
          data-testid="review-filter"
        />
        <TextInput placeholder={t('搜索队伍、单位或成员')} leftSection={<IconSearch size={14} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={240} data-testid="review-search" />
      </Group>
      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Skeleton height={160} />
      ) : data && visible.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="review-empty">
          {data.length === 0 ? t('暂无队伍报名') : t('没有符合条件的队伍')}
        </Text>
      ) : (
        <Stack gap="lg" data-testid="review-list">
          {STATUS_ORDER.map((status) => {
            const group = visible.filter((p) => p.status === status)
            if (group.length === 0) return null
            return (
              <Stack key={status} gap="xs" data-testid="review-group" data-status={status}>
                <Group gap="xs">
                  <Badge color={STATUS_META[status].color} size="lg" variant="light">
                    {STATUS_META[status].label}
                  </Badge>
                  <Title order={6} c="dimmed">
                    {group.length} {t('支队伍')}
                  </Title>
                </Group>
                {group.map((participation) => (
                  <ParticipationCard
                    key={participation.id}
                    participation={participation}
                    busy={busy?.id === participation.id ? busy.status : null}
                    onSet={(next) => void setStatus(participation, next)}
                    divisions={divisions ?? []}
                    moving={moving === participation.id}
                    onMove={(divisionId) => void setDivision(participation, divisionId)}
                  />
                ))}
              </Stack>
            )
          })}
        </Stack>
      )}
    </GameEditFrame>
  )
}
