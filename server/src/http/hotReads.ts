/**
 * The reads a player's screens repeat (docs/performance.md#hot-reads): the route's own answer,
 * kept in the read cache and sent again from Node's request event, ahead of Koa, while nothing it
 * was built from has changed.
 *
 * - The answer is the route's: `captureHotReads` (just before the router) keeps the body and headers
 *   the route produced for a 200, so the presenters stay the one source of every shape. The key
 *   names the variant: path, query string and `X-GZCTF-Compat`.
 * - What it was built from is named by its tags (cache/invalidation.ts): a committed write on any
 *   node drops it. Answers cut from the scoreboard also carry the board version as a stamp.
 * - Every rule is checked on every request, from the cached rows, before an answer is sent: the
 *   session (usable as it stands, sessions.ts), the route's role and the two-factor enrolment, the
 *   game's context gate (domain/play/gate.ts). When a rule refuses, or a row is not cached, or
 *   anything else is unusual (a bearer token, no XSRF cookie yet, a session to renew), the request
 *   goes to Koa unchanged, which gives the contract's answer and warms the cache.
 * - `ETag` + `If-None-Match` → 304, on both paths.
 */
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Context, Middleware } from 'koa'
import { roleRank, type AnswerResult, type Role } from '@flagwave/shared/enums'
import type { Services } from '../services.js'
import { tags } from '../cache/invalidation.js'
import { touchCachedSession, usableCachedSession, visitDue, type CachedSession } from '../domain/accounts/sessions.js'
import { mustEnrol } from '../domain/accounts/twoFactor.js'
import { gateRefusal, peekGame, peekRegistration, referenceId } from '../domain/play/gate.js'
import { noticeViewKey, noticeViewOf } from '../domain/notices/visibility.js'
import { boardFreeze } from '../domain/games/freeze.js'
import { boardChallengeScore } from '../domain/scoreboard/freezeView.js'
import { gameRules, gameRulesLoading, peekGameRules } from '../domain/challenges/prerequisites.js'
import { presentGameDetail } from '../presenters/play.js'
import type { Participation } from '../entities/Participation.js'
import { isLoopback, resolveClientAddress, type ProxyTrust } from '../lib/clientAddress.js'
import { routeLabel, type RouteLabel } from '../lib/metrics.js'
import { acceptsGzip, etagMatches, gzipWanted } from './scoreboardRead.js'
import { xsrfSetCookie } from './xsrf.js'
import { cookiesOf, isSecure } from './rawRequest.js'

const COMPAT_HEADER = 'x-gzctf-compat'
const GZIP_MIN_BYTES = 2048
const USER_RANK = roleRank('User')
/** A submission's status until a checker judges it. */
const PENDING_STATUS: AnswerResult = 'FlagSubmitted'

/** Who asks, as far as the rules need to know. */
interface Caller {
  id: string
  role: Role
  twoFactorSecret?: string | null
}

/** What an answer is keyed by and built from; `stamp` must also match (a board version). */
interface Entry {
  key: string
  tags: string[]
  stamp?: number
}

interface HotRead {
  label: RouteLabel
  pattern: RegExp
  /** The route's minimum role (the route table's); `enrolment` as there. */
  role?: 'User'
  enrolment?: true
  /**
   * The query strings kept apart (with their `?`), e.g. a page of notices; any other query goes to
   * the route every time. Bounded, so that made-up queries cannot fill the cache and push out sessions.
   */
  query?: RegExp
  /** The entry for this caller when every rule of the route lets them read it now; null: ask the route. */
  entry(match: RegExpExecArray, caller: Caller | null, services: Services, now: number): Entry | null
  /**
   * Whether an answer may be kept; absent: always. For answers that change without a write that
   * names a tag (a submission's status, settled by the checkers in raw SQL), only the final ones.
   */
  keep?: (body: string) => boolean
  /**
   * The route's body built here, from the rows the read cache holds and the board in memory, with
   * the route's own presenter, when none is kept for the entry (a new board version, an opening's
   * invalidation); null: ask the route. Only for the plain variant (no query, no compat opt-in),
   * once the route answered someone (its headers are the answer's, `routeHeadersOf`).
   */
  build?: (entry: Entry, match: RegExpExecArray, caller: Caller, services: Services) => string | null
  /**
   * What `build` needs that the read cache may not hold now and every caller shares (loaded once
   * for a herd, `ReadCache.read`): null when it is there, or when this request starts its load and
   * goes to the route; else the load running now, after which the request is answered anew.
   */
  warm?: (match: RegExpExecArray, services: Services) => Promise<unknown> | null
}

