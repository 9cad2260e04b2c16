/**
 * Team permission and state rules (docs/compatibility.md#group-team): the captain check and the team lock.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Team } from '../../entities/Team.js'
import { forbidden } from '../../lib/errors.js'

const isCaptain = (team: Team, userId: string): boolean => team.captain.id === userId

export const isMember = (team: Team, userId: string): boolean => team.members.getItems().some((m) => m.id === userId)

/** "Captain check": only the team's captain may act, otherwise 403 `无权访问`. */
export function assertCaptain(team: Team, userId: string): void {
  if (!isCaptain(team, userId)) throw forbidden()
}

/**
 * "Team locked": the `locked` flag is set **and** the team takes part in a game that has not
 * ended yet (any participation status, as in the reference). Evaluating it has a side effect: a
 * locked team without such a game is unlocked on the spot (in the caller's transaction).
 */
export async function isTeamLocked(em: EntityManager, team: Team, now = new Date()): Promise<boolean> {
  if (!team.locked) return false
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from participations p join games g on g.id = p.game_id where p.team_id = ? and g."end" > ? limit 1`,
    [team.id, now],
  )
  if (rows.length > 0) return true
  team.locked = false
  await em.flush()
  return false
}
