/**
 * The read cache's own rules (server/src/cache/readCache.ts, docs/architecture.md#read-cache):
 * concurrent misses of a key share one load, a load overlapping an invalidation of one of its tags
 * keeps nothing (and its joiners load again), while invalidations of other tags no longer stop it.
 */
import { describe, expect, it } from 'vitest'
import { ReadCache, type Loaded } from '../../server/src/cache/readCache.js'

const deferred = <T>() => {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

/** A load that waits for the test to finish it, counting its calls. */
function gatedLoad<T>(tags: string[]) {
  const gates: ReturnType<typeof deferred<T>>[] = []
  const load = (): Promise<Loaded<T>> => {
    const gate = deferred<T>()
    gates.push(gate)
    return gate.promise.then((value) => ({ value, tags }))
  }
  return { load, gates }
}

describe('ReadCache', () => {
  it('builds a herd of concurrent misses of one key once, and keeps the value', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['Game:1:challenges'])
    const reads = Array.from({ length: 100 }, () => cache.read('rules:1', load))
    expect(gates).toHaveLength(1)
    gates[0]!.resolve('v1')
    expect(new Set(await Promise.all(reads))).toEqual(new Set(['v1']))
    expect(await cache.read('rules:1', load)).toBe('v1')
    expect(gates).toHaveLength(1)
  })

  it('tells its listeners of every invalidation once the entries went, until they unsubscribe', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['Game:1'])
    const kept = cache.read('game:1', load)
    gates[0]!.resolve('row')
    await kept
    const heard: { tags: readonly string[]; kept: unknown }[] = []
    const stop = cache.onInvalidate((tags) => heard.push({ tags, kept: cache.peek('game:1') }))
    cache.invalidate(new Set(['Game:1', 'Team:2']))
    expect(heard).toEqual([{ tags: ['Game:1', 'Team:2'], kept: undefined }])
    stop()
    cache.invalidate(['Game:1'])
    expect(heard).toHaveLength(1)
  })

  it('does not share a load between keys', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['T'])
    const a = cache.read('a', load)
    const b = cache.read('b', load)
    expect(gates).toHaveLength(2)
    gates[0]!.resolve('A')
    gates[1]!.resolve('B')
    expect([await a, await b]).toEqual(['A', 'B'])
  })

  it('drops a kept value when one of its tags is invalidated, and the next herd builds once again', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['Game:1:challenges', 'Game:1'])
    const first = cache.read('rules:1', load)
    gates[0]!.resolve('old')
    await first
    cache.invalidate(['Game:1:challenges'])
    expect(cache.peek('rules:1')).toBeUndefined()
    const herd = Array.from({ length: 10 }, () => cache.read('rules:1', load))
    expect(gates).toHaveLength(2)
    gates[1]!.resolve('new')
    expect(new Set(await Promise.all(herd))).toEqual(new Set(['new']))
    expect(cache.peek('rules:1')).toBe('new')
  })

  it('keeps nothing from a load that overlapped an invalidation of its tags; a joiner loads again', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['Game:1:challenges'])
    const started = cache.read('rules:1', load)
    // A commit lands while the first load runs; a reader after it must see the new rows.
    cache.invalidate(['Game:1:challenges'])
    const joiner = cache.read('rules:1', load)
    gates[0]!.resolve('before the commit')
    expect(await started).toBe('before the commit')
    await new Promise((r) => setImmediate(r))
    expect(gates).toHaveLength(2)
    expect(cache.peek('rules:1')).toBeUndefined()
    gates[1]!.resolve('after the commit')
    expect(await joiner).toBe('after the commit')
    expect(cache.peek('rules:1')).toBe('after the commit')
  })

  it('keeps a load that overlapped only invalidations of other tags', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['Game:1:challenges'])
    const started = cache.read('rules:1', load)
    cache.invalidate(['Session:abc', 'User:u1', 'Users'])
    gates[0]!.resolve('v')
    expect(await started).toBe('v')
    expect(cache.peek('rules:1')).toBe('v')
  })

  it('keep() refuses a value built before an invalidation of its tags, and accepts one of other tags', () => {
    const cache = new ReadCache()
    const mark = cache.mark
    cache.invalidate(['Participation:7'])
    cache.keep('details:1:7', ['Game:1', 'Participation:7'], 'stale', mark)
    expect(cache.peek('details:1:7')).toBeUndefined()
    cache.keep('details:1:8', ['Game:1', 'Participation:8'], 'fresh', mark)
    expect(cache.peek('details:1:8')).toBe('fresh')
  })

  it('keeps nothing marked before a clear(), nor before invalidations it no longer remembers', () => {
    const cache = new ReadCache({ rememberedTags: 4 })
    const beforeClear = cache.mark
    cache.clear()
    cache.keep('k', ['A'], 'v', beforeClear)
    expect(cache.peek('k')).toBeUndefined()
    const mark = cache.mark
    for (let i = 0; i < 10; i++) cache.invalidate([`Other:${i}`])
    // `A` was never invalidated, but the memory of what was is gone: the value may be older than a forgotten commit.
    cache.keep('k', ['A'], 'v', mark)
    expect(cache.peek('k')).toBeUndefined()
    cache.keep('k', ['A'], 'v', cache.mark)
    expect(cache.peek('k')).toBe('v')
  })

  it('lets the joiners of a failed load try on their own', async () => {
    const cache = new ReadCache()
    const { load, gates } = gatedLoad<string>(['T'])
    const first = cache.read('k', load)
    const joiner = cache.read('k', load)
    gates[0]!.reject(new Error('connection lost'))
    await expect(first).rejects.toThrow('connection lost')
    await new Promise((r) => setImmediate(r))
    expect(gates).toHaveLength(2)
    gates[1]!.resolve('v')
    expect(await joiner).toBe('v')
  })

  it('a cache that keeps nothing shares no load either', async () => {
    const cache = new ReadCache({ maxEntries: 0 })
    const { load, gates } = gatedLoad<string>(['T'])
    const a = cache.read('k', load)
    const b = cache.read('k', load)
    expect(gates).toHaveLength(2)
    gates[0]!.resolve('a')
    gates[1]!.resolve('b')
    expect([await a, await b]).toEqual(['a', 'b'])
  })
})
