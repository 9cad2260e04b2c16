/**
 * `invalidateAfterCommit` on the node that wrote (docs/architecture.md#read-cache): a write the unit
 * of work does not see drops its tags right after its transaction commits, without waiting for its
 * NOTIFY to come back, and a read during the transaction can not outlive the commit. The cache here
 * is attached to an ORM of its own that listens to nothing, so only the writer's own drop can
 * empty it; the NOTIFY is checked with a plain LISTEN beside it.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { createDatabaseOn, dropDatabaseOn } from '../../server/src/db/scratch.js'
import { migrate, openDatabase, type Orm } from '../../server/src/db/orm.js'
import { ReadCache } from '../../server/src/cache/readCache.js'
import { attachReadCache, invalidateAfterCommit, readCacheOf } from '../../server/src/cache/invalidation.js'

const serverUrl = inject('databaseServerUrl')
const name = `flagwave_test_${randomBytes(5).toString('hex')}`
let orm: Orm
let cache: ReadCache
let listener: pg.Client
const heard: string[] = []

beforeAll(async () => {
  const url = await createDatabaseOn(serverUrl, name)
  orm = await openDatabase(url)
  await migrate(orm)
  cache = new ReadCache()
  attachReadCache(orm, cache)
  listener = new pg.Client({ connectionString: url })
  await listener.connect()
  listener.on('notification', (n) => heard.push(n.payload ?? ''))
  await listener.query('listen flagwave_cache')
})

afterAll(async () => {
  await listener?.end()
  await orm?.close()
  await dropDatabaseOn(serverUrl, name).catch(() => undefined)
})

/** A cached value under `key`, built from `tag`. */
async function cached(key: string, tag: string, value: string): Promise<void> {
  await cache.read(key, async () => ({ value, tags: [tag] }))
  expect(cache.peek(key)).toBe(value)
}

/** Whether a NOTIFY naming `tag` arrives within a second. */
async function notified(tag: string): Promise<boolean> {
  await listener.query('select 1')
  const deadline = Date.now() + 1000
  while (Date.now() < deadline) {
    if (heard.some((payload) => payload.includes(tag))) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}

describe('invalidateAfterCommit', () => {
  it('inside a transaction: dropped on this node when the commit resolves, with a read during it, and sent in the commit', async () => {
    const tag = `Test:${randomBytes(4).toString('hex')}`
    await cached('k1', tag, 'before')
    await orm.em.fork().transactional(async (tx) => {
      await tx.execute('select 1')
      await invalidateAfterCommit(tx, [tag])
      // Another request reads while the transaction is open: it still sees the old rows.
      await cached('k2', tag, 'read during the transaction')
      expect(await notified(tag)).toBe(false)
    })
    expect(cache.peek('k1')).toBeUndefined()
    expect(cache.peek('k2')).toBeUndefined()
    expect(await notified(tag)).toBe(true)
  })

  it('a rollback drops nothing and sends nothing', async () => {
    const tag = `Test:${randomBytes(4).toString('hex')}`
    await cached('k3', tag, 'kept')
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await invalidateAfterCommit(tx, [tag])
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(cache.peek('k3')).toBe('kept')
    expect(await notified(tag)).toBe(false)
    // Nor does the rolled-back list leak into a later commit.
    await orm.em.fork().transactional(async (tx) => void (await tx.execute('select 1')))
    expect(cache.peek('k3')).toBe('kept')
  })

  it('outside a transaction: dropped at once, and sent', async () => {
    const tag = `Test:${randomBytes(4).toString('hex')}`
    await cached('k4', tag, 'before')
    await invalidateAfterCommit(orm.em.fork(), [tag])
    expect(cache.peek('k4')).toBeUndefined()
    expect(await notified(tag)).toBe(true)
  })

  it('a transaction reads through the cache: its own writes are never kept', async () => {
    await orm.em.fork().transactional(async (tx) => {
      expect(readCacheOf(tx)).not.toBe(cache)
    })
    expect(readCacheOf(orm.em.fork())).toBe(cache)
  })
})
