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
    const audience = await noticeAudience(em, gameId, notice.challenge?.id ?? null)
    const model = presentNotice(notice)
    if (audience === 'everyone') {
      events.publish('user', rooms.game(gameId), 'ReceivedGameNotice', model)
      continue
    }
    const teams = await em.find(Participation, { game: gameId, $or: [{ division: null }, { division: { $in: audience.divisions } }] }, { fields: ['id'] })
    for (const { id } of teams) events.publish('user', rooms.team(gameId, id), 'ReceivedGameNotice', model)
  }
}
