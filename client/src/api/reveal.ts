/**
 * Replay and the staged reveal (docs/scoring.md#replay, #staged-reveal): the board at a moment
 * (`GET /api/game/{id}/scoreboard?at=`), the reveal's shared state and the admin's controls.
 */
import { RevealState } from '@flagwave/shared/schemas/replay'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { http } from './http'

const edit = (id: number, action = '') => `/api/edit/games/${id}/reveal${action}`

export const revealApi = {
  /** The board as it stood at `at` (epoch milliseconds). */
  replay: (id: number, at: number, signal?: AbortSignal) => http.get(`/api/game/${id}/scoreboard?at=${Math.floor(at)}`, { schema: ScoreboardModel, signal }),
  state: (id: number) => http.get(`/api/game/${id}/reveal`, { schema: RevealState }),
  open: (id: number) => http.post(edit(id), { schema: RevealState }),
  next: (id: number) => http.post(edit(id, '/next'), { schema: RevealState }),
  back: (id: number) => http.post(edit(id, '/back'), { schema: RevealState }),
  /** Auto-play one step every `intervalMs`; null pauses. */
  auto: (id: number, intervalMs: number | null) => http.put(edit(id, '/auto'), { json: { intervalMs }, schema: RevealState }),
  finish: (id: number) => http.post(edit(id, '/finish'), { schema: RevealState }),
}

/** The reveal state's query key (the request path split at `/`, like ./queryKeys.ts). */
export const revealKey = (id: number) => ['api', 'game', String(id), 'reveal']