// A division edit changes what a game's answers list (its divisions, what a division may see).
const gameTags = (gameId: number) => [tags.game(gameId), tags.gameDivisions(gameId)]

/** The context gate of a player route, on the cached rows: the caller's participation and team, or null. */
function passedGate(services: Services, gameId: number, caller: Caller, refuseEnded: boolean, now: number) {
  const game = peekGame(services.readCache, gameId)
  const registration = peekRegistration(services.readCache, gameId, caller.id)
  if (!game || !registration) return null
  if (gateRefusal(game, registration.participation as { status: string }, refuseEnded, now)) return null
  return { participationId: registration.participation.id as number, teamId: registration.team.id as number }
}

/** 1 while the game's board is frozen, else 0 (domain/games/freeze.ts), from the cached game row. */
function frozenStamp(game: { freezeTime?: unknown; unfrozenAt?: unknown }, now: number): number {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date))
  return boardFreeze({ freezeTime: date(game.freezeTime), unfrozenAt: date(game.unfrozenAt) }, now) ? 1 : 0
}

/**
 * `GET /api/game/{id}/details` as its route answers it (routes/game.ts: `presentGameDetail` over
 * the gate's rows, the public board, the game's rules), from what the read cache and the board in
 * memory hold once the entry passed every rule. Every version of the board (each solve) and an
 * opening (its invalidation) leave no kept answer, and a thousand players then read their team's
 * board at once: built here, one costs the presenter's splice of the version's shared parts, where
 * the route cost Koa, a fork and the merge of six entities per team and version. Not while frozen
 * (the team's own solves since the freeze come from the live board: the route's), nor for a team
 * without a row on the board yet.
 */
function buildDetails(gameId: number, entry: Entry, caller: Caller, services: Services): string | null {
  const cache = services.readCache
  const game = peekGame(cache, gameId)
  const registration = peekRegistration(cache, gameId, caller.id)
  const rules = peekGameRules(cache, gameId)
  const snapshot = services.scoreboard.inMemory(gameId)
  if (!game || !registration || !rules || !snapshot || snapshot.model.frozen || snapshot.version !== entry.stamp) return null
  const team = registration.team as { id: number; name: string; avatarHash: string | null }
  if (!snapshot.model.items.some((item) => item.id === team.id)) return null
  const division = referenceId(registration.participation.division) ?? null
  // The cached rows as the presenter reads the entities the route merges from them.
  const participation = { token: registration.participation.token, division: division === null ? null : { id: division } } as unknown as Pick<Participation, 'token' | 'division'>
  const shown = { wpddl: new Date(game.wpddl as Date | string), writeupRequired: game.writeupRequired as boolean }
  return presentGameDetail(shown, participation, team, snapshot, { rules, solvedAfterFreeze: null }).text
}

