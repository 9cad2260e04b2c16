/** Reading participations (docs/compatibility.md#group-game-reading-and-joining). */
import type { EntityManager } from '@mikro-orm/postgresql'
import { Game } from '../../entities/Game.js'
import { Participation } from '../../entities/Participation.js'
import { Registration } from '../../entities/Registration.js'
import type { User } from '../../entities/User.js'
import type { Team } from '../../entities/Team.js'
import { readGame } from '../play/gate.js'
import { notFound } from '../../lib/errors.js'
import { GAME_NOT_FOUND } from '../play/games.js'
import { gameDivisions } from '../divisions/divisions.js'
import { hasPermission } from '@flagwave/shared/divisions'

/** A participation (team, members and captain loaded) with the ids of the users registered through it. */
interface ParticipationWithMembers {
  participation: Participation
  registeredMembers: string[]
}

/** `GET /api/game/{id}/participations`: every participation, any status, by team id (404 with body status 400). */
export async function gameParticipations(em: EntityManager, gameId: number): Promise<ParticipationWithMembers[]> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound(GAME_NOT_FOUND, 400)
  const participations = await em.find(Participation, { game: gameId }, { populate: ['team', 'team.members', 'team.captain', 'division'], orderBy: { team: { id: 'asc' } } })
  const registrations = await em.find(Registration, { game: gameId }, { fields: ['user', 'participation'] })
  const byParticipation = new Map<number, string[]>()
  for (const r of registrations) {
    const pid = (r.participation as Participation).id
    const list = byParticipation.get(pid) ?? []
    list.push((r.user as User).id)
    byParticipation.set(pid, list)
  }
  return participations.map((participation) => ({ participation, registeredMembers: byParticipation.get(participation.id) ?? [] }))
}

/** What `GET /api/game/{id}/check` reports. */
interface JoinCheck {
  /** The caller's teams in the game, with their division ids. */
  joinedTeams: { id: number; division: number | null }[]
  /** Divisions a team may join (their JoinGame permission). */
  joinableDivisions: number[]
}

/**
 * `GET /api/game/{id}/check` (GZ::CTF 1.7): the caller's teams that joined the game and the
 * divisions open to joining (docs/scoring.md#divisions). Hidden games answer as `GET /api/game/{id}` does.
 */
export async function joinCheck(em: EntityManager, gameId: number, user: User): Promise<JoinCheck> {
  const game = await readGame(em, gameId)
  if (!game) throw notFound(GAME_NOT_FOUND)
  const participations = await em.find(Participation, { game: gameId, team: { members: user.id } }, { fields: ['team', 'division'], orderBy: { team: { id: 'asc' } } })
  const divisions = await gameDivisions(em, gameId)
  return {
    joinedTeams: participations.map((p) => ({ id: (p.team as Team).id, division: (p.division as { id: number } | null)?.id ?? null })),
    joinableDivisions: divisions.filter((d) => hasPermission(d.defaultPermissions, 'JoinGame')).map((d) => d.id),
  }
}
