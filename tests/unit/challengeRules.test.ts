/**
 * The pure rules of docs/challenge-rules.md: what an edit does to the enabled switch and the
 * opening time (the invariant the release scheduler relies on), and the deadline check.
 */
import { describe, expect, it } from 'vitest'
import { assertBeforeDeadline, isPendingRelease, releaseAfterUpdate } from '../../server/src/domain/challenges/rules.js'

const now = new Date('2030-01-01T12:00:00Z')
const later = new Date('2030-01-01T13:00:00Z')
const earlier = new Date('2030-01-01T11:00:00Z')
const edit = (model: { isEnabled?: boolean | null; releaseTimeUtc?: Date | null }) => ({ isEnabled: model.isEnabled ?? null, releaseTimeUtc: model.releaseTimeUtc })

describe('releaseAfterUpdate', () => {
  it('a future opening time closes the challenge until then; enabling beside it is refused', () => {
    expect(releaseAfterUpdate({ isEnabled: false }, edit({ releaseTimeUtc: later }), now)).toEqual({ isEnabled: false, releaseTimeUtc: later })
    expect(releaseAfterUpdate({ isEnabled: true }, edit({ releaseTimeUtc: later }), now)).toEqual({ isEnabled: false, releaseTimeUtc: later })
    expect(() => releaseAfterUpdate({ isEnabled: false }, edit({ isEnabled: true, releaseTimeUtc: later }), now)).toThrow(expect.objectContaining({ title: '定时开放的题目在开放前不可启用', status: 400 }))
  })

  it('a past opening time on a disabled challenge is pending: the scheduler opens it at once', () => {
    const out = releaseAfterUpdate({ isEnabled: false }, edit({ releaseTimeUtc: earlier }), now)
    expect(out).toEqual({ isEnabled: null, releaseTimeUtc: earlier })
    expect(isPendingRelease({ isEnabled: false, releaseTimeUtc: out.releaseTimeUtc })).toBe(true)
  })

  it('enabling by hand ahead of the time opens now; disabling by hand forgets the time', () => {
    expect(releaseAfterUpdate({ isEnabled: false, releaseTimeUtc: later }, edit({ isEnabled: true }), now)).toEqual({ isEnabled: true, releaseTimeUtc: now })
    expect(releaseAfterUpdate({ isEnabled: true, releaseTimeUtc: earlier }, edit({ isEnabled: false }), now)).toEqual({ isEnabled: false, releaseTimeUtc: null })
    // Rescheduling while disabling keeps the new time.
    expect(releaseAfterUpdate({ isEnabled: true, releaseTimeUtc: earlier }, edit({ isEnabled: false, releaseTimeUtc: later }), now)).toEqual({ isEnabled: false, releaseTimeUtc: later })
  })

  it('the stored time sent back, or omitted, is no change; null clears it', () => {
    const stored = { isEnabled: true, releaseTimeUtc: earlier }
    expect(releaseAfterUpdate(stored, edit({ isEnabled: true, releaseTimeUtc: new Date(earlier) }), now)).toEqual({ isEnabled: true, releaseTimeUtc: earlier })
    expect(releaseAfterUpdate(stored, edit({}), now)).toEqual({ isEnabled: null, releaseTimeUtc: earlier })
    expect(releaseAfterUpdate({ isEnabled: false, releaseTimeUtc: later }, edit({ releaseTimeUtc: null }), now)).toEqual({ isEnabled: null, releaseTimeUtc: null })
    // A disabled challenge without a time is not pending; an enabled one never is.
    expect(isPendingRelease({ isEnabled: false, releaseTimeUtc: null })).toBe(false)
    expect(isPendingRelease({ isEnabled: true, releaseTimeUtc: earlier })).toBe(false)
  })
})

describe('assertBeforeDeadline', () => {
  it('refuses strictly after the deadline, from a Date or a cached ISO string', () => {
    expect(() => assertBeforeDeadline({ deadlineUtc: now }, now.getTime())).not.toThrow()
    expect(() => assertBeforeDeadline({ deadlineUtc: null }, now.getTime())).not.toThrow()
    expect(() => assertBeforeDeadline({ deadlineUtc: now.toISOString() }, now.getTime() + 1)).toThrow(expect.objectContaining({ title: '题目已截止提交', status: 400 }))
  })
})
