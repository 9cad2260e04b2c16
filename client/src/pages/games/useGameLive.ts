/**
 * `useGameLive(gameId, { board, scoreboard, notices, toasts })` — the one place where a game
 * screen subscribes to its room (`/hub/user?game={id}`) and keeps the live stores current:
 *
 * - `ReceivedScoreboardUpdate` → scoreboard store (versioned differences; a gap triggers a refetch)
 *   and, from the folded board, the team's row and challenges in the game store (the board is
 *   followed whenever the team's board is, so differences have something to apply to);
 * - `ReceivedChallengeUpdate` → both (a challenge the board does not know yet → refetch details);
 * - `ReceivedGameNotice` → notices store (+ toasts for Normal, NewChallenge, NewHint); new
 *   challenges refetch the board, new hints the open challenge;
 * - `ReceivedSubmissionResult`, `ReceivedContainerUpdate` → game store (team-private).
 *
 * The REST reads behind them use `useQuery` with `live: connected`: the 10-second refresh pauses
 * while the socket is up and resumes as the fallback when it drops. Every (re)connection to the
 * game's room refetches what is shown (events may have been missed meanwhile).
 */
import { useEffect, useRef } from 'react'
import { notifications } from '@mantine/notifications'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import type { NoticeType } from '@flagwave/shared/enums'
import { gameApi, gameKeys } from '../../api/game'
import { getCachedData, revalidateQueries } from '../../api/cache'
import { useQuery } from '../../api/useQuery'
import { useGameRoom } from '../../realtime/hooks'
import { hubs, useRealtimeStatus } from '../../realtime/hub'
import { useGameStore } from '../../stores/game'
import { useNoticesStore } from '../../stores/notices'
import { useScoreboardStore } from '../../stores/scoreboard'
import { markdownToText } from '../../utils/markdownText'

export interface GameLiveOptions {
  /** Load and follow the team's board (`/details`; Accepted players only). */
  board?: boolean
  /** Load and follow the versioned scoreboard. */
  scoreboard?: boolean
  /** Load and follow the notices. */
  notices?: boolean
  /** Toast Normal / NewChallenge / NewHint notices as they arrive. */
  toasts?: boolean
  /** Called for every pushed notice (after the store has it). */
  onNotice?: (notice: GameNotice) => void
  /**
   * The game's start (wire date). When it lies ahead, everything is refetched the moment the
   * game starts (and an anonymous watcher, refused before the start, reconnects).
   */
  start?: string
}

const TOAST_TITLES: Partial<Record<NoticeType, string>> = {
  Normal: '比赛公告',
  NewChallenge: '新题目上线',
  NewHint: '题目提示更新',
}

