/**
 * Pushes of committed notices: `ReceivedGameNotice`, one per new notice, to the game room — or, for
 * a notice about a challenge some division may not view, only to the rooms of the teams that may
 * (docs/scoring.md#divisions-and-notices).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { rooms } from '@flagwave/shared/events'
import type { GameNotice } from '../../entities/GameNotice.js'
import { Participation } from '../../entities/Participation.js'
import type { Publish } from '../../realtime/sink.js'
import { presentNotice } from '../../presenters/notices.js'
import { noticeAudience } from './visibility.js'

/** Queue the push of notices created in this unit of work (a request's outbox sends them after the commit). */
export async function pushNotices(em: EntityManager, events: Publish, gameId: number, notices: readonly GameNotice[]): Promise<void> {
  for (const notice of notices) {
    const model = presentNotice(notice)
    for (const room of await noticeRooms(em, gameId, notice.challenge?.id ?? null)) events.publish('user', room, 'ReceivedGameNotice', model)
  }
}

/**
 * The user-hub rooms a notice about `challengeId` (null: none) is pushed to: the game room when
 * every division may view the challenge, else the rooms of the teams that may.
 */
export async function noticeRooms(em: EntityManager, gameId: number, challengeId: number | null): Promise<string[]> {
  const audience = await noticeAudience(em, gameId, challengeId)
  if (audience === 'everyone') return [rooms.game(gameId)]
  const teams = await em.find(Participation, { game: gameId, $or: [{ division: null }, { division: { $in: audience.divisions } }] }, { fields: ['id'] })
  return teams.map(({ id }) => rooms.team(gameId, id))
}
