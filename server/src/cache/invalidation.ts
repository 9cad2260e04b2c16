/**
 * How the read cache learns about writes (docs/architecture.md#read-cache). Every ORM flush names
 * the tags of the rows it changed; the tags travel in a NOTIFY sent inside the writing transaction,
 * so PostgreSQL delivers them to every node (this one included) exactly when the change commits,
 * and never for a rollback. This node also drops them itself right after its own commit, so its next
 * request never sees the old value, however late the NOTIFY comes back. Writes that bypass the unit
 * of work (native updates and raw SQL) name their tags themselves with `invalidateAfterCommit`.
 */
import type { EntityManager, EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core'
import type { Orm } from '../db/orm.js'
import { DedicatedConnection } from '../db/dedicatedConnection.js'
import { databaseUrl } from '../db/pg.js'
import type { Logger } from 'pino'
import { ReadCache } from './readCache.js'

const CACHE_CHANNEL = 'flagwave_cache'
/** NOTIFY payloads are limited to 8000 bytes; a longer list is sent as "drop everything". */
const MAX_PAYLOAD = 7000
const EVERYTHING = '*'

type Row = Record<string, unknown>
const idOf = (ref: unknown): unknown => (ref && typeof ref === 'object' ? (ref as { id?: unknown }).id : ref)

/** The tags a changed row invalidates, by entity: its own, and those of the reads built from it. */
const derived: Record<string, (row: Row) => string[]> = {
  Game: () => [tags.games],
  Registration: (r) => [tags.registration(idOf(r.game), idOf(r.user))],
  Participation: (r) => [tags.gameParticipations(idOf(r.game))],
  Challenge: (r) => [tags.gameChallenges(idOf(r.game))],
  GameNotice: (r) => [tags.gameNotices(idOf(r.game))],
  Division: (r) => [tags.gameDivisions(idOf(r.game))],
  // A team's challenge detail shows its instance (loaded flag, container): http/hotReads.ts.
  GameInstance: (r) => [tags.instance(idOf(r.participation), idOf(r.challenge))],
  Post: () => [tags.posts],
  // Answers that show other people's rows (a team's members) carry these coarse tags (http/hotReads.ts).
  Team: () => [tags.teams],
  User: () => [tags.users],
}

/** The entities some cached read is built from; changes to others (submissions, logs…) cost nothing. */
const CACHED = new Set(['User', 'Session', 'ApiToken', 'Game', 'Registration', 'Participation', 'Team', 'Challenge', 'GameNotice', 'Post', 'Division', 'GameInstance'])

/** The game a `tags.game` tag names (the game row itself, not one of its lists), else null. */
export function gameOfTag(tag: string): number | null {
  const match = /^Game:(\d+)$/.exec(tag)
  return match ? Number(match[1]) : null
}

/** Tag names, one place for writers and readers. */
export const tags = {
  entity: (name: string, id: unknown) => `${name}:${String(id)}`,
  user: (id: string) => `User:${id}`,
  session: (id: string) => `Session:${id}`,
  game: (id: number) => `Game:${id}`,
  team: (id: number) => `Team:${id}`,
  participation: (id: number) => `Participation:${id}`,
  games: 'Games',
  posts: 'Posts',
  teams: 'Teams',
  users: 'Users',
  registration: (gameId: unknown, userId: unknown) => `Registration:${String(gameId)}:${String(userId)}`,
  gameParticipations: (gameId: unknown) => `Game:${String(gameId)}:participations`,
  gameChallenges: (gameId: unknown) => `Game:${String(gameId)}:challenges`,
  gameNotices: (gameId: unknown) => `Game:${String(gameId)}:notices`,
  gameDivisions: (gameId: unknown) => `Game:${String(gameId)}:divisions`,
  /**
   * What a team's challenge detail shows of that team (docs/performance.md#hot-reads): its instance
   * and container, its attempts, its hint unlocks.
   */
  instance: (participationId: unknown, challengeId: unknown) => `Instance:${String(participationId)}:${String(challengeId)}`,
}

function tagsOfChange(name: string, entity: Row, original: Row | undefined): string[] {
  const out = [tags.entity(name, entity.id)]
  const more = derived[name]
  if (more) {
    out.push(...more(entity))
    // A row moved between owners (a registration's game, say) invalidates the old owner too.
    if (original) out.push(...more(original))
  }
  return out
}

/** The ORM subscriber: collects tags per unit of work, sends them inside the commit. */
class CacheInvalidation implements EventSubscriber {
  private readonly pending = new WeakMap<EntityManager, Set<string>>()

  constructor(readonly cache: ReadCache) {}

  /** Tags a write outside the unit of work names inside `tx`: sent in its commit and dropped after it, with the flushes'. */
  addToTransaction(tx: EntityManager, list: readonly string[]): void {
    const set = this.pendingOf(tx)
    for (const tag of list) set.add(tag)
  }

  onFlush(args: FlushEventArgs): void {
    const set = this.pendingOf(args.em)
    for (const cs of args.uow.getChangeSets()) {
      if (!CACHED.has(cs.meta.className)) continue
      for (const tag of tagsOfChange(cs.meta.className, cs.entity as Row, cs.originalEntity as Row | undefined)) set.add(tag)
    }
    // A membership change (a team's members) touches the team and every user who joined or left it.
    for (const collection of args.uow.getCollectionUpdates()) {
      const owner = collection.owner as Row
      const ownerName = (collection.owner as object).constructor.name
      if (!CACHED.has(ownerName)) continue
      set.add(tags.entity(ownerName, owner.id))
      for (const tag of derived[ownerName]?.(owner) ?? []) set.add(tag)
      const before = collection.getSnapshot() ?? []
      for (const item of [...collection.getItems(false), ...before] as Row[]) {
        const name = (item as object).constructor.name
        set.add(tags.entity(name, item.id))
        for (const tag of derived[name]?.(item) ?? []) set.add(tag)
      }
    }
  }

  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    const set = this.pending.get(args.em)
    if (!set?.size) return
    await notifyIn(args.em, [...set], args.transaction)
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    this.release(args.em)
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    this.pending.delete(args.em)
  }

  afterFlush(args: FlushEventArgs): void {
    // Outside a transaction the flush has committed (and notified); inside one, the commit will.
    if (!args.em.isInTransaction()) this.release(args.em)
  }

  private release(em: EntityManager): void {
    const set = this.pending.get(em)
    if (!set?.size) return
    this.pending.delete(em)
    this.cache.invalidate(set)
  }

  private pendingOf(em: EntityManager): Set<string> {
    let set = this.pending.get(em)
    if (!set) this.pending.set(em, (set = new Set()))
    return set
  }
}

