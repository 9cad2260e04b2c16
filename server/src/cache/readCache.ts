/**
 * The per-process read cache of the hot paths (docs/architecture.md#read-cache): values loaded from
 * PostgreSQL, kept by key and dropped by tag when a committed write touches what they were built
 * from (cache/invalidation.ts). A load that overlaps an invalidation of one of its tags is returned
 * but not kept, so a value read before a commit can never outlive that commit's invalidation.
 * Concurrent misses of one key share one load, so a herd after an invalidation costs one read.
 */

interface Entry {
  value: unknown
  tags: readonly string[]
  expires: number
}

/** A load in flight, joined by the misses of its key that come while it runs. */
interface Pending {
  /** The generation when it started. */
  mark: number
  promise: Promise<Loaded<unknown> | undefined>
}

export interface ReadCacheOptions {
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number
  /** A ceiling on any entry's life, so that a lost invalidation heals by itself. */
  maxAgeMs?: number
  /** Tags whose last invalidation is remembered; the oldest beyond it are forgotten (see `floor`). */
  rememberedTags?: number
}

/** What a load found: the value, and the tags of every row it was built from. */
export interface Loaded<T> {
  value: T
  tags: readonly string[]
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>()
  private readonly listeners = new Set<(tags: readonly string[]) => void>()
  private readonly keysByTag = new Map<string, Set<string>>()
  /** Moves with every invalidation; a load notes where it stood when it started (its mark). */
  private generation = 0
  /**
   * The generation of each tag's last invalidation, oldest first. A load keeps its value only when
   * none of its tags moved past its mark: a login elsewhere no longer stops every other answer
   * being kept, only the answers built from what changed.
   */
  private readonly invalidatedAt = new Map<string, number>()
  /** Invalidations at or before this generation are forgotten: a load marked before it keeps nothing. */
  private floor = 0
  private readonly loading = new Map<string, Pending>()
  private readonly maxEntries: number
  private readonly maxAgeMs: number
  private readonly rememberedTags: number

  constructor(options: ReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000
    this.maxAgeMs = options.maxAgeMs ?? 60_000
    this.rememberedTags = options.rememberedTags ?? 20_000
  }

  /**
   * The cached value of `key`, else `load()`'s (undefined = nothing to keep). A miss while a load
   * of the same key runs waits for it instead of starting another, and takes its value when none
   * of its tags was invalidated since that load started; otherwise (the value may predate a commit
   * this caller must see) it loads on its own.
   */
  async read<T>(key: string, load: () => Promise<Loaded<T> | undefined>): Promise<T | undefined> {
    // A cache that keeps nothing (one shared by ORMs without a cache) shares nothing either.
    if (this.maxEntries === 0) return (await load())?.value
    const hit = this.peek<T>(key)
    if (hit !== undefined) return hit
    const pending = this.loading.get(key)
    if (pending) {
      const shared = await pending.promise.catch(() => undefined)
      if (shared && !this.changedSince(shared.tags, pending.mark)) return shared.value as T
      return (await this.loadAndKeep(key, load, this.generation))?.value
    }
    const mark = this.generation
    const promise = this.loadAndKeep(key, load, mark)
    const own: Pending = { mark, promise }
    this.loading.set(key, own)
    try {
      return (await promise)?.value
    } finally {
      if (this.loading.get(key) === own) this.loading.delete(key)
    }
  }

  /**
   * The load of `key` running now (started by a `read`), to wait for without starting one;
   * undefined when none runs. Once it settles, `peek` tells whether its value was kept.
   */
  loadingNow(key: string): Promise<unknown> | undefined {
    return this.loading.get(key)?.promise.catch(() => undefined)
  }

  private async loadAndKeep<T>(key: string, load: () => Promise<Loaded<T> | undefined>, mark: number): Promise<Loaded<T> | undefined> {
    const loaded = await load()
    if (loaded) this.keep(key, loaded.tags, loaded.value, mark)
    return loaded
  }

  /**
   * Where the invalidations stand: a caller that builds a value outside `read` (the hot reads'
   * answers, http/hotReads.ts) takes this before it starts and hands it to `keep`.
   */
  get mark(): number {
    return this.generation
  }

  /** Keep `value` unless one of `tags` was invalidated since `mark` (the value may predate it). */
  keep(key: string, tags: readonly string[], value: unknown, mark: number): void {
    if (!this.changedSince(tags, mark)) this.store(key, tags, value)
  }

  /** Whether an invalidation since `mark` may have touched one of `tags`. */
  changedSince(tags: readonly string[], mark: number): boolean {
    if (mark < this.floor) return true
    for (const tag of tags) if ((this.invalidatedAt.get(tag) ?? 0) > mark) return true
    return false
  }

  peek<T>(key: string): T | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expires <= Date.now()) {
      this.drop(key)
      return undefined
    }
    return entry.value as T
  }

  /**
   * Hear every invalidation on this node (a local write, or another node's commit), after the
   * entries went; for state kept outside the cache that depends on the same rows. Returns the unsubscribe.
   */
  onInvalidate(listener: (tags: readonly string[]) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Drop every entry that carries one of `tags`. */
  invalidate(tags: Iterable<string>): void {
    const list = [...tags]
    this.generation += 1
    for (const tag of list) {
      // Re-inserted, so the map stays in the order of the last invalidations (the oldest are forgotten first).
      this.invalidatedAt.delete(tag)
      this.invalidatedAt.set(tag, this.generation)
      const keys = this.keysByTag.get(tag)
      if (!keys) continue
      for (const key of [...keys]) this.drop(key)
    }
    this.forgetOldInvalidations()
    for (const listener of this.listeners) listener(list)
  }

  /** Forget everything (the invalidation channel was down: some invalidations may be lost). */
  clear(): void {
    this.generation += 1
    this.floor = this.generation
    this.invalidatedAt.clear()
    this.entries.clear()
    this.keysByTag.clear()
  }

  get size(): number {
    return this.entries.size
  }

  /** Bounded memory: the oldest remembered invalidations go, and the floor rises past them. */
  private forgetOldInvalidations(): void {
    if (this.invalidatedAt.size <= this.rememberedTags) return
    for (const [tag, generation] of this.invalidatedAt) {
      if (this.invalidatedAt.size <= this.rememberedTags / 2) break
      this.invalidatedAt.delete(tag)
      this.floor = Math.max(this.floor, generation)
    }
  }

  private store(key: string, tags: readonly string[], value: unknown): void {
    if (this.maxEntries === 0) return
    this.drop(key)
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.drop(oldest)
    }
    this.entries.set(key, { value, tags, expires: Date.now() + this.maxAgeMs })
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag)
      if (!keys) this.keysByTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.keysByTag.delete(tag)
    }
  }
}
