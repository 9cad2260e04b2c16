/**
 * Scoreboard (GET /api/game/{id}/scoreboard, versioned, live via `ReceivedScoreboardUpdate`):
 * top-10 timeline (lazy chart), division tabs (all, or one division: its teams, `divisionRank`, its
 * top-10 timeline and the challenges it may view; the overall tab lists only teams ranked overall,
 * docs/scoring.md#divisions), the ranking table with per-challenge solve marks and bloods, my team
 * highlighted, exports for Monitor/Admin and the big-screen entry.
 */
import { lazy, Suspense, useMemo, useState } from 'react'
import { Alert, Badge, Button, Card, Group, Pagination, SegmentedControl, Skeleton, Stack, Tabs, Text } from '@mantine/core'
import { FrozenBanner } from '../../components/FrozenBanner/FrozenBanner'
import { IconConfetti, IconDeviceTv, IconFileSpreadsheet, IconHistory } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import { gameApi } from '../../api/game'
import { queryKeys } from '../../api/queryKeys'
import { boardOfDivision, divisionRows, divisionTimeline } from '../../utils/divisionBoard'
import { useQuery } from '@tanstack/react-query'
import { gameQuery, myTeamsQuery } from '../../live/queries'
import { Countdown, formatTime, useNow } from '../../components/GameTime/GameTime'
import { RealtimeStatus } from '../../components/RealtimeStatus/RealtimeStatus'
import { ScoreboardTable } from '../../components/ScoreboardTable/ScoreboardTable'
import { useGameId } from '../../layouts/WithGameTab'
import { hasRole, useRole, useSession } from '../../stores/session'
import { useGameLive } from './useGameLive'
import { useGameRoom } from '../../realtime/hooks'
import { t } from '../../i18n'

const ScoreTimeline = lazy(() => import('../../components/ScoreTimeline/ScoreTimeline'))

const PAGE_SIZE = 50
/** How often staff's live view of a frozen board is refreshed while the monitor hub is not connected. */
const LIVE_REFRESH_MS = 3000
const ALL = 'all'

/** Team ids of the signed-in user (for highlighting), empty when signed out. */
function useMyTeamIds(): ReadonlySet<number> {
  const status = useSession((s) => s.status)
  const { data } = useQuery({ ...myTeamsQuery(status === 'authenticated'), refetchInterval: false })
  return useMemo(() => new Set((data ?? []).map((t) => t.id)), [data])
}

