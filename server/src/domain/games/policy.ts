/** State rules of a game that the edit endpoints depend on. */
import type { Game } from '../../entities/Game.js'

/** A game is active (running) while start ≤ now ≤ end (GZ::CTF `Game.IsActive`, docs/realtime.md#user-hub-events). */
export function isGameActive(game: Pick<Game, 'start' | 'end'>, now: Date = new Date()): boolean {
  const t = now.getTime()
  return game.start.getTime() <= t && t <= game.end.getTime()
}
