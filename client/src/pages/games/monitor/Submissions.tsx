/**
 * games/{id}/monitor/Submissions (Monitor+): every submission of the game, newest first, growing
 * live from `/hub/monitor?game={id}` (`ReceivedSubmissions`, final statuses) over the paged
 * `GET /api/game/{id}/submissions`. Status filter on the server (`type`), team and challenge
 * filters on the loaded rows; pause/resume; load more; sheet exports in the frame.
 */
import { useMemo, useState } from 'react'
import { Group, Select, Text } from '@mantine/core'
import { AnswerResult, answerResultText } from '@flagwave/shared/enums'
import type { Submission } from '@flagwave/shared/schemas/play'
import { monitorApi } from '../../../api/monitor'
import { queryKeys } from '../../../api/queryKeys'
import { useGameId } from '../../../layouts/WithGameTab'
import { LiveTable, type LiveColumn } from '../../../components/LiveTable/LiveTable'
import { DEFAULT_PAGE_SIZE, timeMs } from '../../../components/LiveTable/useLiveFeed'
import { LiveFeedControls } from '../../../components/LiveFeedControls/LiveFeedControls'
import { MonitorFrame } from '../../../components/MonitorFrame/MonitorFrame'
import { AnswerResultBadge } from '../../../components/MonitorBadges/MonitorBadges'
import { formatTime } from '../../../components/GameTime/GameTime'
import { distinct, useMonitorFeed } from './useMonitorFeed'
import { ValueFilter } from './ValueFilter'
import { t } from '../../../i18n'

const submissionKey = (s: Submission): string => `${timeMs(s.time)}|${s.team}|${s.user}|${s.challenge}|${s.answer}`

const STATUS_OPTIONS = [{ value: 'All', label: t('全部状态') }, ...AnswerResult.map((value) => ({ value, label: t(answerResultText[value]) }))]

const COLUMNS: LiveColumn<Submission>[] = [
  { key: 'time', header: t('时间'), width: 150, render: (s) => <span data-testid="submission-time">{formatTime(s.time, 'MM-DD HH:mm:ss')}</span> },
  { key: 'status', header: t('状态'), width: 110, render: (s) => <AnswerResultBadge status={s.status} /> },
  { key: 'team', header: t('队伍'), render: (s) => <span data-testid="submission-team">{s.team}</span> },
  { key: 'user', header: t('用户'), render: (s) => s.user || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'challenge', header: t('题目'), render: (s) => <span data-testid="submission-challenge">{s.challenge}</span> },
  { key: 'answer', header: t('答案'), wrap: true, mono: true, render: (s) => <span data-testid="submission-answer">{s.answer}</span> },
]

export default function Submissions() {
  const gameId = useGameId()
  const [status, setStatus] = useState<AnswerResult | null>(null)
  const [team, setTeam] = useState<string | null>(null)
  const [challenge, setChallenge] = useState<string | null>(null)

  const filter = useMemo(() => ({ type: status }), [status])
  const feed = useMonitorFeed<Submission>(gameId, (push) => ({ ReceivedSubmissions: push }), {
    queryKey: gameId === null ? null : queryKeys.monitor.submissions(gameId, filter, DEFAULT_PAGE_SIZE),
    fetchPage: (count, skip) => monitorApi.submissions(gameId!, filter, count, skip),
    keyOf: submissionKey,
    timeOf: (s) => timeMs(s.time),
    accepts: (s) => status === null || s.status === status,
  })

  const teams = useMemo(() => distinct(feed.rows.map((r) => r.item.team)), [feed.rows])
  const challenges = useMemo(() => distinct(feed.rows.map((r) => r.item.challenge)), [feed.rows])
  const rows = useMemo(
    () => feed.rows.filter((r) => (team === null || r.item.team === team) && (challenge === null || r.item.challenge === challenge)),
    [feed.rows, team, challenge],
  )

  if (gameId === null) return null
  return (
    <MonitorFrame
      gameId={gameId}
      section="submissions"
      testId="monitor-submissions-page"
      actions={
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <Select
              size="xs"
              w={140}
              data={STATUS_OPTIONS}
              value={status ?? 'All'}
              onChange={(value) => setStatus(value && value !== 'All' ? (value as AnswerResult) : null)}
              allowDeselect={false}
              aria-label={t('提交状态')}
              data-testid="submission-status-filter"
            />
            <ValueFilter values={teams} value={team} onChange={setTeam} noun={t('队伍')} testId="submission-team-filter" />
            <ValueFilter values={challenges} value={challenge} onChange={setChallenge} noun={t('题目')} testId="submission-challenge-filter" />
          </Group>
          <LiveFeedControls feed={feed} namespace="monitor" shown={rows.length} testId="submissions-live" />
        </Group>
      }
    >
      <LiveTable feed={feed} rows={rows} columns={COLUMNS} rowProps={(s) => ({ 'data-status': s.status })} emptyText={t('暂无提交记录')} testId="submissions-table" />
    </MonitorFrame>
  )
}