export default function Scoreboard() {
  const gameId = useGameId()
  const { data: game } = useQuery(gameQuery(gameId))
  const live = useGameLive(gameId, { scoreboard: true, start: game?.start })
  const role = useRole()
  // Staff may switch to the live board while the public one is frozen (docs/scoring.md#freeze).
  const [view, setView] = useState<'frozen' | 'live'>('frozen')
  const staff = hasRole(role, 'Monitor')
  const publicBoard = live.scoreboard.data?.scoreboard ?? null
  const wantsLive = staff && view === 'live' && gameId !== null && !!publicBoard?.frozen
  // The live pushes of a frozen game go to the monitor hub (docs/realtime.md#freeze): each one refetches the live board.
  const staffRoom = useGameRoom(wantsLive ? gameId : null, {
    namespace: 'monitor',
    events: { ReceivedScoreboardUpdate: () => void liveBoard.refetch() },
  })
  const liveBoard = useQuery({
    queryKey: queryKeys.game.scoreboardStaffLive(gameId ?? 0),
    queryFn: () => gameApi.scoreboard(gameId!, undefined, 'live'),
    enabled: wantsLive,
    refetchInterval: staffRoom.connected ? false : LIVE_REFRESH_MS,
  })
  const showLive = staff && view === 'live' && !!publicBoard?.frozen && !!liveBoard.data
  const scoreboard = showLive ? liveBoard.data!.scoreboard : publicBoard
  const version = showLive ? liveBoard.data!.version : (live.scoreboard.data?.version ?? -1)
  const mine = useMyTeamIds()
  const now = useNow(15_000)
  const [tab, setTab] = useState<string>(ALL)
  const [page, setPage] = useState(1)

  const divisions = scoreboard?.divisions ?? []
  const division = divisions.find((d) => String(d.id) === tab) ?? null
  const items = useMemo(() => divisionRows(scoreboard?.items ?? [], division?.id ?? null), [scoreboard?.items, division])
  const board = useMemo(() => (scoreboard && division ? boardOfDivision(scoreboard, division.id) : scoreboard), [scoreboard, division])
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE))
  const currentPage = Math.min(page, pages)
  const pageItems = items.slice((currentPage - 1) * PAGE_SIZE, currentPage * PAGE_SIZE)
  const myRow = items.find((i) => mine.has(i.id))
  const timeLines = scoreboard ? divisionTimeline(scoreboard, division?.id ?? null) : []

  if (gameId === null) return <Alert color="alert">{t('无效的比赛')}</Alert>

  if (!scoreboard || !board) {
    const error = live.scoreboard.error
    return (
      <Stack data-testid="scoreboard-page">
        {error ? (
          <Alert color={error.message === t('比赛未开始') ? 'blue' : 'alert'} variant="light" title={error.message} data-testid="scoreboard-error">
            {game && <Countdown start={game.start} end={game.end} />}
          </Alert>
        ) : (
          <>
            <Skeleton height={320} radius="md" />
            <Skeleton height={240} radius="md" />
          </>
        )}
      </Stack>
    )
  }

  const jumpToMine = () => {
    if (!myRow) return
    const index = items.indexOf(myRow)
    setPage(Math.floor(index / PAGE_SIZE) + 1)
  }

  return (
    <Stack gap="md" data-testid="scoreboard-page" data-version={version} data-live={live.connected} data-view={showLive ? 'live' : 'public'}>
      {staff && publicBoard?.frozen && (
        <Group justify="flex-end">
          <SegmentedControl
            value={view}
            onChange={(v) => setView(v === 'live' ? 'live' : 'frozen')}
            data={[
              { value: 'frozen', label: t('选手所见（冻结）') },
              { value: 'live', label: t('实时榜') },
            ]}
            data-testid="scoreboard-view-toggle"
          />
        </Group>
      )}
      <FrozenBanner scoreboard={scoreboard} />
      <Card withBorder radius="md" padding="md">
        {timeLines.length > 0 && game ? (
          <Suspense fallback={<Skeleton height={320} />}>
            <ScoreTimeline timeLines={timeLines} start={game.start} end={game.end} now={now} />
          </Suspense>
        ) : (
          <Text c="dimmed" ta="center" py="xl">
            {t('暂无解题记录')}
          </Text>
        )}
      </Card>

      {divisions.length > 0 && (
        <Tabs
          value={division ? String(division.id) : ALL}
          onChange={(v) => {
            setTab(v ?? ALL)
            setPage(1)
          }}
          data-testid="scoreboard-division-tabs"
        >
          <Tabs.List>
            <Tabs.Tab value={ALL} data-testid="scoreboard-division-tab-all">
              {t('总榜')}
            </Tabs.Tab>
            {divisions.map((d) => (
              <Tabs.Tab key={d.id} value={String(d.id)} data-testid={`scoreboard-division-tab-${d.id}`}>
                {d.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}

      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          {myRow && (
            <Badge size="lg" variant="light" style={{ cursor: 'pointer' }} onClick={jumpToMine} data-testid="scoreboard-my-rank">
              {t('我的队伍 #')}{division ? myRow.divisionRank : myRow.rank} · {myRow.score} {t('分')}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <RealtimeStatus />
          <Text size="xs" c="dimmed" data-testid="scoreboard-updated">
            {t('更新于')} {formatTime(scoreboard.updateTimeUTC, 'HH:mm:ss')}
          </Text>
          {hasRole(role, 'Monitor') && (
            <>
              <Button component="a" href={gameApi.scoreboardSheetUrl(gameId)} size="xs" variant="light" leftSection={<IconFileSpreadsheet size={14} />} data-testid="export-scoreboard">
                {t('导出积分榜')}
              </Button>
              <Button component="a" href={gameApi.submissionSheetUrl(gameId)} size="xs" variant="light" leftSection={<IconFileSpreadsheet size={14} />} data-testid="export-submissions">
                {t('导出提交记录')}
              </Button>
            </>
          )}
          {/* Staff replay any game; others an ended one whose organiser allows it (docs/scoring.md#replay). */}
          {(hasRole(role, 'Monitor') || (game?.replayPublic && Date.parse(game.end) < now)) && (
            <Button component={Link} to={`/games/${gameId}/scoreboard/replay`} size="xs" variant="light" leftSection={<IconHistory size={14} />} data-testid="open-replay">
              {t('回放')}
            </Button>
          )}
          {hasRole(role, 'Admin') && (
            <Button component={Link} to={`/games/${gameId}/scoreboard/reveal`} size="xs" variant="light" leftSection={<IconConfetti size={14} />} data-testid="open-reveal-control">
              {t('揭晓控制')}
            </Button>
          )}
          <Button component={Link} to={`/games/${gameId}/scoreboard/bigscreen${division ? `?division=${division.id}` : ''}`} size="xs" variant="light" leftSection={<IconDeviceTv size={14} />} data-testid="open-bigscreen">
            {t('大屏模式')}
          </Button>
        </Group>
      </Group>

      <Card withBorder radius="md" padding={0}>
        {items.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl" data-testid="scoreboard-empty">
            {t('暂无队伍')}
          </Text>
        ) : (
          <ScoreboardTable
            scoreboard={board}
            items={pageItems}
            highlight={mine}
            divisionRank={division !== null}
            showOrganization={division === null && (divisions.length > 0 || items.some((i) => i.organization))}
          />
        )}
      </Card>
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={currentPage} onChange={setPage} data-testid="scoreboard-pagination" />
        </Group>
      )}
    </Stack>
  )
}
