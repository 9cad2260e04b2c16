/**
 * Route `games/:id/scoreboard/replay`: the board as it stood at any moment of the game
 * (`GET /api/game/{id}/scoreboard?at=`, docs/scoring.md#replay) — a time slider over the game's
 * duration, the top-10 chart up to that moment, the ranking with its cells, and play at 1×–600×.
 * Staff may replay any game; others an ended game whose organiser allows it (the server says no
 * otherwise, shown as an alert). One request at a time: while one is out, the slider's latest
 * position waits and is fetched next, so a fast slider or a high speed never queues requests.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ActionIcon, Alert, Card, Group, Pagination, SegmentedControl, Skeleton, Slider, Stack, Text, Tooltip } from '@mantine/core'
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { revealApi } from '../../api/reveal'
import { gameQuery } from '../../live/queries'
import { formatTime } from '../../components/GameTime/GameTime'
import { ScoreboardTable } from '../../components/ScoreboardTable/ScoreboardTable'
import { useGameId } from '../../layouts/WithGameTab'
import { divisionRows, divisionTimeline } from '../../utils/divisionBoard'
import { t } from '../../i18n'

const ScoreTimeline = lazy(() => import('../../components/ScoreTimeline/ScoreTimeline'))

const PAGE_SIZE = 50
/** Play speeds: game time per wall-clock time. */
const SPEEDS = [1, 10, 60, 300, 600]
/** How often playing moves the slider. */
const TICK_MS = 250

/** The board at the latest requested moment, one request in flight at most. */
function useReplayBoard(gameId: number | null, at: number | null) {
  const [board, setBoard] = useState<{ at: number; scoreboard: ScoreboardModel } | null>(null)
  const [error, setError] = useState<Error | null>(null)
  const wanted = useRef<number | null>(null)
  const busy = useRef(false)
  const fetchLatest = useCallback(async () => {
    if (gameId === null || busy.current) return
    busy.current = true
    try {
      while (wanted.current !== null) {
        const moment = wanted.current
        wanted.current = null
        try {
          const scoreboard = await revealApi.replay(gameId, moment)
          setBoard({ at: moment, scoreboard })
          setError(null)
        } catch (err) {
          setError(err as Error)
        }
      }
    } finally {
      busy.current = false
    }
  }, [gameId])
  useEffect(() => {
    if (at === null) return
    wanted.current = at
    void fetchLatest()
  }, [at, fetchLatest])
  return { board, error }
}

export default function Replay() {
  const gameId = useGameId()
  const { data: game } = useQuery(gameQuery(gameId))
  const start = game ? Date.parse(game.start) : 0
  // A running game replays up to now.
  const [loadedAt] = useState(() => Date.now())
  const end = game ? Math.max(start, Math.min(Date.parse(game.end), loadedAt)) : 0
  const [at, setAt] = useState<number | null>(null)
  const [playing, setPlaying] = useState(false)
  const [speed, setSpeed] = useState(60)
  const [page, setPage] = useState(1)
  const moment = at ?? (game ? end : null)
  const { board, error } = useReplayBoard(gameId, moment)

  useEffect(() => {
    if (!playing) return
    const timer = window.setInterval(() => {
      setAt((a) => {
        const next = Math.min(end, (a ?? start) + TICK_MS * speed)
        if (next >= end) setPlaying(false)
        return next
      })
    }, TICK_MS)
    return () => window.clearInterval(timer)
  }, [playing, speed, start, end])

  const items = useMemo(() => divisionRows(board?.scoreboard.items ?? [], null), [board])
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE))
  const currentPage = Math.min(page, pages)

  if (gameId === null) return <Alert color="alert">{t('无效的比赛')}</Alert>
  if (!game) return <Skeleton height={320} radius="md" />

  const play = () => {
    if (!playing && (moment ?? end) >= end) setAt(start)
    setPlaying(!playing)
  }

  return (
    <Stack gap="md" data-testid="replay-page">
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Group gap="sm">
              <Tooltip label={playing ? t('暂停') : t('播放')}>
                <ActionIcon size="lg" variant="filled" onClick={play} aria-label={playing ? t('暂停') : t('播放')} data-testid="replay-play" data-playing={playing}>
                  {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
                </ActionIcon>
              </Tooltip>
              <SegmentedControl
                size="xs"
                value={String(speed)}
                onChange={(v) => setSpeed(Number(v))}
                data={SPEEDS.map((s) => ({ value: String(s), label: `${s}×` }))}
                data-testid="replay-speed"
              />
            </Group>
            <Text fw={600} data-testid="replay-time" data-at={moment ?? undefined}>
              {t('回放时刻')} {moment !== null ? formatTime(moment) : ''}
            </Text>
          </Group>
          <Slider
            min={start}
            max={end}
            step={1000}
            value={moment ?? end}
            onChange={(v) => {
              setPlaying(false)
              setAt(v)
            }}
            label={(v) => formatTime(v, 'HH:mm:ss')}
            aria-label={t('回放时刻')}
            data-testid="replay-slider"
          />
        </Stack>
      </Card>

      {error && (
        <Alert color="alert" variant="light" title={error.message} data-testid="replay-error">
          {t('无法回放此比赛')}
        </Alert>
      )}

      {board && (
        <>
          <Card withBorder radius="md" padding="md">
            <Suspense fallback={<Skeleton height={320} />}>
              <ScoreTimeline timeLines={divisionTimeline(board.scoreboard, null)} start={game.start} end={game.end} now={board.at} />
            </Suspense>
          </Card>
          <Card withBorder radius="md" padding={0} data-testid="replay-board" data-at={board.at}>
            {items.length === 0 ? (
              <Text c="dimmed" ta="center" py="xl">
                {t('暂无队伍')}
              </Text>
            ) : (
              <ScoreboardTable scoreboard={board.scoreboard} items={items.slice((currentPage - 1) * PAGE_SIZE, currentPage * PAGE_SIZE)} />
            )}
          </Card>
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={currentPage} onChange={setPage} />
            </Group>
          )}
        </>
      )}
    </Stack>
  )
}
