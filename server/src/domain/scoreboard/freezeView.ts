/**
 * Which board a caller reads while a game's board is frozen (docs/scoring.md#freeze): everyone,
 * admins included, the frozen public board, unless a monitor or admin asks for the live one
 * (`view=live`); and what a team sees of its own results behind the freeze.
 */
import { roleRank, type Role } from '@flagwave/shared/enums'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { ScoreboardService } from './service.js'
import type { ScoreboardSnapshot } from './snapshot.js'
import { boardFreeze, type FreezeFields } from '../games/freeze.js'

/** Monitors and admins may read the live board. */
const mayReadLive = (role: Role | null | undefined): boolean => role !== null && role !== undefined && roleRank(role) >= roleRank('Monitor')

/** The board a caller gets: the live one only for staff that asked for it, otherwise the public one. */
export function boardFor(scoreboard: ScoreboardService, gameId: number, wantsLive: boolean, role: Role | null | undefined): Promise<ScoreboardSnapshot | null> {
  return wantsLive && mayReadLive(role) ? scoreboard.liveSnapshot(gameId) : scoreboard.snapshot(gameId)
}

/**
 * The team's own solves after the freeze, from the live board (ids ascending), or null when the
 * public board is not frozen. Only the caller's own row is read: never another team's.
 */
export async function ownSolvesAfterFreeze(scoreboard: ScoreboardService, gameId: number, shown: ScoreboardModel, teamId: number): Promise<number[] | null> {
  if (!shown.frozen || !shown.freezeTime) return null
  const live = await scoreboard.liveSnapshot(gameId)
  const row = live?.model.items.find((item) => item.id === teamId)
  if (!row) return []
  const at = Date.parse(shown.freezeTime)
  return row.challenges
    .filter((cell) => cell.time !== null && Date.parse(cell.time) >= at)
    .map((cell) => cell.id)
    .sort((a, b) => a - b)
}

/**
 * A challenge's current score as the public may see it: while the board is frozen, the frozen
 * board's value (its counter stands at the freeze); null when the game is not frozen or the board
 * does not list the challenge (the caller keeps its own value then).
 */
export async function frozenChallengeScore(scoreboard: ScoreboardService, game: FreezeFields & { id: number }, challengeId: number): Promise<number | null> {
  if (!boardFreeze(game)) return null
  const shown = await scoreboard.snapshot(game.id)
  if (!shown?.model.frozen) return null
  return boardChallengeScore(shown.model, challengeId) ?? null
}

const scoresByBoard = new WeakMap<ScoreboardModel, Map<number, number>>()

/**
 * The value a board shows for a challenge (undefined: not listed), looked up once per board
 * version: the challenge detail's hot read asks on every request (http/hotReads.ts).
 */
export function boardChallengeScore(model: ScoreboardModel, challengeId: number): number | undefined {
  let scores = scoresByBoard.get(model)
  if (!scores) {
    scores = new Map()
    for (const list of Object.values(model.challenges)) for (const c of list ?? []) if (!scores.has(c.id)) scores.set(c.id, c.score)
    scoresByBoard.set(model, scores)
  }
  return scores.get(challengeId)
}
