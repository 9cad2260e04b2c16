/** GameNotice (docs/compatibility.md#game-notice-and-event-shapes) for the edit endpoints, the player list and ReceivedGameNotice. */
import type { GameNotice as GameNoticeModel } from '@flagwave/shared/schemas/games'
import { toWireDate } from '@flagwave/shared/format'
import type { GameNotice } from '../entities/GameNotice.js'
import { derivedJsonText, type JsonText } from '../lib/jsonText.js'
import { noticeValues } from './values.js'

type NoticeLike = Pick<GameNotice, 'id' | 'type' | 'content' | 'publishTime'>

export function presentNotice(notice: NoticeLike): GameNoticeModel {
  return { id: notice.id, type: notice.type, content: notice.content, time: toWireDate(notice.publishTime), values: noticeValues(notice.type, notice.content) }
}

/**
 * `GET /api/game/{id}/notices` as JSON text: one page of the cached list, presented, serialised
 * and given its validator once per list version and page (lib/jsonText.ts `derivedJsonText`).
 */
export function presentNoticePage(list: readonly NoticeLike[], skip: number, count: number): JsonText {
  const from = Math.max(0, skip)
  const to = from + Math.max(0, count)
  return derivedJsonText(list, `${from}:${to}`, () => list.slice(from, to).map(presentNotice))
}
