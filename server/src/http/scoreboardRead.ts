/**
 * How a scoreboard snapshot goes out over HTTP (docs/compatibility.md#group-game-challenges-and-flags; docs/scoring.md#snapshots-and-etag): its version as the
 * validator (`ETag` + `X-Scoreboard-Version`, `If-None-Match` → 304), gzip computed once per
 * version, and — for the snapshot this node already holds in memory — an answer ahead of the
 * session, XSRF and router middleware, since a big screen or a bot polling the board needs none
 * of them and the board is the hottest read of a running game.
 */
import type { Context, Middleware } from 'koa'
import type { ScoreboardSnapshot } from '../domain/scoreboard/snapshot.js'
import { wantsNewerForms } from './compat.js'

/** Below this size a gzipped copy is not worth it. */
const GZIP_MIN_BYTES = 2048
const SCOREBOARD_PATH = /^\/api\/game\/(\d{1,9})\/scoreboard\/?$/i

export async function sendSnapshot(ctx: Context, snapshot: ScoreboardSnapshot): Promise<void> {
  // Clients of newer GZ::CTF versions that opted in read times as milliseconds: the version's second encoding.
  const encoding = wantsNewerForms(ctx) ? snapshot.ms : snapshot
  const gzip = encoding.json.length >= GZIP_MIN_BYTES && acceptsGzip(ctx)
  const body = gzip ? (encoding.gzippedNow() ?? (await encoding.gzipped())) : encoding.json
  ctx.set(snapshot.headers)
  if (ifNoneMatch(ctx.get('If-None-Match'), snapshot.etag)) {
    ctx.status = 304
    return
  }
  ctx.status = 200
  // Set as a header, not through ctx.type: the body is a Buffer, which Koa would otherwise type as binary.
  ctx.set('Content-Type', 'application/json; charset=utf-8')
  if (gzip) {
    ctx.compress = false
    ctx.set('Content-Encoding', 'gzip')
  }
  ctx.body = body
}

/**
 * `GET /api/game/{id}/scoreboard` from the snapshot in memory, when there is one and the game has
 * started; anything else (unknown game, not started, no local copy yet) goes on to the route,
 * which loads, checks and answers the contract's errors. The global rate limit still applies, per
 * address: the session is not read here.
 */
export function scoreboardFastPath(): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    const match = SCOREBOARD_PATH.exec(ctx.path)
    const snapshot = match ? ctx.services.scoreboard.inMemory(Number(match[1])) : null
    if (!snapshot || Date.now() < snapshot.start) return next()
    if (!ctx.localCaller) await ctx.services.limits.consume('Global', `ip:${ctx.clientIp}`)
    // Of the security headers only nosniff, which concerns a JSON body, comes with the snapshot's
    // headers; the others govern documents (framing, referrers, openers, permissions) and cost a
    // fifth of this path's throughput.
    await sendSnapshot(ctx, snapshot)
  }
}

/**
 * Whether the client takes gzip, memoised per `Accept-Encoding` value: clients send a handful of
 * distinct values, and negotiating each poll anew was a measurable share of serving the board.
 */
const gzipByHeader = new Map<string, boolean>()
function acceptsGzip(ctx: Context): boolean {
  const header = ctx.get('Accept-Encoding')
  let gzip = gzipByHeader.get(header)
  if (gzip === undefined) {
    gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip'
    if (gzipByHeader.size >= 256) gzipByHeader.clear()
    gzipByHeader.set(header, gzip)
  }
  return gzip
}

/** Weak comparison of an If-None-Match list against our validator (RFC 9110 §13.1.2). */
export function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const ours = opaque(etag)
  return header.split(',').some((tag) => opaque(tag) === ours)
}
