/** Last visits written in batches (server/src/domain/accounts/visits.ts, docs/compatibility.md#sessions-and-roles). */
import { describe, expect, it } from 'vitest'
import type pg from 'pg'
import { VisitRecorder } from '../../server/src/domain/accounts/visits.js'

function fakePool() {
  const queries: unknown[][] = []
  const pool = { query: async (_text: string, values: unknown[]) => void queries.push(values) } as unknown as pg.Pool
  return { pool: async () => pool, queries }
}

const quiet = { warn: () => undefined }

describe('VisitRecorder', () => {
  it('writes the visits of many users in one statement, the latest of each user', async () => {
    const { pool, queries } = fakePool()
    const visits = new VisitRecorder(pool, quiet, 60_000)
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s))
    visits.record('u1', at(1), '10.0.0.1')
    visits.record('u2', at(2), '10.0.0.2')
    visits.record('u1', at(3), '10.0.0.3')
    expect(queries).toHaveLength(0)
    await visits.flush()
    expect(queries).toEqual([[['u1', 'u2'], [at(3), at(2)], ['10.0.0.3', '10.0.0.2']]])
    await visits.flush()
    expect(queries).toHaveLength(1)
  })

  it('writes by itself after its delay', async () => {
    const { pool, queries } = fakePool()
    const visits = new VisitRecorder(pool, quiet, 10)
    visits.record('u1', new Date(), '10.0.0.1')
    await expect.poll(() => queries.length, { timeout: 1000, interval: 5 }).toBe(1)
  })

  it('a failed write is logged, and later visits are still written', async () => {
    const warnings: unknown[] = []
    let fail = true
    const queries: unknown[][] = []
    const pool = {
      query: async (_text: string, values: unknown[]) => {
        if (fail) throw new Error('connection lost')
        queries.push(values)
      },
    } as unknown as pg.Pool
    const visits = new VisitRecorder(async () => pool, { warn: (...args: unknown[]) => void warnings.push(args) }, 60_000)
    visits.record('u1', new Date(), '10.0.0.1')
    await visits.flush()
    expect(warnings).toHaveLength(1)
    fail = false
    visits.record('u2', new Date(), '10.0.0.2')
    await visits.flush()
    expect(queries.map((q) => q[0])).toEqual([['u2']])
  })
})
