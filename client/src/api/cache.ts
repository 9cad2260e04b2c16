/**
 * The response cache behind `useQuery` (SPEC §9): a zustand store keyed by request key (usually
 * the URL path). Successful responses are kept in memory, compressed with lz-string and saved to
 * localStorage when the page unloads (pagehide / beforeunload), and restored at start so the
 * previous view renders at once while it is revalidated. Errors are never persisted.
 */
import { create } from 'zustand'
import { compressToUTF16, decompressFromUTF16 } from 'lz-string'
import type { ApiError } from './http'

export interface CacheEntry {
  data?: unknown
  error?: ApiError | Error
  /** When `data` was last received (ms since epoch); 0 when never. */
  updatedAt: number
  /** A request for this key is in flight. */
  validating: boolean
}

interface CacheState {
  entries: Record<string, CacheEntry>
}

export const CACHE_STORAGE_KEY = 'flagwave-cache-v1'
/** Keys kept when the session changes (public data). */
const PUBLIC_KEYS = new Set(['/api/config', '/api/captcha'])
/** localStorage quotas are ~5 MB of UTF-16; stay well below. */
const MAX_PERSISTED_CHARS = 1_500_000

function restore(): Record<string, CacheEntry> {
  try {
    const raw = localStorage.getItem(CACHE_STORAGE_KEY)
    if (!raw) return {}
    const json = decompressFromUTF16(raw)
    if (!json) return {}
    const saved = JSON.parse(json) as Record<string, { data: unknown; updatedAt: number }>
    const entries: Record<string, CacheEntry> = {}
    for (const [key, value] of Object.entries(saved)) {
      entries[key] = { data: value.data, updatedAt: value.updatedAt, validating: false }
    }
    return entries
  } catch {
    return {}
  }
}

export const useCacheStore = create<CacheState>(() => ({ entries: restore() }))

/** Save the cached data, compressed, to localStorage. Called on page unload. */
export function persistCache(): void {
  try {
    const saved: Record<string, { data: unknown; updatedAt: number }> = {}
    for (const [key, entry] of Object.entries(useCacheStore.getState().entries)) {
      if (entry.data !== undefined && entry.updatedAt > 0) saved[key] = { data: entry.data, updatedAt: entry.updatedAt }
    }
    const compressed = compressToUTF16(JSON.stringify(saved))
    if (compressed.length > MAX_PERSISTED_CHARS) localStorage.removeItem(CACHE_STORAGE_KEY)
    else localStorage.setItem(CACHE_STORAGE_KEY, compressed)
  } catch {
    // Quota exceeded or storage disabled: the cache is an optimisation only.
  }
}

let persistenceInstalled = false
/** Register the unload handlers once. */
export function installCachePersistence(): void {
  if (persistenceInstalled || typeof window === 'undefined') return
  persistenceInstalled = true
  window.addEventListener('pagehide', persistCache)
  window.addEventListener('beforeunload', persistCache)
}

function patch(key: string, change: Partial<CacheEntry>): void {
  useCacheStore.setState((state) => {
    const base: CacheEntry = state.entries[key] ?? { updatedAt: 0, validating: false }
    return { entries: { ...state.entries, [key]: { ...base, ...change } } }
  })
}

export function getCachedData<T>(key: string): T | undefined {
  return useCacheStore.getState().entries[key]?.data as T | undefined
}

/** Replace the data of a key (e.g. from a realtime push), clearing its error. */
export function setCachedData<T>(key: string, data: T | ((current: T | undefined) => T)): void {
  const current = getCachedData<T>(key)
  const next = typeof data === 'function' ? (data as (current: T | undefined) => T)(current) : data
  patch(key, { data: next, error: undefined, updatedAt: Date.now() })
}

/** Drop cached keys; without a predicate, everything except public data (used on login/logout). */
export function clearCache(predicate: (key: string) => boolean = (key) => !PUBLIC_KEYS.has(key)): void {
  useCacheStore.setState((state) => ({
    entries: Object.fromEntries(Object.entries(state.entries).filter(([key]) => !predicate(key))),
  }))
}

const inflight = new Map<string, Promise<unknown>>()

/**
 * Fetch a key through the cache. Concurrent calls for one key share one request. On success the
 * data is stored; on failure the error is stored next to the previous (stale) data and rethrown.
 */
export function fetchQuery<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
  const running = inflight.get(key)
  if (running) return running as Promise<T>
  patch(key, { validating: true })
  const promise = (async () => {
    try {
      const data = await fetcher()
      patch(key, { data, error: undefined, updatedAt: Date.now(), validating: false })
      return data
    } catch (error) {
      patch(key, { error: error as Error, validating: false })
      throw error
    } finally {
      inflight.delete(key)
    }
  })()
  inflight.set(key, promise)
  return promise
}

/* ---- revalidation registry: mounted queries register here so that a realtime resync can
 *      refresh everything that is on screen ---- */

const revalidators = new Map<string, Set<() => void>>()

export function registerRevalidator(key: string, revalidate: () => void): () => void {
  let set = revalidators.get(key)
  if (!set) revalidators.set(key, (set = new Set()))
  set.add(revalidate)
  return () => {
    set.delete(revalidate)
    if (set.size === 0) revalidators.delete(key)
  }
}

/** Revalidate mounted queries (all, or those whose key matches). */
export function revalidateQueries(predicate: (key: string) => boolean = () => true): void {
  for (const [key, set] of revalidators) {
    if (!predicate(key)) continue
    const first = set.values().next().value
    first?.()
  }
}
