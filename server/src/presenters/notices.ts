/** GameNotice (docs/compatibility.md#game-notice-and-event-shapes) for the edit endpoints, the player list and ReceivedGameNotice. */
import type { GameNotice as GameNoticeModel } from '@flagwave/shared/schemas/games'
import { toWireDate } from '@flagwave/shared/format'
import type { GameNotice } from '../entities/GameNotice.js'

export function presentNotice(notice: Pick<GameNotice, 'id' | 'type' | 'content' | 'publishTime'>): GameNoticeModel {
  return { id: notice.id, type: notice.type, content: notice.content, time: toWireDate(notice.publishTime) }
}
