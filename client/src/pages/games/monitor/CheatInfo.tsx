/**
 * games/{id}/monitor/CheatInfo (Monitor+): submissions that matched another team's dynamic flag
 * (`GET /api/game/{id}/cheatinfo`): the team whose flag it was, the team that submitted it, the
 * answer and the time. A pushed `CheatDetected` event refetches the list (the push carries no
 * CheatInfoModel); new reports are highlighted, or held while paused.
 */
import { useMemo, useState } from 'react'
import { Avatar, Group, Select, Stack, Text } from '@mantine/core'
import type { CheatInfoModel } from '@flagwave/shared/schemas/play'
import type { ParticipationModel } from '@flagwave/shared/schemas/teams'
import { monitorApi } from '../../../api/monitor'
import { queryKeys } from '../../../api/queryKeys'
import { useGameRoom } from '../../../realtime/hooks'
import { useGameId } from '../../../layouts/WithGameTab'
import { LiveTable, type LiveColumn } from '../../../components/LiveTable/LiveTable'
import { timeMs, useLiveFeed } from '../../../components/LiveTable/useLiveFeed'
import { LiveFeedControls } from '../../../components/LiveFeedControls/LiveFeedControls'
import { MonitorFrame } from '../../../components/MonitorFrame/MonitorFrame'
import { AnswerResultBadge } from '../../../components/MonitorBadges/MonitorBadges'
import { formatTime } from '../../../components/GameTime/GameTime'
import { t } from '../../../i18n'

function TeamCell({ participation, testId }: { participation: ParticipationModel; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId} data-team-id={participation.team.id}>
      <Avatar src={participation.team.avatar ?? undefined} size={24} radius="xl" color="brand">
        {participation.team.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {participation.team.name}
        </Text>
        {participation.organization && (
          <Text size="xs" c="dimmed">
            {participation.organization}
          </Text>
        )}
      </Stack>
    </Group>
  )
}

const cheatKey = (c: CheatInfoModel): string => `${timeMs(c.submission.time)}|${c.submitTeam.id}|${c.ownedTeam.id}|${c.submission.challenge}|${c.submission.answer}`

const COLUMNS: LiveColumn<CheatInfoModel>[] = [
  { key: 'time', header: t('时间'), width: 150, render: (c) => formatTime(c.submission.time, 'MM-DD HH:mm:ss') },
  { key: 'challenge', header: t('题目'), render: (c) => c.submission.challenge },
  { key: 'submit', header: t('提交队伍'), render: (c) => <TeamCell participation={c.submitTeam} testId="cheat-submit-team" /> },
  { key: 'owned', header: t('flag 所属队伍'), render: (c) => <TeamCell participation={c.ownedTeam} testId="cheat-owned-team" /> },
  { key: 'user', header: t('提交用户'), render: (c) => c.submission.user || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'answer', header: t('答案'), wrap: true, mono: true, render: (c) => c.submission.answer },
  { key: 'status', header: t('状态'), width: 110, render: (c) => <AnswerResultBadge status={c.submission.status} /> },
]

export default function CheatInfo() {
  const gameId = useGameId()
  const [team, setTeam] = useState<string | null>(null)
  const { connected } = useGameRoom(gameId, {
    namespace: 'monitor',
    events: {
      ReceivedGameEvent: (event) => {
        if (event.type === 'CheatDetected') void feed.revalidate()
      },
    },
    onResync: () => void feed.revalidate(),
  })
  const feed = useLiveFeed<CheatInfoModel>({
    queryKey: gameId === null ? null : queryKeys.monitor.cheatInfo(gameId),
    // One unpaged list: the page size is never reached, so there is no "load more".
    fetchPage: () => monitorApi.cheatInfo(gameId!),
    pageSize: Number.POSITIVE_INFINITY,
    keyOf: cheatKey,
    timeOf: (c) => timeMs(c.submission.time),
    live: connected,
  })

  const teams = useMemo(
    () => [...new Set(feed.rows.flatMap((r) => [r.item.submitTeam.team.name, r.item.ownedTeam.team.name]))].sort((a, b) => a.localeCompare(b, 'zh-CN')),
    [feed.rows],
  )
  const rows = useMemo(() => (team === null ? feed.rows : feed.rows.filter((r) => r.item.submitTeam.team.name === team || r.item.ownedTeam.team.name === team)), [feed.rows, team])

  if (gameId === null) return null
  return (
    <MonitorFrame
      gameId={gameId}
      section="cheatinfo"
      testId="monitor-cheatinfo-page"
      actions={
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Select
            size="xs"
            w={200}
            data={team && !teams.includes(team) ? [team, ...teams] : teams}
            value={team}
            onChange={setTeam}
            placeholder={t('全部队伍')}
            searchable
            clearable
            nothingFoundMessage={t('无匹配队伍')}
            aria-label={t('队伍')}
            data-testid="cheat-team-filter"
          />
          <LiveFeedControls feed={feed} namespace="monitor" shown={rows.length} testId="cheat-live" />
        </Group>
      }
    >
      <LiveTable feed={feed} rows={rows} columns={COLUMNS} emptyText={t('暂无作弊信息')} showEnd={false} testId="cheat-table" />
    </MonitorFrame>
  )
}
