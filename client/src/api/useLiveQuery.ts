/**
 * `useLiveQuery(options, live)` — a query kept fresh by realtime pushes while `live` (its socket is
 * connected): the 10-second refresh pauses then, and resumes as the fallback when the socket
 * drops, which also refetches at once (pushes may have been missed) instead of waiting a period.
 *
 * Its `error` is the last failure until data arrives: the one being retried (`failureReason`) and
 * the one of the previous attempt while a refetch runs (a query without data clears its error when
 * it refetches), so a screen keeps saying why it is empty instead of flickering back to "loading".
 */
import { useEffect, useRef, useState } from 'react'
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { queryClient } from './queryClient'

export function useLiveQuery<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>, live: boolean) {
  const result = useQuery({ ...options, refetchInterval: live ? false : REFRESH_INTERVAL_MS })
  const wasLive = useRef(live)
  const { queryKey, enabled } = options
  useEffect(() => {
    if (wasLive.current && !live && enabled !== false) void queryClient.refetchQueries({ queryKey, exact: true, type: 'active' }, { cancelRefetch: false })
    wasLive.current = live
    // The key is compared by value: a new array of the same key is the same query.
  }, [live, JSON.stringify(queryKey), enabled])
  const current = result.error ?? result.failureReason
  const [lastError, setLastError] = useState<Error | null>(null)
  useEffect(() => {
    if (current) setLastError(current)
    else if (result.data !== undefined) setLastError(null)
  }, [current, result.data])
  return { ...result, error: current ?? (result.data === undefined ? lastError : null) }
}
