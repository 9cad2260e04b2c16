/**
 * The batcher behind the submission accept (server/src/db/batcher.ts): calls made while the
 * statements in flight run leave together, a quiet caller leaves alone at once, and a statement
 * PostgreSQL refused is run again call by call while a broken connection fails its calls. The
 * statements here are plain functions: what the batched SQL does is tested against PostgreSQL in
 * tests/api/submissionBatch.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { Batcher } from '../../server/src/db/batcher.js'

interface Call {
  kind: 'one' | 'many'
  items: number[]
  finish: (err?: unknown) => void
}

/** A batcher whose statements wait until the test finishes them; each answers its items doubled. */
function controlled(inFlight: number, maxBatch: number) {
  const calls: Call[] = []
  const statement = (kind: Call['kind'], items: number[]) =>
    new Promise<number[]>((resolve, reject) => calls.push({ kind, items, finish: (err) => (err ? reject(err) : resolve(items.map((i) => i * 2))) }))
  const batcher = new Batcher<number, number>({
    one: async (item) => (await statement('one', [item]))[0]!,
    many: (items) => statement('many', items),
    inFlight,
    maxBatch,
  })
  return { batcher, calls }
}

const tick = () => new Promise((r) => setImmediate(r))
const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code })

describe('Batcher', () => {
  it('sends a quiet call at once and alone', async () => {
    const { batcher, calls } = controlled(2, 10)
    const answer = batcher.run(21)
    expect(calls).toMatchObject([{ kind: 'one', items: [21] }])
    calls[0]!.finish()
    expect(await answer).toBe(42)
  })

  it('gathers the calls made while every statement is in flight, up to the batch size, in order', async () => {
    const { batcher, calls } = controlled(2, 3)
    const answers = [1, 2, 3, 4, 5, 6, 7].map((i) => batcher.run(i))
    expect(calls.map((c) => c.items)).toEqual([[1], [2]])
    calls[0]!.finish()
    await tick()
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['one', [1]], ['one', [2]], ['many', [3, 4, 5]]])
    calls[1]!.finish()
    await tick()
    expect(calls[3]).toMatchObject({ kind: 'many', items: [6, 7] })
    calls[2]!.finish()
    calls[3]!.finish()
    expect(await Promise.all(answers)).toEqual([2, 4, 6, 8, 10, 12, 14])
  })

  it('runs each call of a statement PostgreSQL refused alone, so only the faulty one fails', async () => {
    const { batcher, calls } = controlled(1, 10)
    const first = batcher.run(0)
    const answers = [1, 2, 3].map((i) => batcher.run(i))
    calls[0]!.finish()
    await first
    await tick()
    expect(calls[1]).toMatchObject({ kind: 'many', items: [1, 2, 3] })
    calls[1]!.finish(pgError('23503'))
    await tick()
    expect(calls.slice(2).map((c) => [c.kind, c.items])).toEqual([['one', [1]], ['one', [2]], ['one', [3]]])
    calls[2]!.finish()
    calls[3]!.finish(pgError('23503'))
    calls[4]!.finish()
    const results = await Promise.allSettled(answers)
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })

  it('fails every call of a statement whose connection broke, without running any again', async () => {
    const { batcher, calls } = controlled(1, 10)
    const first = batcher.run(0)
    const answers = [1, 2].map((i) => batcher.run(i))
    calls[0]!.finish()
    await first
    await tick()
    calls[1]!.finish(Object.assign(new Error('Connection terminated unexpectedly')))
    const results = await Promise.allSettled(answers)
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(calls).toHaveLength(2)
    // A lost connection in the middle of a statement (class 08) is no answer either.
    const held = batcher.run(0)
    const more = [3, 4].map((i) => batcher.run(i))
    calls[2]!.finish()
    await held
    await tick()
    expect(calls[3]).toMatchObject({ kind: 'many', items: [3, 4] })
    calls[3]!.finish(pgError('08006'))
    expect((await Promise.allSettled(more)).map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(calls).toHaveLength(4)
  })
})
