/**
 * Live scoreboard of the game on screen (DESIGN §5).
 *
 * The board arrives two ways: REST (`GET /api/game/{id}/scoreboard`, version in
 * `X-Scoreboard-Version`/`ETag`) and `ReceivedScoreboardUpdate` pushes — usually the difference
 * from version `base`, folded into the board we hold (`applyScoreboardDelta`), after a rebuild the
 * whole board. A push older than what we hold is dropped; a difference from a version we do not
 * hold is a gap (the caller refetches); a whole board that skips versions is applied but reported
 * as a gap too. A REST answer replaces the board (it is the truth after a reconnect or a server
 * restart) unless it is older than a push received a moment ago (a request that raced a push).
 */
import { create } from 'zustand'
import type { ChallengeUpdate, ScoreboardUpdate } from '@flagwave/shared/events'
import { applyScoreboardUpdate, patchChallengeInfos, type UpdateOutcome } from '@flagwave/shared/scoreboardDelta'
import type { ChallengeInfo, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { VersionedScoreboard } from '../api/game'

/** A REST answer older than a push this recent is the stale side of a race. */
const RACE_WINDOW_MS = 15_000

export type PushOutcome = UpdateOutcome | 'other-game'

interface ScoreboardState {
  gameId: number | null
  /** -1 when unknown. */
  version: number
  scoreboard: ScoreboardModel | null
  source: 'rest' | 'push' | null
  /** When the current board arrived (ms since epoch). */
  receivedAt: number
  /** Start following a game (clears another game's board). */
  follow: (gameId: number) => void
  /**
   * The connection was (re)established: forget the version (a restarted server may number anew)
   * so that the next push or REST answer is taken as it comes; the board stays on screen.
   */
  resync: (gameId: number) => void
  setFromRest: (gameId: number, value: VersionedScoreboard) => void
  applyPush: (update: ScoreboardUpdate) => PushOutcome
  /** Patch challenge scores/solves/bloods (a `ReceivedChallengeUpdate`). */
  applyChallengeUpdate: (update: ChallengeUpdate) => void
}

export const useScoreboardStore = create<ScoreboardState>((set, get) => ({
  gameId: null,
  version: -1,
  scoreboard: null,
  source: null,
  receivedAt: 0,

  follow: (gameId) => {
    if (get().gameId !== gameId) set({ gameId, version: -1, scoreboard: null, source: null, receivedAt: 0 })
  },

  resync: (gameId) => {
    if (get().gameId === gameId) set({ version: -1, source: null })
  },

  setFromRest: (gameId, { version, scoreboard }) => {
    const state = get()
    if (state.gameId === gameId && state.source === 'push' && version >= 0 && version < state.version && Date.now() - state.receivedAt < RACE_WINDOW_MS) {
      return
    }
    if (state.gameId === gameId && state.scoreboard === scoreboard && state.version === version) return
    set({ gameId, version, scoreboard, source: 'rest', receivedAt: Date.now() })
  },

  applyPush: (update) => {
    const state = get()
    if (state.gameId !== update.gameId) return 'other-game'
    const next = applyScoreboardUpdate(state, update)
    if (next.outcome !== 'stale' && next.scoreboard !== state.scoreboard) {
      set({ version: next.version, scoreboard: next.scoreboard, source: 'push', receivedAt: Date.now() })
    }
    return next.outcome
  },

  applyChallengeUpdate: (update) => {
    const state = get()
    if (state.gameId !== update.gameId || !state.scoreboard) return
    const challenges = patchChallengeInfos(state.scoreboard.challenges, update.challenges)
    if (challenges !== state.scoreboard.challenges) set({ scoreboard: { ...state.scoreboard, challenges } })
  },
}))

/** Every challenge id present in a challenges-by-tag map. */
export function challengeIds(map: Partial<Record<string, ChallengeInfo[]>>): Set<number> {
  const ids = new Set<number>()
  for (const list of Object.values(map)) for (const c of list ?? []) ids.add(c.id)
  return ids
}
