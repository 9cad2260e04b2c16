/**
 * `useLiveFeed({ queryKey, fetchPage, keyOf, timeOf, accepts, live })` — a newest-first list that grows
 * from realtime pushes over a paged REST history (monitor events and submissions, admin logs).
 *
 * - The first page is a query under `queryKey` (its path with the server-side filters): it loads
 *   from the cache at once, refreshes every 10 s while the socket is down (`live: false`), on
 *   focus and after every reconnection (the page calls `revalidate()` from `onResync`).
 * - `push(item)` adds a pushed row. Rows carry no id on the wire, so they are matched by a
 *   content key (`keyOf`, without mutable members such as a submission's status): a known row is
 *   updated in place, a new one is prepended with `arrivedAt` set (the table highlights it).
 *   Items the server-side filter would not return (`accepts`) are dropped, or removed when known.
 * - Paused: new rows (pushed or found by a refresh) wait in a buffer whose size is shown;
 *   `resume()` puts them on top.
 * - `loadMore()` fetches the next page back in history (`count`/`skip`, where `skip` counts every
 *   row known so far, pushed ones included, since they are the newest rows of the same query).
 * - The rows must stay one contiguous run from the newest row down, or `skip` would leave holes.
 *   So a first page restored from the persisted cache is only a placeholder that the first network
 *   answer replaces, and a refreshed first page that shares no row with the table while being full
 *   (more than a page happened while the socket was down) replaces the table too.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { hashKey, skipToken, type QueryKey } from '@tanstack/react-query'
import { useLiveQuery } from '../../api/useLiveQuery'

export interface LiveRow<T> {
  key: string
  item: T
  /** When the row arrived live (ms); 0 for rows of the initial load or of history pages. */
  arrivedAt: number
}

export interface LiveFeedOptions<T> {
  /** Query key of the first page, including the server-side filters; null disables the feed. */
  queryKey: QueryKey | null
  fetchPage: (count: number, skip: number) => Promise<T[]>
  /** Identity of a row (stable across a status change). */
  keyOf: (item: T) => string
  /** Ordering value, newest first (ms). */
  timeOf: (item: T) => number
  /** Whether the server-side filter of `key` would return this item (default: yes). */
  accepts?: (item: T) => boolean
  /** The realtime subscription is up: interval polling pauses. */
  live: boolean
  pageSize?: number
}

export interface LiveFeed<T> {
  rows: LiveRow<T>[]
  /** Rows received while paused. */
  buffered: number
  paused: boolean
  pause: () => void
  resume: () => void
  setPaused: (paused: boolean) => void
  push: (item: T) => void
  loadMore: () => Promise<void>
  hasMore: boolean
  loadingMore: boolean
  /** First page loading with nothing to show yet. */
  isLoading: boolean
  /** Error of the first page (the server's title), if any. */
  error: Error | undefined
  /** History paging error. */
  moreError: Error | undefined
  revalidate: () => Promise<unknown>
}

interface FeedState<T> {
  key: string | null
  rows: LiveRow<T>[]
  buffer: LiveRow<T>[]
  loaded: boolean
  /** The rows came from the persisted cache, not from this visit's network answers. */
  placeholder: boolean
  /** While paused the table lost contact with the head: resume replaces the rows by the buffer. */
  replaceOnResume: boolean
  hasMore: boolean
}

const empty = <T>(key: string | null): FeedState<T> => ({ key, rows: [], buffer: [], loaded: false, placeholder: false, replaceOnResume: false, hasMore: true })

export const DEFAULT_PAGE_SIZE = 50

