/** Reading participations (docs/compatibility.md#group-game-reading-and-joining). */
import type { EntityManager } from '@mikro-orm/postgresql'
import { Game } from '../../entities/Game.js'
import { Participation } from '../../entities/Participation.js'
import { Registration } from '../../entities/Registration.js'
import type { User } from '../../entities/User.js'
import { notFound } from '../../lib/errors.js'
import { GAME_NOT_FOUND } from '../play/games.js'

/** A participation (team, members and captain loaded) with the ids of the users registered through it. */
interface ParticipationWithMembers {
  participation: Participation
  registeredMembers: string[]
}

/** `GET /api/game/{id}/participations`: every participation, any status, by team id (404 with body status 400). */
export async function gameParticipations(em: EntityManager, gameId: number): Promise<ParticipationWithMembers[]> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound(GAME_NOT_FOUND, 400)
  const participations = await em.find(Participation, { game: gameId }, { populate: ['team', 'team.members', 'team.captain'], orderBy: { team: { id: 'asc' } } })
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