export function useGameLive(gameId: number | null, options: GameLiveOptions = {}) {
  const optionsRef = useRef(options)
  optionsRef.current = options

  // Follow the game in the stores (a different game clears them), seeding from the REST cache.
  useEffect(() => {
    if (gameId === null) return
    useScoreboardStore.getState().follow(gameId)
    useGameStore.getState().follow(gameId)
    useNoticesStore.getState().follow(gameId)
  }, [gameId])

  const refetch = (key: string) => revalidateQueries((k) => k === key)

  const { connected } = useGameRoom(gameId, {
    events: {
      ReceivedScoreboardUpdate: (update) => {
        if (update.gameId !== gameId) return
        const outcome = useScoreboardStore.getState().applyPush(update)
        const { scoreboard } = useScoreboardStore.getState()
        if (outcome === 'applied' && scoreboard) useGameStore.getState().applyScoreboard(update.gameId, scoreboard)
        if (outcome === 'gap') refetch(gameKeys.scoreboard(update.gameId))
      },
      ReceivedChallengeUpdate: (update) => {
        if (update.gameId !== gameId) return
        useScoreboardStore.getState().applyChallengeUpdate(update)
        if (useGameStore.getState().applyChallengeUpdate(update)) refetch(gameKeys.details(update.gameId))
      },
      ReceivedGameNotice: (notice) => {
        if (gameId === null) return
        const fresh = useNoticesStore.getState().addNotice(gameId, notice)
        if (!fresh) return
        if (notice.type === 'NewChallenge') refetch(gameKeys.details(gameId))
        if (notice.type === 'NewHint') revalidateQueries((k) => k.startsWith(`/api/game/${gameId}/challenges/`))
        const title = TOAST_TITLES[notice.type]
        if (optionsRef.current.toasts && title) {
          notifications.show({ color: notice.type === 'Normal' ? 'brand' : 'blue', title, message: markdownToText(notice.content), autoClose: 8_000 })
        }
        optionsRef.current.onNotice?.(notice)
      },
      ReceivedSubmissionResult: (result) => useGameStore.getState().recordResult(result),
      ReceivedContainerUpdate: (update) => {
        if (gameId === null) return
        useGameStore.getState().recordContainer(gameId, update)
        revalidateQueries((k) => k === gameKeys.challenge(gameId, update.challengeId))
      },
    },
    onResync: () => {
      if (gameId === null) return
      const o = optionsRef.current
      if (o.scoreboard || o.board) {
        useScoreboardStore.getState().resync(gameId)
        refetch(gameKeys.scoreboard(gameId))
      }
      if (o.board) refetch(gameKeys.details(gameId))
      if (o.notices) refetch(gameKeys.notices(gameId))
    },
  })

  const scoreboard = useQuery((options.scoreboard || options.board) && gameId !== null ? gameKeys.scoreboard(gameId) : null, () => gameApi.scoreboard(gameId!), {
    live: connected,
    onSuccess: (value) => useScoreboardStore.getState().setFromRest(gameId!, value),
  })
  const board = useQuery(options.board && gameId !== null ? gameKeys.details(gameId) : null, () => gameApi.details(gameId!), {
    live: connected,
    onSuccess: (details) => useGameStore.getState().setDetails(gameId!, details),
  })
  const notices = useQuery(options.notices && gameId !== null ? gameKeys.notices(gameId) : null, () => gameApi.notices(gameId!), {
    live: connected,
    onSuccess: (list) => useNoticesStore.getState().setNotices(gameId!, list),
  })

  // A game that has not started yet: catch up the moment it starts.
  const start = options.start
  useEffect(() => {
    if (gameId === null || !start) return
    const delay = Date.parse(start) - Date.now() + 500
    if (!(delay > 0) || delay > 2 ** 31 - 1) return
    const timer = setTimeout(() => {
      if (useRealtimeStatus.getState().user === 'refused') hubs.user.restart()
      const o = optionsRef.current
      if (o.scoreboard) refetch(gameKeys.scoreboard(gameId))
      if (o.board) refetch(gameKeys.details(gameId))
      if (o.notices) refetch(gameKeys.notices(gameId))
    }, delay)
    return () => clearTimeout(timer)
  }, [gameId, start])

  // Seed the stores from the persisted cache so a reload renders at once.
  useEffect(() => {
    if (gameId === null) return
    const o = optionsRef.current
    if (o.scoreboard && !useScoreboardStore.getState().scoreboard) {
      const cached = getCachedData<{ version: number; scoreboard: never }>(gameKeys.scoreboard(gameId))
      if (cached?.scoreboard) useScoreboardStore.getState().setFromRest(gameId, cached)
    }
    if (o.board && !useGameStore.getState().details) {
      const cached = getCachedData<never>(gameKeys.details(gameId))
      if (cached) useGameStore.getState().setDetails(gameId, cached)
    }
    if (o.notices && useNoticesStore.getState().notices.length === 0) {
      const cached = getCachedData<GameNotice[]>(gameKeys.notices(gameId))
      if (cached) useNoticesStore.getState().setNotices(gameId, cached)
    }
  }, [gameId])

  return { connected, scoreboard, board, notices }
}
