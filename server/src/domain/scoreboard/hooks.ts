/**
 * How the rest of the platform asks for a game's scoreboard to be rebuilt from the database
 * (challenge edits, participation reviews, game edits). The request travels as a PostgreSQL
 * NOTIFY so it reaches whichever node owns that game's scoreboard engine (DESIGN §6).
 * Call it after the change has committed.
 */
import type { Services } from '../../services.js'

export const SCOREBOARD_CHANNEL = 'flagwave_scoreboard'

export async function requestScoreboardRebuild(services: Pick<Services, 'orm'>, gameId: number): Promise<void> {
  await services.orm.em.fork().getConnection().execute(`select pg_notify('${SCOREBOARD_CHANNEL}', ?)`, [String(gameId)])
}
