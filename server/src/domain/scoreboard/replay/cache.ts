/**
 * Each node keeps the replay timelines of the games replayed lately (docs/scoring.md#replay): the
 * history read once, with its cursors, so seeks fold in only the solves since a cursor. A timeline
 * is re-read after a short while (new solves of a running game, reviews) and at once after an edit
 * on this node (`forgetReplay`, called with the scoreboard rebuild request).
 */
import { nativePool } from '../../../db/pg.js'
import type { Services } from '../../../services.js'
import { loadReplayData } from './data.js'
import { ReplayTimeline } from './timeline.js'

/** How long a timeline is trusted: a running game's history grows, an ended one's hardly moves. */
const RUNNING_TTL_MS = 2_000
const ENDED_TTL_MS = 30_000
/** Games kept per node: each timeline holds up to four board states (about 9 MB each on the large benchmark set). */
const MAX_GAMES = 2

interface Entry {
  timeline: Promise<ReplayTimeline | null>
  expires: number
}

const caches = new WeakMap<object, Map<number, Entry>>()

function cacheOf(services: Pick<Services, 'orm'>): Map<number, Entry> {
  let cache = caches.get(services.orm)
  if (!cache) caches.set(services.orm, (cache = new Map()))
  return cache
}

/** The game's timeline (null: no such game). */
export async function replayTimeline(services: Pick<Services, 'orm'>, gameId: number, now = Date.now()): Promise<ReplayTimeline | null> {
  const cache = cacheOf(services)
  const hit = cache.get(gameId)
  if (hit && hit.expires > now) {
    // Most recently used last.
    cache.delete(gameId)
    cache.set(gameId, hit)
    return hit.timeline
  }
  const entry: Entry = {
    expires: now + RUNNING_TTL_MS,
    timeline: nativePool(services.orm).then(async (pool) => {
      const data = await loadReplayData(pool, gameId)
      if (data && data.game.end < now) entry.expires = now + ENDED_TTL_MS
      return data ? new ReplayTimeline(data) : null
    }),
  }
  entry.timeline.catch(() => cache.delete(gameId))
  cache.delete(gameId)
  cache.set(gameId, entry)
  while (cache.size > MAX_GAMES) cache.delete(cache.keys().next().value!)
  return entry.timeline
}

/** Drop this node's timeline of a game whose history or settings changed. */
export function forgetReplay(services: Pick<Services, 'orm'>, gameId: number): void {
  cacheOf(services).delete(gameId)
}
