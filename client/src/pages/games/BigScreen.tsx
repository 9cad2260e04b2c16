/**
 * Route `games/:id/scoreboard/bigscreen` (outside the navbar frame, no login needed once the
 * game has started): the live scoreboard for a projector — see components/BigScreen.
 * Blood notices (`ReceivedGameNotice` FirstBlood/SecondBlood/ThirdBlood) queue banners.
 */
import { useCallback, useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { gameQuery } from '../../live/queries'
import { BigScreen } from '../../components/BigScreen/BigScreen'
import { parseBloodNotice, type BloodEvent } from '../../components/BigScreen/BloodBanner'
import { useGameId } from '../../layouts/WithGameTab'
import { useRealtimeStatus } from '../../realtime/hub'
import { platformName, useGlobalConfig } from '../../api/globalConfig'
import { useGameLive } from './useGameLive'

/** At most this many banners wait; older ones are dropped when solves come in bursts. */
const MAX_QUEUE = 6

const NO_NOTICES: GameNotice[] = []

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
  const scoreboard = live.scoreboard.data?.scoreboard ?? null
  const notices = live.notices.data ?? NO_NOTICES
  const config = useGlobalConfig()
  const status = useRealtimeStatus((s) => s.user)
  const done = useCallback(() => setQueue((q) => q.slice(1)), [])

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
    />
  )
}
