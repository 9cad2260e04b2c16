/**
 * Games, challenges, flags and participations for tests, written straight to the database.
 * Times default to a game that is running now (started an hour ago, ends in a day).
 */
import { randomBytes } from 'node:crypto'
import type { ChallengeTag, ChallengeType, ParticipationStatus } from '@flagwave/shared/enums'
import { Game } from '../../../server/src/entities/Game.js'
import { Challenge } from '../../../server/src/entities/Challenge.js'
import { Flag } from '../../../server/src/entities/Flag.js'
import { Team } from '../../../server/src/entities/Team.js'
import { Participation } from '../../../server/src/entities/Participation.js'
import { Registration } from '../../../server/src/entities/Registration.js'
import { User } from '../../../server/src/entities/User.js'
import { generateGameKeys, teamToken } from '../../../server/src/domain/games/keys.js'
import type { TestServer } from '../server.js'

const HOUR = 3600_000

export async function createGame(server: TestServer, overrides: Partial<Omit<Game, 'id'>> = {}): Promise<Game> {
  const em = server.services.orm.em.fork()
  const keys = generateGameKeys(server.services.config.XOR_KEY)
  const now = Date.now()
  const game = em.create(Game, {
    title: `Game ${randomBytes(3).toString('hex')}`,
    start: new Date(now - HOUR),
    end: new Date(now + 24 * HOUR),
    wpddl: new Date(now + 27 * HOUR),
    practiceMode: true,
    ...keys,
    ...overrides,
  } as never)
  await em.flush()
  return game
}

export async function createChallenge(
  server: TestServer,
  game: Game | number,
  overrides: Partial<Omit<Challenge, 'id' | 'game'>> & { tag?: ChallengeTag; type?: ChallengeType; flags?: string[] } = {},
): Promise<Challenge> {
  const em = server.services.orm.em.fork()
  const { flags = ['flag{test}'], ...rest } = overrides
  const challenge = em.create(Challenge, {
    game: typeof game === 'number' ? game : game.id,
    title: `Challenge ${randomBytes(3).toString('hex')}`,
    isEnabled: true,
    ...rest,
  } as never)
  for (const flag of flags) em.create(Flag, { challenge, flag } as never)
  await em.flush()
  return challenge
}

/** Register a team (and the given members) in a game with a participation of the given status. */
export async function createParticipation(
  server: TestServer,
  game: Game,
  team: Team | number,
  members: (User | string)[],
  status: ParticipationStatus = 'Accepted',
  organization: string | null = null,
): Promise<Participation> {
  const em = server.services.orm.em.fork()
  const teamId = typeof team === 'number' ? team : team.id
  const participation = em.create(Participation, {
    game: game.id,
    team: teamId,
    status,
    organization,
    token: teamToken(game, teamId, server.services.config.XOR_KEY),
  } as never)
  for (const member of members) em.create(Registration, { user: typeof member === 'string' ? member : member.id, game: game.id, participation } as never)
  await em.flush()
  return participation
}
