/**
 * How a scoreboard snapshot goes out over HTTP (docs/compatibility.md#group-game-challenges-and-flags; docs/scoring.md#snapshots-and-etag): its version as the
 * validator (`ETag` + `X-Scoreboard-Version`, `If-None-Match` → 304), gzip computed once per
 * version, and — for the snapshot this node already holds in memory — an answer ahead of the
 * session, XSRF and router middleware, since a big screen or a bot polling the board needs none
 * of them and the board is the hottest read of a running game.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Context } from 'koa'
import type { ScoreboardSnapshot } from '../domain/scoreboard/snapshot.js'
import type { Services } from '../services.js'
import { isLoopback, resolveClientAddress, type ProxyTrust } from '../lib/clientAddress.js'
import { routeLabel } from '../lib/metrics.js'
import { wantsNewerForms } from './compat.js'

/** Below this size a gzipped copy is not worth it. */
const GZIP_MIN_BYTES = 2048
/** The board's path without a query string (a query may ask for another view of it). */
const SCOREBOARD_URL = /^\/api\/game\/(\d{1,9})\/scoreboard\/?$/i
/** The route table's label of the same endpoint (routes/submissions.ts), so both answers count as one route. */
const SCOREBOARD_ROUTE = routeLabel('GET', '/api/game/:id/scoreboard')

export async function sendSnapshot(ctx: Context, snapshot: ScoreboardSnapshot): Promise<void> {
  // Clients of newer GZ::CTF versions that opted in read times as milliseconds: the version's second encoding.
  const encoding = wantsNewerForms(ctx) ? snapshot.ms : snapshot
  const gzip = encoding.json.length >= GZIP_MIN_BYTES && acceptsGzip(ctx)
  const body = gzip ? (encoding.gzippedNow() ?? (await encoding.gzipped())) : encoding.json
  ctx.set(snapshot.headers)
  if (etagMatches(ctx.get('If-None-Match'), snapshot.etag)) {
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
 * `GET /api/game/{id}/scoreboard` from the snapshot in memory, answered from Node's request event
 * before Koa builds a context: a big screen or a bot polling the board needs no session, XSRF,
 * router or security headers (only nosniff, which concerns a JSON body, comes with the snapshot's
 * headers; the others govern documents), and Koa's own per-request work was half of this path's CPU
 * time (docs/scoring.md#scoreboard-fast-path). Every other case goes to Koa unchanged — no local
 * snapshot, a game not started, a query string, an `X-GZCTF-Compat` opt-in, an `Accept-Encoding`
 * value not seen yet (Koa's negotiation learns it) — and so does a caller whom the global rate
 * limit refuses, to get the contract's 429. The limit still applies here, per address: the session
 * is not read. A gzipped copy not ready yet is waited for here (it is being computed once, off the
 * event loop): when a large board's new version is announced, every watcher reads it at once
 * (docs/realtime.md#scoreboard-versions-and-gap-repair), and a thousand of them going through Koa
 * meanwhile cost the node more than the wait.
 */
export function scoreboardReads(services: Services, trust: ProxyTrust, next: RequestListener): RequestListener {
  return (req, res) => {
    const snapshot = boardOf(services, req)
    if (!snapshot) return next(req, res)
    const gzip = snapshot.json.length >= GZIP_MIN_BYTES ? gzipByHeader.get(req.headers['accept-encoding'] ?? '') : false
    if (gzip === undefined) return next(req, res)
    const started = performance.now()
    const write = () => services.metrics.request(SCOREBOARD_ROUTE, (performance.now() - started) / 1000, answer(req, res, snapshot, gzip))
    const respond = () => (!gzip || snapshot.gzippedNow() ? write() : void snapshot.gzipped().then(write, () => next(req, res)))
    const address = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trust)
    if (!services.limits.enabled || (!address.forwarded && isLoopback(address.peer))) return respond()
    services.limits.consume('Global', `ip:${address.ip}`).then(respond, () => next(req, res))
  }
}

function boardOf(services: Services, req: IncomingMessage): ScoreboardSnapshot | null {
  // A client opting in to GZ::CTF's newer forms (http/compat.ts) is answered by the route.
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url || req.headers['x-gzctf-compat'] !== undefined) return null
  const match = SCOREBOARD_URL.exec(req.url)
  const snapshot = match ? services.scoreboard.inMemory(Number(match[1])) : null
  return snapshot && Date.now() >= snapshot.start ? snapshot : null
}

/** Writes the answer; returns its status (for the request metrics). */
function answer(req: IncomingMessage, res: ServerResponse, snapshot: ScoreboardSnapshot, gzip: boolean): number {
  if (etagMatches(req.headers['if-none-match'] ?? '', snapshot.etag)) {
    res.writeHead(304, snapshot.rawHeaders('notModified'))
    res.end()
    return 304
  }
  res.writeHead(200, snapshot.rawHeaders(gzip ? 'gzip' : 'json'))
  res.end(req.method === 'HEAD' ? undefined : gzip ? snapshot.gzippedNow() : snapshot.jsonBuffer)
  return 200
}

/**
 * Whether the client takes gzip, memoised per `Accept-Encoding` value: clients send a handful of
 * distinct values, and negotiating each poll anew was a measurable share of serving the board.
 */
const gzipByHeader = new Map<string, boolean>()

/** Whether an `Accept-Encoding` value takes gzip; undefined until Koa's negotiation has seen it (`acceptsGzip`). */
export const gzipWanted = (header: string): boolean | undefined => gzipByHeader.get(header)

export function acceptsGzip(ctx: Context): boolean {
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
export function etagMatches(header: string, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const ours = opaque(etag)
  return header.split(',').some((tag) => opaque(tag) === ours)
}