export function useLiveFeed<T>(options: LiveFeedOptions<T>): LiveFeed<T> {
  const { queryKey, live } = options
  const key = queryKey === null ? null : hashKey(queryKey)
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE
  const optionsRef = useRef(options)
  optionsRef.current = options

  const [state, setState] = useState<FeedState<T>>(() => empty<T>(key))
  const [paused, setPausedState] = useState(false)
  const pausedRef = useRef(paused)
  pausedRef.current = paused
  const [loadingMore, setLoadingMore] = useState(false)
  const [moreError, setMoreError] = useState<Error | undefined>(undefined)

  const sort = useCallback((rows: LiveRow<T>[]): LiveRow<T>[] => {
    const timeOf = optionsRef.current.timeOf
    return rows
      .map((row, index) => ({ row, index, time: timeOf(row.item) }))
      .sort((a, b) => b.time - a.time || a.index - b.index)
      .map((entry) => entry.row)
  }, [])

  /**
   * Merge items into the state. `mode`: `head` (first page or a push: new rows are live, unless it
   * is the initial load), `history` (an older page: appended as they are).
   */
  const merge = useCallback(
    (current: FeedState<T>, items: T[], mode: 'head' | 'history', forKey: string | null): FeedState<T> => {
      if (current.key !== forKey) return current
      const { keyOf, accepts } = optionsRef.current
      const now = Date.now()
      let rows = current.rows
      let buffer = current.buffer
      const fresh: LiveRow<T>[] = []
      let changed = false
      const index = new Map<string, 'rows' | 'buffer'>()
      for (const row of rows) index.set(row.key, 'rows')
      for (const row of buffer) index.set(row.key, 'buffer')
      for (const item of items) {
        const rowKey = keyOf(item)
        const where = index.get(rowKey)
        const ok = accepts ? accepts(item) : true
        if (where) {
          const list = where === 'rows' ? rows : buffer
          const at = list.findIndex((row) => row.key === rowKey)
          const existing = list[at]!
          let next: LiveRow<T>[]
          if (!ok) next = [...list.slice(0, at), ...list.slice(at + 1)]
          else if (JSON.stringify(existing.item) !== JSON.stringify(item)) next = list.map((row, i) => (i === at ? { ...row, item } : row))
          else continue
          if (where === 'rows') rows = next
          else buffer = next
          changed = true
          continue
        }
        if (!ok) continue
        index.set(rowKey, 'rows')
        const live = mode === 'head' && current.loaded
        fresh.push({ key: rowKey, item, arrivedAt: live ? now : 0 })
      }
      if (fresh.length === 0 && !changed && (mode === 'history' || current.loaded)) return current
      if (fresh.length > 0) {
        const live = mode === 'head' && current.loaded
        if (live && pausedRef.current) buffer = [...fresh, ...buffer]
        else rows = [...rows, ...fresh]
      }
      return { ...current, rows: sort(rows), buffer: sort(buffer), loaded: current.loaded || mode === 'head' }
    },
    [sort],
  )

  // A new key (other server-side filters): start over.
  const keyRef = useRef(key)
  useEffect(() => {
    keyRef.current = key
    setState((current) => (current.key === key ? current : empty<T>(key)))
    setMoreError(undefined)
  }, [key])

  // When the current key became active: cached answers older than that are placeholders.
  const keyStart = useRef<{ key: string | null; at: number }>({ key, at: Date.now() })
  if (keyStart.current.key !== key) keyStart.current = { key, at: Date.now() }

  const query = useLiveQuery<T[], QueryKey>(
    { queryKey: queryKey ?? ['live-feed-disabled'], queryFn: queryKey === null ? skipToken : () => optionsRef.current.fetchPage(pageSize, 0) },
    live,
  )
  const updatedAt = query.dataUpdatedAt
  const { refetch } = query
  const revalidate = useCallback(() => (key === null ? Promise.resolve() : refetch()), [key, refetch])

  useEffect(() => {
    if (!query.data) return
    const data = query.data
    const network = updatedAt >= keyStart.current.at
    const { keyOf } = optionsRef.current
    setState((current) => {
      const base = current.key === key ? current : empty<T>(key)
      const full = data.length >= pageSize
      if (!network) {
        // A cached first page: show it until the network answers.
        if (base.loaded) return base === current ? current : base
        return { ...merge(base, data, 'head', key), placeholder: true, hasMore: full }
      }
      if (!base.loaded || base.placeholder) {
        // The first network answer of this visit: it replaces the placeholder (rows pushed meanwhile stay).
        const loaded = merge(empty<T>(key), data, 'head', key)
        const have = new Set(loaded.rows.map((row) => row.key))
        const pushed = base.rows.filter((row) => row.arrivedAt > 0 && !have.has(row.key))
        const buffer = base.buffer.filter((row) => !have.has(row.key))
        return { ...loaded, rows: sort([...pushed, ...loaded.rows]), buffer, loaded: true, placeholder: false, hasMore: full }
      }
      const known = new Set([...base.rows, ...base.buffer].map((row) => row.key))
      if (full && base.rows.length > 0 && !data.some((item) => known.has(keyOf(item)))) {
        // More than a page arrived unseen: start over from this page.
        const now = Date.now()
        const rows = sort(data.map((item) => ({ key: keyOf(item), item, arrivedAt: now })))
        return pausedRef.current ? { ...base, buffer: rows, replaceOnResume: true, hasMore: true } : { ...base, rows, buffer: [], hasMore: true }
      }
      return merge(base, data, 'head', key)
    })
  }, [query.data, updatedAt, key, merge, pageSize, sort])

  const push = useCallback(
    (item: T) => {
      const forKey = keyRef.current
      setState((current) => merge(current, [item], 'head', forKey))
    },
    [merge],
  )

  const stateRef = useRef(state)
  stateRef.current = state

  const loadMore = useCallback(async () => {
    const forKey = keyRef.current
    const current = stateRef.current
    if (forKey === null || current.key !== forKey) return
    setLoadingMore(true)
    setMoreError(undefined)
    try {
      const skip = current.rows.length + current.buffer.length
      const items = await optionsRef.current.fetchPage(pageSize, skip)
      setState((latest) => {
        const next = merge(latest, items, 'history', forKey)
        return next.key === forKey ? { ...next, hasMore: items.length >= pageSize } : next
      })
    } catch (error) {
      setMoreError(error as Error)
    } finally {
      setLoadingMore(false)
    }
  }, [merge, pageSize])

  const resume = useCallback(() => {
    setPausedState(false)
    pausedRef.current = false
    const now = Date.now()
    setState((current) => {
      if (current.buffer.length === 0) return current
      const buffered = current.buffer.map((row) => ({ ...row, arrivedAt: now }))
      return { ...current, rows: sort(current.replaceOnResume ? buffered : [...buffered, ...current.rows]), buffer: [], replaceOnResume: false }
    })
  }, [sort])
  const pause = useCallback(() => {
    setPausedState(true)
    pausedRef.current = true
  }, [])
  const setPaused = useCallback((value: boolean) => (value ? pause() : resume()), [pause, resume])

  const visible = state.key === key ? state : empty<T>(key)
  return {
    rows: visible.rows,
    buffered: visible.buffer.length,
    paused,
    pause,
    resume,
    setPaused,
    push,
    loadMore,
    hasMore: visible.hasMore,
    loadingMore,
    isLoading: query.isLoading && visible.rows.length === 0,
    error: query.error ?? undefined,
    moreError,
    revalidate,
  }
}

/** Milliseconds of a wire date (REST `+00:00` and pushed local offsets compare equal). */
export const timeMs = (value: string): number => {
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? 0 : ms
}