/** The paths a player's screens poll, each with the rules of its route (routes/*.ts). */
const HOT_READS: HotRead[] = [
  {
    label: routeLabel('GET', '/api/game'),
    pattern: /^\/api\/game\/?$/i,
    entry: () => ({ key: 'games', tags: [tags.games] }),
  },
  {
    label: routeLabel('GET', '/api/game/:id'),
    pattern: /^\/api\/game\/(\d{1,9})\/?$/i,
    entry: (m, caller, services, now) => {
      const gameId = Number(m[1])
      const game = peekGame(services.readCache, gameId)
      if (!game) return null
      const list = [...gameTags(gameId), tags.gameParticipations(gameId)]
      // Its `frozen` turns when the freeze time passes, with no write to drop the answer.
      const stamp = frozenStamp(game, now)
      if (!caller) return { key: `game:${gameId}`, tags: list, stamp }
      const registration = peekRegistration(services.readCache, gameId, caller.id)
      if (registration === undefined) return null
      list.push(tags.registration(gameId, caller.id), tags.user(caller.id))
      if (registration) list.push(tags.participation(registration.participation.id as number), tags.team(registration.team.id as number))
      return { key: `game:${gameId}:${caller.id}`, tags: list, stamp }
    },
  },
  {
    label: routeLabel('GET', '/api/game/:id/details'),
    pattern: /^\/api\/game\/(\d{1,9})\/details\/?$/i,
    role: 'User',
    entry: (m, caller, services, now) => {
      const gameId = Number(m[1])
      const passed = passedGate(services, gameId, caller!, true, now)
      const snapshot = passed && services.scoreboard.inMemory(gameId)
      if (!passed || !snapshot) return null
      // Frozen: the answer also lists the team's own solves since the freeze, which move with the live board.
      const stamp = snapshot.model.frozen ? services.scoreboard.liveInMemory(gameId)?.version : snapshot.version
      if (stamp === undefined) return null
      // One answer per team: the challenges and the team's row come from the board, the token from the participation.
      return {
        key: `details:${gameId}:${passed.participationId}`,
        tags: [...gameTags(gameId), tags.gameChallenges(gameId), tags.participation(passed.participationId), tags.team(passed.teamId)],
        stamp,
      }
    },
    build: (entry, m, caller, services) => buildDetails(Number(m[1]), entry, caller, services),
    // Every challenge edit (an opening) drops the game's rules, and every team reads its board then:
    // the first read starts their load and goes to the route; the other teams' wait for that load.
    warm: (m, services) => {
      const gameId = Number(m[1])
      if (peekGameRules(services.readCache, gameId)) return null
      const running = gameRulesLoading(services.readCache, gameId)
      if (!running) void gameRules(services.orm.em.fork(), gameId).catch(() => undefined)
      return running ?? null
    },
  },
  {
    label: routeLabel('GET', '/api/game/:id/notices'),
    pattern: /^\/api\/game\/(\d{1,9})\/notices\/?$/i,
    query: /^\?(?:count=\d{1,3}|skip=\d{1,3})(?:&(?:count=\d{1,3}|skip=\d{1,3}))?$/,
    entry: (m, caller, services, now) => {
      const gameId = Number(m[1])
      const game = peekGame(services.readCache, gameId)
      // The route refuses a game not started yet (startedGame): that answer is the route's to give.
      if (!game || now < new Date(game.start as Date | string).getTime()) return null
      const list = [...gameTags(gameId), tags.gameNotices(gameId)]
      // One answer per view (notices/visibility.ts): a division sees only the notices of challenges it may view.
      if (!caller) return { key: `notices:${gameId}:${noticeViewKey(noticeViewOf(null, undefined))}`, tags: list }
      const registration = peekRegistration(services.readCache, gameId, caller.id)
      if (registration === undefined) return null
      const division = registration ? (referenceId(registration.participation.division) ?? null) : undefined
      list.push(tags.registration(gameId, caller.id), tags.user(caller.id))
      if (registration) list.push(tags.participation(registration.participation.id as number))
      return { key: `notices:${gameId}:${noticeViewKey(noticeViewOf(caller.role, division))}`, tags: list }
    },
  },
  {
    // The caller's own submission (routes/submissions.ts: no context gate, the row is looked up by
    // its submitter): a judged status never changes, so it is kept until the submission could be
    // gone (its game, challenge, participation or user changed).
    label: routeLabel('GET', '/api/game/:id/challenges/:challengeId/status/:submitId'),
    pattern: /^\/api\/game\/(\d{1,9})\/challenges\/(\d{1,9})\/status\/(\d{1,9})\/?$/i,
    role: 'User',
    entry: (m, caller) => {
      const gameId = Number(m[1])
      return {
        key: `status:${caller!.id}:${gameId}:${Number(m[2])}:${Number(m[3])}`,
        tags: [...gameTags(gameId), tags.gameChallenges(gameId), tags.gameParticipations(gameId), tags.user(caller!.id)],
      }
    },
    keep: (body) => body !== JSON.stringify(PENDING_STATUS),
  },
  {
    // A team's challenge (routes/game.ts), once its instance is loaded (the first view loads it, and
    // that answer is not kept: the load is a write that names the instance's tag). One answer per
    // team and challenge. What only this team sees is named by `Instance:{participation}:{challenge}`
    // — the instance and its container (start, prolong, stop, expiry, reconciliation), the team's
    // attempts (its submissions; every node once a checker settles them) and hint unlocks — and the
    // challenge itself, its division rules and the gate by the tags of the others. Its dynamic value
    // is the stamp: the score the board shows for it now (the frozen board's while frozen,
    // docs/scoring.md#freeze), which moves only with its own solves. A costed hint turning free
    // ends the answer at that time (`hotReadUntil`).
    label: routeLabel('GET', '/api/game/:id/challenges/:challengeId'),
    pattern: /^\/api\/game\/(\d{1,9})\/challenges\/(\d{1,9})\/?$/i,
    role: 'User',
    entry: (m, caller, services, now) => {
      const gameId = Number(m[1])
      const challengeId = Number(m[2])
      const passed = passedGate(services, gameId, caller!, true, now)
      const shown = passed && services.scoreboard.inMemory(gameId)
      const score = shown ? boardChallengeScore(shown.model, challengeId) : undefined
      if (!passed || !shown || score === undefined) return null
      return {
        key: `challenge:${gameId}:${passed.participationId}:${challengeId}`,
        tags: [...gameTags(gameId), tags.gameChallenges(gameId), tags.participation(passed.participationId), tags.instance(passed.participationId, challengeId)],
        stamp: score * 2 + (shown.model.frozen ? 1 : 0),
      }
    },
  },
  {
    label: routeLabel('GET', '/api/account/profile'),
    pattern: /^\/api\/account\/profile\/?$/i,
    role: 'User',
    enrolment: true,
    entry: (_m, caller) => ({ key: `profile:${caller!.id}`, tags: [tags.user(caller!.id)] }),
  },
  {
    label: routeLabel('GET', '/api/team'),
    pattern: /^\/api\/team\/?$/i,
    role: 'User',
    // The teams show their members: any team or user change drops every such answer.
    entry: (_m, caller) => ({ key: `teams:${caller!.id}`, tags: [tags.user(caller!.id), tags.teams, tags.users] }),
  },
  // Posts show their author's name: a user change drops them too.
  {
    label: routeLabel('GET', '/api/posts/latest'),
    pattern: /^\/api\/posts\/latest\/?$/i,
    entry: () => ({ key: 'posts:latest', tags: [tags.posts, tags.users] }),
  },
  {
    label: routeLabel('GET', '/api/posts'),
    pattern: /^\/api\/posts\/?$/i,
    entry: () => ({ key: 'posts', tags: [tags.posts, tags.users] }),
  },
  {
    label: routeLabel('GET', '/api/posts/:id'),
    pattern: /^\/api\/posts\/([0-9A-Za-z_-]{1,64})\/?$/,
    entry: (m) => ({ key: `post:${m[1]}`, tags: [tags.posts, tags.users] }),
  },
]

