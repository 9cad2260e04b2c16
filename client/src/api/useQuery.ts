/**
 * `useQuery(key, fetcher, options)` — the data hook of the SPA (SPEC §9, DESIGN §5).
 *
 * - Data lives in the zustand cache (./cache.ts), shared by every component using the same key,
 *   persisted compressed across reloads.
 * - Refreshes every 10 s by default (`refreshInterval`, 0 disables) while the tab is visible,
 *   and revalidates on mount, on window focus and when the network comes back.
 * - `live: true` means a realtime subscription keeps the data fresh: interval polling pauses
 *   and resumes automatically when the socket drops (the REST refresh stays the fallback).
 * - Transient failures (network, timeout, 5xx) are retried with exponential back-off; client
 *   errors (4xx) are not. `retry: false` disables retries (the global config does that).
 * - `key === null` disables the query (e.g. until a route parameter is known).
 */
import { useCallback, useEffect, useRef } from 'react'
import { REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { fetchQuery, registerRevalidator, setCachedData, useCacheStore } from './cache'
import { ApiError } from './http'

export interface QueryOptions<T> {
  /** Polling period in ms; default 10 000 (SPEC §9); 0 disables. */
  refreshInterval?: number
  /** True while realtime pushes keep this data fresh: polling pauses. */
  live?: boolean
  revalidateOnMount?: boolean
  revalidateOnFocus?: boolean
  revalidateOnReconnect?: boolean
  /** Retries of transient errors: false, or a count (default 3). */
  retry?: boolean | number
  /** Skip a revalidation when the data is younger than this (ms, default 2000). */
  dedupeMs?: number
  onSuccess?: (data: T) => void
  onError?: (error: Error) => void
}

export interface QueryResult<T> {
  data: T | undefined
  error: Error | undefined
  /** No data yet and a request is running. */
  isLoading: boolean
  isValidating: boolean
  /** Refetch now (ignores deduplication). */
  revalidate: () => Promise<T | undefined>
  /** Replace the cached data locally (optimistic update or realtime push), or refetch without argument. */
  mutate: (data?: T | ((current: T | undefined) => T)) => Promise<T | undefined>
}

const FOCUS_THROTTLE_MS = 5_000
const DEFAULT_RETRIES = 3

const isTransient = (error: unknown): boolean =>
  !(error instanceof ApiError) || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'badResponse'

export function useQuery<T>(key: string | null, fetcher: () => Promise<T>, options: QueryOptions<T> = {}): QueryResult<T> {
  const entry = useCacheStore((state) => (key === null ? undefined : state.entries[key]))
  const fetcherRef = useRef(fetcher)
  const optionsRef = useRef(options)
  fetcherRef.current = fetcher
  optionsRef.current = options

  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const attempts = useRef(0)
  const mounted = useRef(true)

  const run = useCallback(
    async (force: boolean): Promise<T | undefined> => {
      if (key === null) return undefined
      const current = useCacheStore.getState().entries[key]
      const dedupeMs = optionsRef.current.dedupeMs ?? 2_000
      if (!force && current && !current.error && current.updatedAt > 0 && Date.now() - current.updatedAt < dedupeMs) {
        return current.data as T
      }
      clearTimeout(retryTimer.current)
      try {
        const data = await fetchQuery(key, () => fetcherRef.current())
        attempts.current = 0
        if (mounted.current) optionsRef.current.onSuccess?.(data)
        return data
      } catch (error) {
        if (!mounted.current) return undefined
        optionsRef.current.onError?.(error as Error)
        const retry = optionsRef.current.retry ?? DEFAULT_RETRIES
        const maxRetries = retry === true ? DEFAULT_RETRIES : retry === false ? 0 : retry
        if (isTransient(error) && attempts.current < maxRetries) {
          const delay = Math.min(30_000, 1_000 * 2 ** attempts.current) * (0.75 + Math.random() / 2)
          attempts.current += 1
          retryTimer.current = setTimeout(() => void run(true), delay)
        }
        return undefined
      }
    },
    [key],
  )

  // Mount / key change, and registration for realtime resyncs.
  useEffect(() => {
    mounted.current = true
    attempts.current = 0
    if (key === null) return
    if (optionsRef.current.revalidateOnMount ?? true) void run(false)
    const unregister = registerRevalidator(key, () => void run(true))
    return () => {
      mounted.current = false
      clearTimeout(retryTimer.current)
      unregister()
    }
  }, [key, run])

  // Interval refresh while visible and not live.
  const interval = options.refreshInterval ?? REFRESH_INTERVAL_MS
  const live = options.live ?? false
  useEffect(() => {
    if (key === null || interval <= 0 || live) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && navigator.onLine !== false) void run(true)
    }, interval)
    return () => clearInterval(timer)
  }, [key, interval, live, run])

  // When a live subscription drops, catch up at once instead of waiting for the next tick.
  const wasLive = useRef(live)
  useEffect(() => {
    if (wasLive.current && !live) void run(true)
    wasLive.current = live
  }, [live, run])

  // Focus and reconnect.
  useEffect(() => {
    if (key === null) return
    let lastFocus = 0
    const onFocus = () => {
      if (!(optionsRef.current.revalidateOnFocus ?? true) || document.visibilityState !== 'visible') return
      const now = Date.now()
      if (now - lastFocus < FOCUS_THROTTLE_MS) return
      lastFocus = now
      void run(false)
    }
    const onOnline = () => {
      if (optionsRef.current.revalidateOnReconnect ?? true) void run(true)
    }
    window.addEventListener('focus', onFocus)
    document.addEventListener('visibilitychange', onFocus)
    window.addEventListener('online', onOnline)
    return () => {
      window.removeEventListener('focus', onFocus)
      document.removeEventListener('visibilitychange', onFocus)
      window.removeEventListener('online', onOnline)
    }
  }, [key, run])

  const mutate = useCallback(
    async (data?: T | ((current: T | undefined) => T)) => {
      if (key === null) return undefined
      if (data === undefined) return run(true)
      setCachedData<T>(key, data)
      return useCacheStore.getState().entries[key]?.data as T
    },
    [key, run],
  )
  const revalidate = useCallback(() => run(true), [run])

  const data = entry?.data as T | undefined
  return {
    data,
    error: entry?.error,
    isLoading: key !== null && data === undefined && !entry?.error && (entry?.validating ?? true),
    isValidating: entry?.validating ?? false,
    revalidate,
    mutate,
  }
}
