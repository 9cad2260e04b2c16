/**
 * My participation in a game was reviewed: the game info takes its new status. Its own module, so
 * that the app-wide realtime wiring (realtime/dispatch.ts, on every page) does not pull the game
 * pages' reducers (live/reducers.ts) into the first page's scripts.
 */
import type { ParticipationUpdate } from '@flagwave/shared/events'
import type { DetailedGameInfoModel } from '@flagwave/shared/schemas/games'

/** The game info after a review of the caller's participation (`ReceivedParticipationUpdate`). */
export function gameWithParticipation(game: DetailedGameInfoModel | undefined, update: ParticipationUpdate): DetailedGameInfoModel | undefined {
  if (!game || game.id !== update.gameId || game.status === update.status) return game
  return { ...game, status: update.status }
}
