/** Teams for tests, written straight to the database. */
import { randomBytes } from 'node:crypto'
import { Team } from '../../../server/src/entities/Team.js'
import { User } from '../../../server/src/entities/User.js'
import type { TestServer } from '../server.js'
import { createGame, createParticipation } from './games.js'

export async function createTeam(server: TestServer, captain: User, members: User[] = [], overrides: Partial<Pick<Team, 'name' | 'bio' | 'locked'>> = {}): Promise<Team> {
  const em = server.services.orm.em.fork()
  const team = em.create(Team, {
    name: overrides.name ?? `team${randomBytes(3).toString('hex')}`,
    bio: overrides.bio ?? null,
    locked: overrides.locked ?? false,
    inviteToken: randomBytes(16).toString('hex'),
    captain: captain.id,
  })
  const all = [captain, ...members.filter((m) => m.id !== captain.id)]
  for (const member of all) team.members.add(em.getReference(User, member.id))
  await em.flush()
  return team
}

/**
 * Make a team locked the way the platform does: a running game, an accepted participation with
 * `members` registered, and the `locked` flag set. Returns the game and participation.
 */
export async function lockTeamInRunningGame(server: TestServer, team: Team, members: User[] = []) {
  const game = await createGame(server)
  const participation = await createParticipation(server, game, team, members, 'Accepted')
  await server.services.orm.em.fork().nativeUpdate(Team, { id: team.id }, { locked: true })
  return { game, participation }
}

/** Re-read a team with its members straight from the database (null when it is gone). */
export async function reloadTeam(server: TestServer, id: number): Promise<Team | null> {
  return server.services.orm.em.fork().findOne(Team, { id }, { populate: ['members'] })
}

/** Number of rows in `teams`. */
export const countTeams = (server: TestServer): Promise<number> => server.services.orm.em.fork().count(Team, {})
