/** Teams for tests, written straight to the database. */
import { randomBytes } from 'node:crypto'
import { Team } from '../../../server/src/entities/Team.js'
import { User } from '../../../server/src/entities/User.js'
import type { TestServer } from '../server.js'

export async function createTeam(server: TestServer, captain: User, members: User[] = [], overrides: Partial<Pick<Team, 'name' | 'bio' | 'locked'>> = {}): Promise<Team> {
  const em = server.services.orm.em.fork()
  const team = em.create(Team, {
    name: overrides.name ?? `team${randomBytes(3).toString('hex')}`,
    bio: overrides.bio ?? null,
    locked: overrides.locked ?? false,
    inviteToken: randomBytes(16).toString('hex'),
    captain: captain.id,
  } as never)
  const all = [captain, ...members.filter((m) => m.id !== captain.id)]
  for (const member of all) team.members.add(em.getReference(User, member.id))
  await em.flush()
  return team
}
