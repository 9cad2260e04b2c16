/**
 * What the freeze holds back besides the board (docs/scoring.md#freeze): blood notices and
 * solve/blood webhooks from the freeze on, released when the board is unfrozen. Decided with the
 * one rule of freeze.ts.
 */
import type { NoticeType } from '@flagwave/shared/enums'
import { boardFreeze, type FreezeFields } from './freeze.js'

const BLOOD_NOTICES: ReadonlySet<NoticeType> = new Set(['FirstBlood', 'SecondBlood', 'ThirdBlood'])

/** Whether a notice is held back now: a blood published from the freeze on, while the board is frozen. */
export function noticeHeld(game: FreezeFields, notice: { type: NoticeType; publishTime: Date }, now: number = Date.now()): boolean {
  if (!BLOOD_NOTICES.has(notice.type)) return false
  const at = boardFreeze(game, now)
  return at !== null && notice.publishTime.getTime() >= at.getTime()
}

/** The notices players may see now: held bloods left out (the list is shared, so a new one is made only when needed). */
export function unheldNotices<T extends { type: NoticeType; publishTime: Date }>(game: FreezeFields, list: readonly T[], now: number = Date.now()): readonly T[] {
  if (!boardFreeze(game, now)) return list
  return list.filter((n) => !noticeHeld(game, n, now))
}

/**
 * How long a solve or blood webhook of `time` waits: while the board is frozen and the solve came
 * from the freeze on, an hour at a time (re-checked then; an unfreeze releases it at once by
 * making it due, freezeCommands.ts); null: send now.
 */
const HELD_RECHECK_MS = 3600_000
export function webhookHeldUntil(game: FreezeFields, time: Date, now: Date): Date | null {
  const at = boardFreeze(game, now.getTime())
  if (!at || time.getTime() < at.getTime()) return null
  return new Date(now.getTime() + HELD_RECHECK_MS)
}
