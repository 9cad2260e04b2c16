/**
 * Every bounded string column (an entity property with a `length`) is guarded before a value
 * reaches it (docs/compatibility.md#storage-bounds): by the shared zod schema of every request
 * member that writes it — checked here by parsing values one character too long, twice too long
 * and 10 000 characters long, and a value that fits — or, where the value comes from a header or
 * from the server itself, by the named code that truncates, validates or makes it.
 *
 * The map (tests/support/columnBounds.ts) is walked against the entity metadata: a new bounded
 * column without an entry, or an entry for a column that no longer exists, fails the test.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { ChallengeUpdateModel } from '@flagwave/shared/schemas/challenges'
import { generateTeamFlag, generateTestFlag } from '@flagwave/shared/flags'
import { COLUMN_GUARDS, boundedColumns, templateExpandingTo, type Member } from '../support/columnBounds.js'

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success

describe('bounded columns', () => {
  const columns = boundedColumns()

  it('finds the bounded columns in the entity metadata', () => {
    expect(columns.size).toBeGreaterThan(30)
    expect(columns.get('User.userName')).toBe(64)
  })

  it('every bounded column has an entry, and every entry a column', () => {
    expect([...columns.keys()].filter((c) => !(c in COLUMN_GUARDS)), 'bounded columns without an entry in COLUMN_GUARDS (tests/support/columnBounds.ts)').toEqual([])
    expect(Object.keys(COLUMN_GUARDS).filter((c) => !columns.has(c)), 'entries without a bounded column').toEqual([])
  })

  it.each(Object.entries(COLUMN_GUARDS).filter(([, g]) => 'members' in g))('%s: every request member writing it refuses longer values', (column, guard) => {
    const length = columns.get(column)!
    const problems: string[] = []
    for (const [schema, field, value = (n: number) => 'a'.repeat(n)] of (guard as { members: Member[] }).members) {
      const member = schema.shape[field] as z.ZodType | undefined
      if (!member) {
        problems.push(`${field}: no such member`)
        continue
      }
      for (const n of [length + 1, 2 * length, 10_000]) if (accepts(member, value(n))) problems.push(`${field} accepts ${n} characters`)
      // The refusals above must be about the length: some value that fits the column is accepted.
      if (![length, 50, 16, 8, 5, 3, 1].filter((n) => n <= length).some((n) => accepts(member, value(n)))) problems.push(`${field} accepts no value that fits`)
    }
    expect(problems).toEqual([])
  })

  it.each(Object.entries(COLUMN_GUARDS).filter(([, g]) => 'guardedBy' in g && g.check))('%s: the guarding code keeps the bound', (column, guard) => {
    ;(guard as { check: (length: number) => void }).check(columns.get(column)!)
  })

  it('a template the schema accepts never makes a flag longer than the flag columns', () => {
    const ctx = { teamToken: 't', teamHashSalt: 's', challengeId: 1, sha256Hex: () => 'f'.repeat(64) }
    const template = ChallengeUpdateModel.shape.flagTemplate
    for (const t of ['[GUID]'.repeat(20), `${'[TEAM_HASH]'.repeat(10)}${'a'.repeat(10)}`, `[LEET]${'a'.repeat(114)}`, templateExpandingTo(128), templateExpandingTo(129)]) {
      if (!accepts(template, t)) continue
      expect(generateTeamFlag(t, ctx).length, t).toBeLessThanOrEqual(128)
      expect(generateTestFlag(t).length, t).toBeLessThanOrEqual(128)
    }
    expect(accepts(template, templateExpandingTo(128))).toBe(true)
    expect(accepts(template, templateExpandingTo(129))).toBe(false)
  })
})
