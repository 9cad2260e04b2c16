/**
 * Client-side state of the game a player is playing (docs/realtime.md#room-moves): the team-private
 * `ReceivedSubmissionResult` and `ReceivedContainerUpdate` pushes, the challenges solved here
 * before the board shows them, and the flag-submission wait (`waitForSubmission`). The board
 * itself is a query (live/queries.ts).
 */
import { create } from 'zustand'
import type { AnswerResult } from '@flagwave/shared/enums'
import type { ContainerUpdate, SubmissionResult } from '@flagwave/shared/events'
import { gameApi } from '../api/game'
import { hubs } from '../realtime/hub'

interface GameState {
  gameId: number | null
  /** Results pushed to my team (submission id → status); a push may beat the POST's answer. */
  results: Record<number, AnswerResult>
  /** Challenges my team solved per a result push, until the board reflects them. */
  solvedLocal: Record<number, true>
  /** Last container push per challenge. */
  containers: Record<number, ContainerUpdate & { receivedAt: number }>
  follow: (gameId: number) => void
  recordResult: (result: SubmissionResult) => void
  recordContainer: (gameId: number, update: ContainerUpdate) => void
  markSolved: (challengeId: number) => void
}

export const useGameStore = create<GameState>((set, get) => ({
  gameId: null,
  results: {},
  solvedLocal: {},
  containers: {},

  follow: (gameId) => {
    if (get().gameId !== gameId) set({ gameId, results: {}, solvedLocal: {}, containers: {} })
  },

  recordResult: (result) => {
    set((state) => ({
      results: { ...state.results, [result.id]: result.status },
      solvedLocal: result.status === 'Accepted' ? { ...state.solvedLocal, [result.challengeId]: true } : state.solvedLocal,
    }))
  },

  recordContainer: (gameId, update) => {
    if (get().gameId !== gameId) return
    set((state) => ({ containers: { ...state.containers, [update.challengeId]: { ...update, receivedAt: Date.now() } } }))
  },

  markSolved: (challengeId) => set((state) => ({ solvedLocal: { ...state.solvedLocal, [challengeId]: true } })),
}))

/* ---- waiting for a submission's verdict ---- */

/** How long a push may take before the status call is polled instead. */
const PUSH_GRACE_MS = 1_500
/** The status call's polling period (docs/compatibility.md#group-game-challenges-and-flags). */
const POLL_INTERVAL_MS = 500

export interface WaitOptions {
  signal?: AbortSignal
  /** Called once if the wait falls back to polling (for diagnostics and tests). */
  onFallback?: (reason: 'timeout' | 'offline') => void
  graceMs?: number
  pollMs?: number
}

/**
 * Resolve with the verdict of a submission: the `ReceivedSubmissionResult` push for that id, or —
 * when no push arrived within `PUSH_GRACE_MS` or the user hub is not connected — the status call,
 * polled every 500 ms until it is no longer `FlagSubmitted`. The push keeps being listened to
 * while polling; whichever answers first wins.
 */
export function waitForSubmission(gameId: number, challengeId: number, submissionId: number, options: WaitOptions = {}): Promise<AnswerResult> {
  const graceMs = options.graceMs ?? PUSH_GRACE_MS
  const pollMs = options.pollMs ?? POLL_INTERVAL_MS
  return new Promise<AnswerResult>((resolve, reject) => {
    let done = false
    let pollTimer: ReturnType<typeof setTimeout> | undefined
    let polling = false
    let inflight: AbortController | null = null

    const finish = (fn: () => void) => {
      if (done) return
      done = true
      clearTimeout(graceTimer)
      clearTimeout(pollTimer)
      inflight?.abort()
      unsubscribe()
      options.signal?.removeEventListener('abort', onAbort)
      fn()
    }
    const settle = (status: AnswerResult) => finish(() => resolve(status))

    const check = (state: GameState) => {
      const status = state.results[submissionId]
      if (status && status !== 'FlagSubmitted') settle(status)
    }
    const unsubscribe = useGameStore.subscribe(check)

    const poll = async () => {
      if (done) return
      inflight = new AbortController()
      try {
        const status = await gameApi.status(gameId, challengeId, submissionId, inflight.signal)
        if (status !== 'FlagSubmitted') {
          useGameStore.getState().recordResult({ id: submissionId, challengeId, status })
          settle(status)
          return
        }
      } catch (error) {
        if (done) return
        // A definite answer (e.g. 404 submission not found) ends the wait; transport errors retry.
        const status = (error as { status?: number }).status ?? 0
        if (status >= 400 && status < 500 && status !== 429) {
          finish(() => reject(error as Error))
          return
        }
      } finally {
        inflight = null
      }
      if (!done) pollTimer = setTimeout(() => void poll(), pollMs)
    }
    const startPolling = (reason: 'timeout' | 'offline') => {
      if (polling || done) return
      polling = true
      options.onFallback?.(reason)
      void poll()
    }

    const online = hubs.user.connected && hubs.user.game === gameId
    // Declared before anything can call `finish` (which clears it).
    const graceTimer = setTimeout(() => startPolling('timeout'), online ? graceMs : 0)
    const onAbort = () => finish(() => reject(new DOMException('aborted', 'AbortError')))
    if (options.signal?.aborted) {
      onAbort()
      return
    }
    options.signal?.addEventListener('abort', onAbort)
    if (!online) startPolling('offline')
    check(useGameStore.getState())
  })
}
