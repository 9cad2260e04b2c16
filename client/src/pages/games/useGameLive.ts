/**
 * `useGameLive(gameId, { board, scoreboard, notices, toasts })` — the one place where a game
 * screen subscribes to its room (`/hub/user?game={id}`) and keeps its queries current:
 *
 * - `ReceivedScoreboardUpdate` → the scoreboard query (versioned differences; a gap, or an
 *   announced version — a large board after a rebuild, e.g. an opening — is read over REST until
 *   the answer has that version) and, from the folded or read board, the team's row and challenges in the board query (the
 *   scoreboard is followed whenever the team's board is, so differences have something to apply to);
 * - `ReceivedChallengeUpdate` → both (a challenge the board does not know yet → refetch the board);
 * - `ReceivedGameNotice` → the notices query (+ toasts for Normal, NewChallenge, NewHint); new
 *   challenges refetch the board (spread over a few seconds when it shows them already), new hints
 *   the open challenge;
 * - `ReceivedSubmissionResult`, `ReceivedContainerUpdate` → the game store (team-private, client-only);
 * - `ReceivedChallengeUnlock` (a solve unlocked challenges for the team, docs/challenge-rules.md#prerequisites) → the board.
 *
 * The queries are live while the socket is connected: the 10-second refresh pauses then and
 * resumes as the fallback when it drops. Every (re)connection to the game's room refetches what
 * is shown (events may have been missed meanwhile).
 */
import { useEffect, useRef } from 'react'
import { notifications } from '@mantine/notifications'
import type { GameDetailModel, GameNotice } from '@flagwave/shared/schemas/games'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { UpdateOutcome } from '@flagwave/shared/scoreboardDelta'
import type { NoticeType } from '@flagwave/shared/enums'
import { OPENING_READ_SPREAD_MS } from '@flagwave/shared/limits'
import { queryClient, refetchIfShown } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { useLiveQuery } from '../../api/useLiveQuery'
import { boardQuery, noticePushedAt, noticesQuery, scoreboardQuery } from '../../live/queries'
import {
  boardChallengesPatched,
  boardShowsChallenge,
  boardWithScoreboard,
  noticesWithPush,
  scoreboardChallengesPatched,
  scoreboardFromPush,
  scoreboardResynced,
  type LiveScoreboard,
} from '../../live/reducers'
import { useGameRoom } from '../../realtime/hooks'
import { hubs, useRealtimeStatus } from '../../realtime/hub'
import { useGameStore } from '../../stores/game'
import { markdownToText } from '../../utils/markdownText'
import { t } from '../../i18n'

export interface GameLiveOptions {
  /** Load and follow the team's board (`/details`; Accepted players only). */
  board?: boolean
  /** Load and follow the versioned scoreboard. */
  scoreboard?: boolean
  /** Load and follow the notices. */
  notices?: boolean
  /** Toast Normal / NewChallenge / NewHint notices as they arrive. */
  toasts?: boolean
  /** Called for every pushed notice (after the cache has it). */
  onNotice?: (notice: GameNotice) => void
  /**
   * The game's start (wire date). When it lies ahead, everything is refetched the moment the
   * game starts (and an anonymous watcher, refused before the start, reconnects).
   */
  start?: string
}

const TOAST_TITLES: Partial<Record<NoticeType, string>> = {
  Normal: t('比赛公告'),
  NewChallenge: t('新题目上线'),
  NewHint: t('题目提示更新'),
}

/**
 * The board read a NewChallenge notice calls for: at once unless the board shows the challenge
 * already. Then the read only corrects what is the team's own — a lock by prerequisites, a division
 * that may not view it — and is spread over `OPENING_READ_SPREAD_MS` (docs/realtime.md#openings).
 */
function readBoardAfterOpening(gameId: number, notice: GameNotice): void {
  const key = queryKeys.game.details(gameId)
  if (!boardShowsChallenge(queryClient.getQueryData<GameDetailModel>(key), notice.values[0])) {
    void refetchIfShown(key)
    return
  }
  setTimeout(() => void refetchIfShown(key), Math.random() * OPENING_READ_SPREAD_MS)
}

/**
 * How long to wait before reading an announced version again while an older one answers: another
 * node drops its copy when the owner's announcement reaches it through Redis, at the latest when
 * the copy expires (5 s, domain/scoreboard/service.ts).
 */
const ANNOUNCED_RETRY_MS = [0, 200, 500, 1000, 2000, 4000]

/** The team's row and challenges from a newer scoreboard (pushed, or read after an announcement). */
function foldIntoTeamBoard(gameId: number, scoreboard: ScoreboardModel): void {
  const detailsKey = queryKeys.game.details(gameId)
  // A board refetch already on its way (a NewChallenge notice's, which can arrive before this
  // push from another node) may answer an older board and would land after this: fetch anew
  // (docs/challenge-rules.md#timed-release).
  const refetching = queryClient.isFetching({ queryKey: detailsKey, exact: true }) > 0
  queryClient.setQueryData<GameDetailModel>(detailsKey, (details) => details && boardWithScoreboard(details, scoreboard))
  if (refetching) void queryClient.refetchQueries({ queryKey: detailsKey, exact: true }, { cancelRefetch: true })
}

/**
 * A version announced without its board, or a difference from a version not held
 * (docs/realtime.md#scoreboard-versions-and-gap-repair): read the board over REST until the answer
 * is at least that version — a read already on its way is joined, and may answer an older one;
 * another node may not hold the version yet — then fold it into the team's board as a pushed
 * board would be.
 */
