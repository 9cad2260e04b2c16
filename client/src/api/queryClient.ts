/**
 * The one home of server data: a TanStack Query client. Every REST read is a query under a key of
 * ./queryKeys.ts; realtime pushes write into the same entries (`setQueryData`), so a screen never
 * holds a second copy.
 *
 * Defaults keep the behaviour of the client's former home-made cache:
 * - data younger than 2 s is not refetched on mount (several components mounting at once share
 *   one request);
 * - every query refreshes every 10 s while the tab is visible (a live query turns that off while
 *   its socket is up, see ./useLiveQuery.ts), on window focus and when the network comes back;
 * - transient failures (network, timeout, bad response, 5xx) are retried three times with
 *   exponential back-off and jitter; client errors (4xx) are not.
 *
 * Persistence: successful answers are saved, compressed with lz-string, to localStorage when the
 * page unloads and restored before the first render, so a reload shows the previous view (and the
 * signed-in profile) at once while it is revalidated. Saving only on unload — not after every
 * change as TanStack's persist plugin does (throttled to once a second) — keeps the compression
 * of a large scoreboard off the path of every realtime push.
 */
import { dehydrate, hydrate, QueryClient, type DehydratedState, type QueryKey } from '@tanstack/react-query'
import { compressToUTF16, decompressFromUTF16 } from 'lz-string'
import { REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { ApiError } from './http'
import { isPublicKey, queryKeys } from './queryKeys'

const MAX_RETRIES = 3

const isTransient = (error: unknown): boolean =>
  !(error instanceof ApiError) || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'badResponse'

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 2_000,
      refetchInterval: REFRESH_INTERVAL_MS,
      retry: (failures, error) => isTransient(error) && failures < MAX_RETRIES,
      retryDelay: (attempt) => Math.min(30_000, 1_000 * 2 ** attempt) * (0.75 + Math.random() / 2),
    },
  },
})

/* ---- persistence across reloads ---- */

const CACHE_STORAGE_KEY = 'flagwave-cache-v1'
/** localStorage quotas are ~5 MB of UTF-16; stay well below. */
const MAX_PERSISTED_CHARS = 1_500_000

function restore(): void {
  try {
    const raw = localStorage.getItem(CACHE_STORAGE_KEY)
    const json = raw ? decompressFromUTF16(raw) : null
    if (json) hydrate(queryClient, JSON.parse(json) as DehydratedState)
  } catch {
    // Unreadable or from an older format: start empty.
  }
}

/** Save the successful answers, compressed, to localStorage (errors are never persisted). */
function persistCache(): void {
  try {
    const state = dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status === 'success' && query.state.data !== undefined })
    const compressed = compressToUTF16(JSON.stringify(state))
    if (compressed.length > MAX_PERSISTED_CHARS) localStorage.removeItem(CACHE_STORAGE_KEY)
    else localStorage.setItem(CACHE_STORAGE_KEY, compressed)
  } catch {
    // Quota exceeded or storage disabled: persistence is an optimisation only.
  }
}

if (typeof window !== 'undefined') {
  restore()
  window.addEventListener('pagehide', persistCache)
  window.addEventListener('beforeunload', persistCache)
}

/* ---- cache bookkeeping shared by the session and the edit screens ---- */

/**
 * The identity changed (login, logout, 401): forget the private answers. The profile is dropped
 * (the session refetches it itself); other private queries on screen start over for the new identity.
 */
export function clearPrivateData(): void {
  queryClient.removeQueries({ queryKey: queryKeys.profile, exact: true })
  void queryClient.resetQueries({ predicate: (query) => !isPublicKey(query.queryKey) })
}

/**
 * Refetch a query if it is on screen (mark it stale otherwise). A request already running is
 * joined, not cancelled: pushes and reconnections can ask faster than a request answers.
 */
export const refetchIfShown = (queryKey: QueryKey, exact = true): Promise<void> => queryClient.invalidateQueries({ queryKey, exact }, { cancelRefetch: false })
