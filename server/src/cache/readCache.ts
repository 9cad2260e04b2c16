/**
 * The per-process read cache of the hot paths (docs/architecture.md#read-cache): values loaded from
 * PostgreSQL, kept by key and dropped by tag when a committed write touches what they were built
 * from (cache/invalidation.ts). A load that overlaps any invalidation is returned but not kept, so a value read before a commit can never outlive that commit's invalidation.
 */

interface Entry {
  value: unknown
  tags: readonly string[]
  expires: number
}

export interface ReadCacheOptions {
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number
  /** A ceiling on any entry's life, so that a lost invalidation heals by itself. */
  maxAgeMs?: number
}

/** What a load found: the value, and the tags of every row it was built from. */
export interface Loaded<T> {
  value: T
  tags: readonly string[]
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>()
  private readonly keysByTag = new Map<string, Set<string>>()
  /** Moves with every invalidation: a load that saw it move keeps nothing (its rows may be older). */
  private generation = 0
  private readonly maxEntries: number
  private readonly maxAgeMs: number

  constructor(options: ReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000
    this.maxAgeMs = options.maxAgeMs ?? 60_000
  }

  /** The cached value of `key`, else `load()`'s (undefined = nothing to keep). */
  async read<T>(key: string, load: () => Promise<Loaded<T> | undefined>): Promise<T | undefined> {
    const hit = this.peek<T>(key)
    if (hit !== undefined) return hit
    const before = this.generation
    const loaded = await load()
    if (!loaded) return undefined
    if (this.generation === before) this.store(key, loaded.tags, loaded.value)
    return loaded.value
  }

  /**
   * Where the invalidations stand: a caller that builds a value outside `read` (the hot reads'
   * answers, http/hotReads.ts) takes this before it starts and hands it to `keep`.
   */
  get mark(): number {
    return this.generation
  }

  /** Keep `value` unless an invalidation happened since `mark` (the value may predate it). */
  keep(key: string, tags: readonly string[], value: unknown, mark: number): void {
    if (this.generation === mark) this.store(key, tags, value)
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

  /** Drop every entry that carries one of `tags`. */
  invalidate(tags: Iterable<string>): void {
    this.generation += 1
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag)
      if (!keys) continue
      for (const key of [...keys]) this.drop(key)
    }
  }

  /** Forget everything (the invalidation channel was down: some invalidations may be lost). */
  clear(): void {
    this.generation += 1
    this.entries.clear()
    this.keysByTag.clear()
  }

  get size(): number {
    return this.entries.size
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