async function readAtLeast(gameId: number, version: number): Promise<void> {
  const key = queryKeys.game.scoreboard(gameId)
  for (const wait of ANNOUNCED_RETRY_MS) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    // Nobody shows the board any more: whoever does later reads it anyway.
    if (!queryClient.getQueryCache().find({ queryKey: key, exact: true })?.getObserversCount()) return
    // A newer push may have brought it meanwhile (and folded it already).
    if ((queryClient.getQueryData<LiveScoreboard>(key)?.version ?? -1) >= version) return
    await refetchIfShown(key)
    const held = queryClient.getQueryData<LiveScoreboard>(key)
    if (held?.scoreboard && held.version >= version) return foldIntoTeamBoard(gameId, held.scoreboard)
  }
}

export function useGameLive(gameId: number | null, options: GameLiveOptions = {}) {
  const optionsRef = useRef(options)
  optionsRef.current = options

  // Team-private pushes of another game do not carry over.
  useEffect(() => {
    if (gameId !== null) useGameStore.getState().follow(gameId)
  }, [gameId])

  const { connected } = useGameRoom(gameId, {
    events: {
      ReceivedScoreboardUpdate: (update) => {
        if (update.gameId !== gameId) return
        let outcome = 'stale' as UpdateOutcome
        let board = undefined as LiveScoreboard | undefined
        queryClient.setQueryData<LiveScoreboard>(queryKeys.game.scoreboard(update.gameId), (held) => {
          const next = scoreboardFromPush(held, update)
          outcome = next.outcome
          board = next.held
          return next.held
        })
        const scoreboard = board?.scoreboard
        if (outcome === 'applied' && scoreboard) foldIntoTeamBoard(update.gameId, scoreboard)
        // A whole board that skipped versions is the newest already; it is read again all the same.
        if (outcome === 'gap' && 'scoreboard' in update) void refetchIfShown(queryKeys.game.scoreboard(update.gameId))
        else if (outcome === 'gap' || outcome === 'fetch') void readAtLeast(update.gameId, update.version)
      },
      ReceivedChallengeUpdate: (update) => {
        if (update.gameId !== gameId) return
        queryClient.setQueryData<LiveScoreboard>(queryKeys.game.scoreboard(update.gameId), (held) => held && scoreboardChallengesPatched(held, update))
        let unknown = false as boolean
        queryClient.setQueryData<GameDetailModel>(queryKeys.game.details(update.gameId), (details) => {
          if (!details) return details
          const next = boardChallengesPatched(details, update)
          unknown = next.unknown
          return next.details
        })
        if (unknown) void refetchIfShown(queryKeys.game.details(update.gameId))
      },
      ReceivedGameNotice: (notice) => {
        if (gameId === null) return
        const key = queryKeys.game.notices(gameId)
        const before = queryClient.getQueryData<GameNotice[]>(key)
        const after = noticesWithPush(before, notice)
        if (after === before) return
        noticePushedAt.set(notice.id, Date.now())
        queryClient.setQueryData(key, after)
        if (notice.type === 'NewChallenge') readBoardAfterOpening(gameId, notice)
        if (notice.type === 'NewHint') void refetchIfShown(queryKeys.game.challenges(gameId), false)
        const title = TOAST_TITLES[notice.type]
        if (optionsRef.current.toasts && title) {
          notifications.show({ color: notice.type === 'Normal' ? 'brand' : 'blue', title, message: markdownToText(notice.content), autoClose: 8_000 })
        }
        optionsRef.current.onNotice?.(notice)
      },
      ReceivedSubmissionResult: (result) => useGameStore.getState().recordResult(result),
      ReceivedChallengeUnlock: (update) => {
        if (update.gameId === gameId) void refetchIfShown(queryKeys.game.details(update.gameId))
      },
      ReceivedContainerUpdate: (update) => {
        if (gameId === null) return
        useGameStore.getState().recordContainer(gameId, update)
        void refetchIfShown(queryKeys.game.challenge(gameId, update.challengeId))
      },
    },
    onResync: () => {
      if (gameId === null) return
      const o = optionsRef.current
      if (o.scoreboard || o.board) {
        queryClient.setQueryData<LiveScoreboard>(queryKeys.game.scoreboard(gameId), (held) => held && scoreboardResynced(held))
        void refetchIfShown(queryKeys.game.scoreboard(gameId))
      }
      if (o.board) void refetchIfShown(queryKeys.game.details(gameId))
      if (o.notices) void refetchIfShown(queryKeys.game.notices(gameId))
    },
  })

  const scoreboard = useLiveQuery(scoreboardQuery(options.scoreboard || options.board ? gameId : null), connected)
  const board = useLiveQuery(boardQuery(options.board ? gameId : null), connected)
  const notices = useLiveQuery(noticesQuery(options.notices ? gameId : null), connected)

  // A game that has not started yet: catch up the moment it starts.
  const start = options.start
  useEffect(() => {
    if (gameId === null || !start) return
    const delay = Date.parse(start) - Date.now() + 500
    if (!(delay > 0) || delay > 2 ** 31 - 1) return
    const timer = setTimeout(() => {
      if (useRealtimeStatus.getState().user === 'refused') hubs.user.restart()
      const o = optionsRef.current
      if (o.scoreboard) void refetchIfShown(queryKeys.game.scoreboard(gameId))
      if (o.board) void refetchIfShown(queryKeys.game.details(gameId))
      if (o.notices) void refetchIfShown(queryKeys.game.notices(gameId))
    }, delay)
    return () => clearTimeout(timer)
  }, [gameId, start])

  return { connected, scoreboard, board, notices }
}