const payloadOf = (list: string[]): string => {
  const payload = JSON.stringify(list)
  return payload.length > MAX_PAYLOAD ? EVERYTHING : payload
}

async function notifyIn(em: EntityManager, list: string[], transaction?: unknown): Promise<void> {
  const connection = (em as unknown as { getConnection(): { execute(sql: string, params: unknown[], method: string, ctx?: unknown): Promise<unknown> } }).getConnection()
  await connection.execute('select pg_notify(?, ?)', [CACHE_CHANNEL, payloadOf(list)], 'run', transaction)
}

/**
 * `list` in payloads under the size limit each: a checkers' batch names a tag per settled
 * submission (its team's attempts), which must not turn into "drop everything".
 */
function chunksOf(list: string[]): string[] {
  const out: string[] = []
  let chunk: string[] = []
  let size = 2
  for (const tag of list) {
    const cost = JSON.stringify(tag).length + 1
    if (chunk.length > 0 && size + cost > MAX_PAYLOAD) {
      out.push(payloadOf(chunk))
      chunk = []
      size = 2
    }
    chunk.push(tag)
    size += cost
  }
  if (chunk.length > 0) out.push(payloadOf(chunk))
  return out
}

/** The same NOTIFY for raw `pg` clients (the checkers' transactions): run it inside the writing transaction. */
export const invalidationQuery = (list: string[]): { name: string; text: string; values: [string, string[]] } => ({
  name: 'flagwave-cache-invalidate',
  text: 'select pg_notify($1, p) from unnest($2::text[]) as p',
  values: [CACHE_CHANNEL, chunksOf(list)],
})

/**
 * For writes the unit of work does not see (native updates, raw SQL): drop `list` on every node
 * once the caller's transaction commits, on this one right after the commit (nothing if it rolls
 * back); with no transaction, the write has committed: at once.
 *
 * Dropping here before the commit would not do: a read between then and the commit still sees the
 * old rows and would keep them until the NOTIFY comes back (docs/architecture.md#read-cache).
 */
export async function invalidateAfterCommit(em: EntityManager, list: string[]): Promise<void> {
  const invalidation = invalidationOf(em)
  if (invalidation && em.isInTransaction()) return invalidation.addToTransaction(em, list)
  await notifyIn(em, list, em.getTransactionContext())
  invalidation?.cache.invalidate(list)
}

/**
 * The invalidation subscriber of an ORM, found from any of its entity managers: forks share the
 * event manager, and a transaction's fork gets a copy of it with the same subscribers.
 */
function invalidationOf(em: EntityManager): CacheInvalidation | undefined {
  for (const subscriber of em.getEventManager().getSubscribers()) if (subscriber instanceof CacheInvalidation) return subscriber
  return undefined
}

/** An ORM without a cache (scripts, the bench's loaders) reads through. */
const readThrough = new ReadCache({ maxEntries: 0 })

/**
 * The read cache attached to `em`'s ORM (docs/architecture.md#read-cache). Inside a transaction it
 * reads through: what a transaction sees may include its own writes, which must not be kept before
 * they commit (or at all, should they roll back).
 */
export const readCacheOf = (em: EntityManager): ReadCache => (em.isInTransaction() ? readThrough : (invalidationOf(em)?.cache ?? readThrough))

/** Attach `cache` to the ORM: its flushes invalidate it, and so do `invalidateAfterCommit` calls. */
export function attachReadCache(orm: Orm, cache: ReadCache): void {
  orm.em.getEventManager().registerSubscriber(new CacheInvalidation(cache))
}

/** Listens for other nodes' (and this node's) invalidations; a lost connection drops everything. */
export function listenForInvalidations(orm: Orm, cache: ReadCache, log: Logger): DedicatedConnection {
  return new DedicatedConnection({
    url: databaseUrl(orm),
    name: 'cache invalidation',
    log,
    channels: [CACHE_CHANNEL],
    onNotification: (_channel, payload) => {
      if (payload === EVERYTHING) return cache.clear()
      try {
        cache.invalidate(JSON.parse(payload) as string[])
      } catch {
        cache.clear()
      }
    },
    // Whatever was sent while we were not listening is lost: start from nothing.
    onUp: () => cache.clear(),
    onDown: () => cache.clear(),
  })
}
