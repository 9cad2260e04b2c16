/**
 * Team permission and state rules (docs/compatibility.md#group-team): the captain check, the team
 * lock and who it holds.
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

/**
 * Whether the lock holds this member: they play for the team in a game that has not ended,
 * through a participation that got past review (any status but Pending and Rejected — the ones
 * a player may still withdraw). A captain may remove any other member of a locked team
 * (docs/compatibility.md#deliberate-departures).
 */
export async function playsInLockedGame(em: EntityManager, team: Team, userId: string, now = new Date()): Promise<boolean> {
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from registrations r
       join participations p on p.id = r.participation_id
       join games g on g.id = p.game_id
      where p.team_id = ? and r.user_id = ? and p.status not in ('Pending', 'Rejected') and g."end" > ?
      limit 1`,
    [team.id, userId, now],
  )
  return rows.length > 0
}
