/**
 * Read caches that edits must flush (docs/compatibility.md#group-game-reading-and-joining game list, docs/compatibility.md#group-game-reading-and-joining notices). Each entry is
 * stamped with a version; invalidating bumps the version — in Redis when configured, so every
 * node drops its copy on its next read, otherwise in process. A read costs one Redis GET at most.
 * Caches are per `Services` (one per process, several in the test-suite).
 */
import type { Services } from '../../services.js'

interface Entry<T> {
  version: string
  value: T
  expiresAt: number
}

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly localVersions = new Map<string, number>()

  constructor(
    private readonly name: string,
    private readonly ttlMs: number,
  ) {}

  private versionKey(key: string): string {
    return `flagwave:cache:${this.name}:${key}`
  }

  private async version(services: Pick<Services, 'redis'>, key: string): Promise<string> {
    if (services.redis) {
      try {
        return (await services.redis.get(this.versionKey(key))) ?? '0'
      } catch {
        return `local:${this.localVersions.get(key) ?? 0}`
      }
    }
    return String(this.localVersions.get(key) ?? 0)
  }

  /** The cached value for `key`, loading it when absent, stale or invalidated. */
  async get(services: Pick<Services, 'redis'>, key: string | number, load: () => Promise<T>): Promise<T> {
    const k = String(key)
    const version = await this.version(services, k)
    const hit = this.entries.get(k)
    if (hit && hit.version === version && hit.expiresAt > Date.now()) return hit.value
    const value = await load()
    this.entries.set(k, { version, value, expiresAt: Date.now() + this.ttlMs })
    return value
  }

  /** Drop `key` on every node. Call after the change committed. */
  async invalidate(services: Pick<Services, 'redis' | 'log'>, key: string | number): Promise<void> {
    const k = String(key)
    this.entries.delete(k)
    this.localVersions.set(k, (this.localVersions.get(k) ?? 0) + 1)
    if (services.redis) {
      try {
        await services.redis.incr(this.versionKey(k))
      } catch (err) {
        services.log.warn({ err, cache: this.name, key: k }, 'cache invalidation failed')
      }
    }
  }
}

const perServices = new WeakMap<object, Map<string, VersionedCache<unknown>>>()

/** The cache `name` of this `Services` instance (created on first use). */
export function cacheOf<T>(services: object, name: string, ttlMs: number): VersionedCache<T> {
  let caches = perServices.get(services)
  if (!caches) perServices.set(services, (caches = new Map()))
  let cache = caches.get(name)
  if (!cache) caches.set(name, (cache = new VersionedCache<unknown>(name, ttlMs)))
  return cache as VersionedCache<T>
}

/** Key of the public game list cache (`GET /api/game`, docs/compatibility.md#group-game-reading-and-joining). */
const GAME_LIST_CACHE = 'gameList'
const GAME_LIST_TTL_MS = 2 * 60 * 60 * 1000

/** The public game list cache; flushed when a game is created, updated, deleted or gets a poster. */
const gameListCache = <T>(services: object) => cacheOf<T>(services, GAME_LIST_CACHE, GAME_LIST_TTL_MS)

export async function invalidateGameList(services: Pick<Services, 'redis' | 'log'>): Promise<void> {
  await gameListCache(services).invalidate(services, 'all')
}