function hotReadOf(path: string): { read: HotRead; match: RegExpExecArray } | null {
  if (!path.startsWith('/api/')) return null
  for (const read of HOT_READS) {
    const match = read.pattern.exec(path)
    if (match) return { read, match }
  }
  return null
}

/** The route's role and enrolment rules, then the read's own. */
function entryFor(hot: { read: HotRead; match: RegExpExecArray }, caller: Caller | null, services: Services, now: number): Entry | null {
  const { read } = hot
  if (read.role) {
    if (!caller || roleRank(caller.role) < USER_RANK) return null
    if (!read.enrolment) {
      const settings = services.settings.peek()
      if (!settings || mustEnrol(settings, { role: caller.role, twoFactorSecret: caller.twoFactorSecret ?? null })) return null
    }
  }
  return read.entry(hot.match, caller, services, now)
}

/** An answer as kept: the route's body and headers, gzipped once. */
interface HotAnswer {
  stamp: number | undefined
  /** Sent again only before this time (epoch ms; the route's `hotReadUntil`). */
  until: number
  etag: string
  json: Buffer
  gzip: Buffer | null
  headers: { json: string[]; gzip: string[]; notModified: string[] }
}

/** Headers that belong to one response, not to the answer. */
const PER_RESPONSE = new Set(['content-length', 'content-encoding', 'content-type', 'etag', 'vary', 'set-cookie', 'x-request-id'])

