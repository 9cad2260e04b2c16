/** Pushes of committed notices: `ReceivedGameNotice` to the game room, one per new notice. */
import { rooms } from '@flagwave/shared/events'
import type { GameNotice } from '../../entities/GameNotice.js'
import type { Publish } from '../../realtime/sink.js'
import { presentNotice } from '../../presenters/notices.js'

/** Queue the push of notices created in this unit of work (a request's outbox sends them after the commit). */
export function pushNotices(events: Publish, gameId: number, notices: GameNotice[]): void {
  for (const notice of notices) events.publish('user', rooms.game(gameId), 'ReceivedGameNotice', presentNotice(notice))
}
