/**
 * The scoreboard freeze rule (docs/scoring.md#freeze), the one place that says whether a game's
 * public board is frozen: from `freezeTime` on, until the freeze is lifted (`unfrozenAt`).
 */
import type { Game } from '../../entities/Game.js'

export type FreezeFields = Pick<Game, 'freezeTime' | 'unfrozenAt'>

/** The moment the public board stands at, or null when it is live now. */
export function boardFreeze(game: FreezeFields, now: number = Date.now()): Date | null {
  const at = game.freezeTime
  if (!at || game.unfrozenAt) return null
  return at.getTime() <= now ? at : null
}

/** A freeze that is set and not lifted, reached or not: caches of a live board expire at its time. */
export function pendingFreeze(game: FreezeFields): Date | null {
  return game.freezeTime && !game.unfrozenAt ? game.freezeTime : null
}

/** A new freeze time (or none) starts a new freeze: a lifted earlier one does not lift it. */
export function setFreezeTime(game: FreezeFields, freezeTime: Date | null): void {
  if ((game.freezeTime?.getTime() ?? null) === (freezeTime?.getTime() ?? null)) return
  game.freezeTime = freezeTime
  game.unfrozenAt = null
}
