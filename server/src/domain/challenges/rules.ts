/**
 * The challenge rules an editor sets (docs/challenge-rules.md): the opening time of a scheduled
 * challenge, its deadline and its attempt limit. Pure functions: what an update does to them, and
 * whether a submission may still be made.
 */
import type { ChallengeUpdateModel } from '@flagwave/shared/schemas/challenges'
import { badRequest, type AppError } from '../../lib/errors.js'

interface StoredRules {
  isEnabled: boolean
  releaseTimeUtc?: Date | null
}

export interface ReleaseOutcome {
  /** The enabled switch after the update (null: the update does not touch it). */
  isEnabled: boolean | null
  releaseTimeUtc: Date | null
}

const sameTime = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null)

/**
 * What an update does to the enabled switch and the opening time (docs/challenge-rules.md#timed-release).
 * The invariant the release scheduler relies on: a disabled challenge with an opening time opens
 * at that time; an enabled one's opening time is only the record of when it opened.
 * - A new opening time in the future closes the challenge until then (`isEnabled: true` beside it
 *   is a contradiction: 400); one in the past opens it at the scheduler's next look (at once).
 * - Enabling by hand a challenge whose opening is still ahead opens it now: the time becomes now.
 * - Disabling by hand an enabled challenge forgets its opening time (else it would reopen).
 * Sending back the stored time (a client that read it) is no change.
 */
export function releaseAfterUpdate(stored: StoredRules, model: Pick<ChallengeUpdateModel, 'isEnabled' | 'releaseTimeUtc'>, now: Date): ReleaseOutcome {
  const storedTime = stored.releaseTimeUtc ?? null
  const changed = model.releaseTimeUtc !== undefined && !sameTime(model.releaseTimeUtc, storedTime)
  if (changed) {
    const time = model.releaseTimeUtc ?? null
    if (time && time.getTime() > now.getTime()) {
      if (model.isEnabled === true) throw badRequest('定时开放的题目在开放前不可启用')
      return { isEnabled: false, releaseTimeUtc: time }
    }
    return { isEnabled: model.isEnabled, releaseTimeUtc: time }
  }
  if (model.isEnabled === true && !stored.isEnabled && storedTime && storedTime.getTime() > now.getTime()) return { isEnabled: true, releaseTimeUtc: now }
  if (model.isEnabled === false && stored.isEnabled) return { isEnabled: false, releaseTimeUtc: null }
  return { isEnabled: model.isEnabled, releaseTimeUtc: storedTime }
}

/** Whether a challenge waits for its opening time (players do not see it; docs/challenge-rules.md#timed-release). */
export const isPendingRelease = (c: StoredRules): boolean => !c.isEnabled && !!c.releaseTimeUtc

const DEADLINE_PASSED = '题目已截止提交'
const millis = (d: Date | string) => (typeof d === 'string' ? Date.parse(d) : d.getTime())

/**
 * Refused after the challenge's deadline (docs/challenge-rules.md#deadline): 400, whatever the game's
 * end or practice mode. Checked on the gate's cached challenge row (its edits drop the row).
 */
export function assertBeforeDeadline(challenge: { deadlineUtc?: Date | string | null }, now: number): void {
  const refusal = deadlineRefusal(challenge, now)
  if (refusal) throw refusal
}

/** The deadline rule as data: the refusal, or null while submissions are taken. */
export const deadlineRefusal = (challenge: { deadlineUtc?: Date | string | null }, now: number): AppError | null =>
  challenge.deadlineUtc && now > millis(challenge.deadlineUtc) ? badRequest(DEADLINE_PASSED) : null

export const ATTEMPTS_EXHAUSTED = '提交次数已达上限'