function answerOf(body: string, headers: Record<string, unknown>, stamp: number | undefined, until = Infinity): HotAnswer {
  const json = Buffer.from(body)
  const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`
  const gzip = json.length >= GZIP_MIN_BYTES ? gzipSync(json) : null
  const common: string[] = []
  for (const [name, value] of Object.entries(headers)) {
    if (PER_RESPONSE.has(name) || value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) common.push(name, String(v))
  }
  common.push('ETag', etag)
  // The route's own Vary (a compat opt-in, say), and Accept-Encoding where a gzipped copy exists (as http/compression.ts adds it).
  const vary = String(headers.vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '' && v.toLowerCase() !== 'accept-encoding')
  if (gzip) vary.push('Accept-Encoding')
  if (vary.length) common.push('Vary', vary.join(', '))
  const typed = [...common, 'Content-Type', 'application/json; charset=utf-8']
  return {
    stamp,
    until,
    etag,
    json,
    gzip,
    headers: {
      json: [...typed, 'Content-Length', String(json.length)],
      gzip: gzip ? [...typed, 'Content-Encoding', 'gzip', 'Content-Length', String(gzip.length)] : [],
      notModified: common,
    },
  }
}

/** The `X-GZCTF-Compat` values kept apart (a version number); any other value goes to the route. */
const COMPAT_VALUE = /^(?:\d{1,2}(?:\.\d{1,2}){0,2})?$/

/** The key of an answer's variant (query with its `?`), or null when the variant is not kept (see `query`, COMPAT_VALUE). */
function variantKey(read: HotRead, entry: Entry, query: string, compat: string): string | null {
  if (query !== '' && !read.query?.test(query)) return null
  if (!COMPAT_VALUE.test(compat)) return null
  return `hot:${entry.key}|${query}|${compat}`
}

/**
 * Koa's side (mounted just before the router): after a hot route answered 200, keep its answer
 * when the entry it belongs to was the same before and after the route ran and nothing was
 * invalidated meanwhile; and answer `If-None-Match` with 304.
 */
export function captureHotReads(): Middleware {
  return async (ctx, next) => {
    const hot = ctx.method === 'GET' && !ctx.state.token ? hotReadOf(ctx.path) : null
    if (!hot) return next()
    // Learn the client's Accept-Encoding for the fast path.
    acceptsGzip(ctx)
    const services = ctx.services
    const user = ctx.state.user
    const caller: Caller | null = user ? { id: user.id, role: user.role, twoFactorSecret: user.twoFactorSecret ?? null } : null
    const before = entryFor(hot, caller, services, Date.now())
    const compat = ctx.get(COMPAT_HEADER)
    const query = ctx.querystring ? `?${ctx.querystring}` : ''
    const wanted = before && variantKey(hot.read, before, query, compat)
    const builds = buildsOf(services)
    // Another request is building this very answer: wait for it and send it, rather than build it again.
    const running = wanted && builds.get(wanted)
    if (running) {
      await running
      if (wanted && sendKept(ctx, hot, caller, services, wanted, query, compat)) return
    }
    const own = wanted && !builds.has(wanted) ? building() : null
    if (own) builds.set(wanted!, own.promise)
    const mark = services.readCache.mark
    try {
      await next()
    } finally {
      if (own) {
        builds.delete(wanted!)
        own.resolve()
      }
    }
    if (ctx.status !== 200 || typeof ctx.body !== 'string') return
    if (hot.read.build && query === '' && compat === '') routeHeadersOf(services).set(hot.read.label, { ...ctx.response.headers })
    const keepable = hot.read.keep?.(ctx.body) ?? true
    const after = entryFor(hot, caller, services, Date.now())
    const answer = answerOf(ctx.body, ctx.response.headers, after?.stamp, ctx.state.hotReadUntil)
    const key = after && variantKey(hot.read, after, query, compat)
    if (keepable && key && before && before.key === after.key && before.stamp === after.stamp) services.readCache.keep(key, after.tags, answer, mark)
    ctx.set('ETag', answer.etag)
    if (etagMatches(ctx.get('If-None-Match'), answer.etag)) {
      ctx.status = 304
      ctx.body = null
    }
  }
}

/**
 * Per node and hot read with a `build`, the headers its route last answered with (the security
 * headers and `Vary` of the route, the same for every caller; per-response ones are dropped by
 * `answerOf`): an answer built on the fast path carries them as a kept one does.
 */
const routeHeadersByNode = new WeakMap<Services, Map<RouteLabel, Record<string, unknown>>>()

function routeHeadersOf(services: Services): Map<RouteLabel, Record<string, unknown>> {
  let headers = routeHeadersByNode.get(services)
  if (!headers) routeHeadersByNode.set(services, (headers = new Map()))
  return headers
}

/** Whether this variant of the read is built on the fast path (the plain one, once its route answered someone). */
function builtHere(read: HotRead, services: Services, query: string, compat: string): boolean {
  return read.build !== undefined && query === '' && compat === '' && routeHeadersOf(services).has(read.label)
}

/**
 * No answer kept for `entry`: build the route's own on the fast path when the read can
 * (`HotRead.build`), and keep it like the route's. Synchronous, so the rows it read are the ones
 * the entry was checked on.
 */
function builtAnswer(hot: { read: HotRead; match: RegExpExecArray }, entry: Entry, caller: Caller | null, services: Services, key: string, query: string, compat: string): HotAnswer | null {
  const headers = caller && builtHere(hot.read, services, query, compat) ? routeHeadersOf(services).get(hot.read.label) : undefined
  if (!headers) return null
  const mark = services.readCache.mark
  const body = hot.read.build!(entry, hot.match, caller!, services)
  if (body === null) return null
  const answer = answerOf(body, headers, entry.stamp)
  services.readCache.keep(key, entry.tags, answer, mark)
  return answer
}

/**
 * The answers the routes are building now, per node, by variant key: a herd of misses (a thousand
 * players reloading their board after a challenge opened) builds each answer once.
 */
const buildsByNode = new WeakMap<Services, Map<string, Promise<void>>>()

function building(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

function buildsOf(services: Services): Map<string, Promise<void>> {
  let builds = buildsByNode.get(services)
  if (!builds) buildsByNode.set(services, (builds = new Map()))
  return builds
}

/**
 * Inside Koa, after the build this request waited for: the kept answer of `key`, when every rule
 * still lets this caller read it (the same checks as the fast path, `hotReads`) and its stamp is
 * current. False: the route answers.
 */
function sendKept(ctx: Context, hot: { read: HotRead; match: RegExpExecArray }, caller: Caller | null, services: Services, key: string, query: string, compat: string): boolean {
  const entry = entryFor(hot, caller, services, Date.now())
  const answer = services.readCache.peek<HotAnswer>(key)
  if (!entry || !answer || answer.stamp !== entry.stamp || Date.now() >= answer.until || variantKey(hot.read, entry, query, compat) !== key) return false
  for (let i = 0; i < answer.headers.notModified.length; i += 2) ctx.set(answer.headers.notModified[i]!, answer.headers.notModified[i + 1]!)
  if (etagMatches(ctx.get('If-None-Match'), answer.etag)) {
    ctx.status = 304
    ctx.body = null
    return true
  }
  ctx.status = 200
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = answer.json
  return true
}

/**
 * Node's side: a GET of a hot path whose answer is kept and whose rules all pass is answered here;
 * everything else goes to `next` (Koa) as it came.
 */
export function hotReads(services: Services, trust: ProxyTrust, next: RequestListener): RequestListener {
  const serve = (req: IncomingMessage, res: ServerResponse, warmed: boolean): void => {
    if (req.method !== 'GET' || !req.url || req.headers.authorization !== undefined) return next(req, res)
    const q = req.url.indexOf('?')
    const hot = hotReadOf(q < 0 ? req.url : req.url.slice(0, q))
    if (!hot) return next(req, res)
    const compat = req.headers[COMPAT_HEADER] ?? ''
    const cookies = cookiesOf(req.headers.cookie)
    const gzipOk = gzipWanted(req.headers['accept-encoding'] ?? '')
    // An empty session cookie is Koa's to ignore.
    if (typeof compat !== 'string' || cookies.session === '' || gzipOk === undefined) return next(req, res)
    const now = Date.now()
    let session: CachedSession | null = null
    if (cookies.session !== null && !(session = usableCachedSession(services.readCache, cookies.session, now))) return next(req, res)
    const caller: Caller | null = session ? { id: session.user.id as string, role: session.user.role as Role, twoFactorSecret: (session.user.twoFactorSecret as string | null | undefined) ?? null } : null
    const entry = entryFor(hot, caller, services, now)
    const query = q < 0 ? '' : req.url.slice(q)
    const key = entry && variantKey(hot.read, entry, query, compat)
    if (!entry || !key) return next(req, res)
    let answer = services.readCache.peek<HotAnswer>(key)
    if (!answer || answer.stamp !== entry.stamp) {
      // Once warmed, the request is answered anew: its rules and rows checked again.
      const warming = !warmed && caller && builtHere(hot.read, services, query, compat) ? hot.read.warm?.(hot.match, services) : null
      if (warming) return void warming.then(() => serve(req, res, true), () => next(req, res))
      answer = builtAnswer(hot, entry, caller, services, key, query, compat) ?? undefined
    }
    if (!answer || answer.stamp !== entry.stamp || now >= answer.until) return next(req, res)
    const address = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trust)
    if (session && visitDue(session, address.ip, now)) {
      touchCachedSession(services.visits, session, address.ip)
    }
    const started = performance.now()
    // A client without the XSRF cookie gets one, as from http/xsrf.ts; `secure` as Koa judges it (ctx.secure).
    const xsrf = cookies.xsrf !== null ? null : xsrfSetCookie(isSecure(req, address.peer, trust))
    const respond = () => services.metrics.request(hot.read.label, (performance.now() - started) / 1000, send(req, res, answer, gzipOk && answer.gzip !== null, xsrf))
    if (!services.limits.enabled || (!address.forwarded && isLoopback(address.peer))) return respond()
    services.limits.consume('Global', caller ? `u:${caller.id}` : `ip:${address.ip}`).then(respond, () => next(req, res))
  }
  return (req, res) => serve(req, res, false)
}

function send(req: IncomingMessage, res: ServerResponse, answer: HotAnswer, gzip: boolean, xsrf: string | null): number {
  const notModified = etagMatches(req.headers['if-none-match'] ?? '', answer.etag)
  const headers = notModified ? answer.headers.notModified : gzip ? answer.headers.gzip : answer.headers.json
  res.writeHead(notModified ? 304 : 200, xsrf ? [...headers, 'Set-Cookie', xsrf] : headers)
  res.end(notModified ? undefined : gzip ? answer.gzip : answer.json)
  return notModified ? 304 : 200
}

/** For the tests: the paths answered here, each with its route label (they must all be in the route table). */
export const hotReadLabels = (): RouteLabel[] => HOT_READS.map((r) => r.label)
