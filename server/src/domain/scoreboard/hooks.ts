/**
 * How the rest of the platform asks for a game's scoreboard to be rebuilt from the database
 * (challenge edits, participation reviews, game edits). The request travels as a PostgreSQL
 * NOTIFY so it reaches whichever node owns that game's scoreboard engine (docs/scoring.md#engine-ownership).
 * Call it after the change has committed.
 */
import type { Orm } from '../../db/orm.js'
import { notify } from '../../db/notify.js'

export const SCOREBOARD_CHANNEL = 'flagwave_scoreboard'

export async function requestScoreboardRebuild(services: { orm: Orm }, gameId: number): Promise<void> {
  await notify(services.orm, SCOREBOARD_CHANNEL, String(gameId))
}
