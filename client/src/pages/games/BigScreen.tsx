/**
 * Route `games/:id/scoreboard/bigscreen` (outside the navbar frame, no login needed once the
 * game has started): the live scoreboard for a projector — see components/BigScreen.
 * Blood notices (`ReceivedGameNotice` FirstBlood/SecondBlood/ThirdBlood) queue banners.
 * `?division=ID` shows one division (docs/scoring.md#divisions); `?cycle=SECONDS` (at least 5)
 * turns through the overall board and each division in turn; neither: the overall board.
 * While a staged reveal is open (docs/scoring.md#staged-reveal) the screen shows its board and
 * follows it over the socket (driven from the admin's phone, or by keys here: useRevealKeys);
 * when it finishes, the live board returns. Kiosk: a QR code of the game page, and a notice while
 * the connection is down (the last board stays; everything is refetched on reconnect).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useQuery } from '@tanstack/react-query'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { gameQuery } from '../../live/queries'
import { BigScreen } from '../../components/BigScreen/BigScreen'
import { parseBloodNotice, type BloodEvent } from '../../components/BigScreen/BloodBanner'
import { useGameId } from '../../layouts/WithGameTab'
import { useRealtimeStatus } from '../../realtime/hub'
import { platformName, useGlobalConfig } from '../../api/globalConfig'
import { useGameLive } from './useGameLive'
import { useReveal } from '../../live/useReveal'
import { useRevealKeys } from './useRevealKeys'
import { queryKeys } from '../../api/queryKeys'
import { refetchIfShown } from '../../api/queryClient'
import { notifications } from '@mantine/notifications'

/** At most this many banners wait; older ones are dropped when solves come in bursts. */
const MAX_QUEUE = 6

const NO_NOTICES: GameNotice[] = []
const NO_DIVISIONS: { id: number; name: string }[] = []

/** The shortest turn of `?cycle=`, in seconds. */
const MIN_CYCLE_SECONDS = 5

/** `?cycle=SECONDS` as milliseconds (null: no cycling). */
function cyclePeriod(value: string | null): number | null {
  if (value === null) return null
  const seconds = Number(value)
  return Number.isFinite(seconds) ? Math.max(MIN_CYCLE_SECONDS, seconds) * 1000 : null
}

/** The division shown: the one of `?division=`, or the current turn of `?cycle=` (overall first). */
function useShownDivision(divisions: readonly { id: number; name: string }[]): { id: number; name: string } | null {
  const [params] = useSearchParams()
  const fixed = params.get('division')
  const period = cyclePeriod(params.get('cycle'))
  const [turn, setTurn] = useState(0)
  useEffect(() => {
    if (period === null || fixed !== null) return
    const timer = window.setInterval(() => setTurn((n) => n + 1), period)
    return () => window.clearInterval(timer)
  }, [period, fixed])
  return useMemo(() => {
    if (fixed !== null) return divisions.find((d) => String(d.id) === fixed) ?? null
    if (period === null || divisions.length === 0) return null
    const index = turn % (divisions.length + 1)
    return index === 0 ? null : divisions[index - 1]!
  }, [divisions, fixed, period, turn])
}

export default function BigScreenPage() {
  const gameId = useGameId()
  const [queue, setQueue] = useState<BloodEvent[]>([])
  const { data: game, error: gameError } = useQuery({ ...gameQuery(gameId), refetchInterval: 60_000 })
  const live = useGameLive(gameId, {
    scoreboard: true,
    notices: true,
    start: game?.start,
    onNotice: (notice) => {
      const event = parseBloodNotice(notice)
      if (event) setQueue((q) => [...q, event].slice(-MAX_QUEUE))
    },
  })
  const reveal = useReveal(gameId)
  const revealing = reveal.state?.open ? reveal.state : null
  const scoreboard = revealing?.board ?? live.scoreboard.data?.scoreboard ?? null
  const finished = reveal.state?.finished ?? false
  // The reveal's end lifts the freeze: the live (final) board comes back at once.
  useEffect(() => {
    if (finished && gameId !== null) void refetchIfShown(queryKeys.game.scoreboard(gameId))
  }, [finished, gameId])
  const fail = useCallback((message: string) => notifications.show({ color: 'red', message }), [])
  useRevealKeys(gameId, revealing, reveal.accept, fail)
  const notices = live.notices.data ?? NO_NOTICES
  const config = useGlobalConfig()
  const status = useRealtimeStatus((s) => s.user)
  // Only a connection that was up and dropped counts as lost (not the first connect).
  const wasConnected = useRef(false)
  if (status === 'connected') wasConnected.current = true
  const done = useCallback(() => setQueue((q) => q.slice(1)), [])
  const division = useShownDivision(scoreboard?.divisions ?? NO_DIVISIONS)

  useEffect(() => {
    if (game) document.title = `${game.title} · ${platformName(config)}`
  }, [game, config])

  if (gameId === null) return null
  return (
    <BigScreen
      gameId={gameId}
      title={game?.title ?? (gameError ? gameError.message : '')}
      start={game?.start ?? new Date(0).toISOString()}
      end={game?.end ?? new Date(0).toISOString()}
      scoreboard={scoreboard}
      notices={notices}
      banner={queue[0] ?? null}
      onBannerDone={done}
      message={live.scoreboard.error?.message ?? gameError?.message ?? null}
      realtime={status}
      division={division}
      reveal={revealing}
      qrUrl={gameId === null ? null : `${window.location.origin}/games/${gameId}`}
      offline={wasConnected.current && status !== 'connected'}
    />
  )
}
