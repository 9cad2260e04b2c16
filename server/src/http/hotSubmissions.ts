/**
 * Flag submission ahead of Koa (docs/performance.md#flag-submission): `POST
 * /api/game/{id}/challenges/{cid}` (routes/submissions.ts) taken from Node's request event when
 * every rule of the route passes on the read cache's rows, so a submission costs its one
 * statement (domain/submissions/accept.ts) and little else.
 *
 * - Before the body is read, every rule is checked as the route would: a usable cached session
 *   (sessions.ts), no API token, role User and the two-factor enrolment, the XSRF rules of
 *   http/xsrf.ts, the context gate and the challenge rules on the cached rows (domain/play/gate.ts,
 *   challenges/rules.ts). Anything that refuses, is not cached or is unusual goes to Koa
 *   unchanged, which answers it and warms the cache.
 * - The body is then read: one that is not plainly a valid `FlagSubmitModel` is handed to Koa
 *   with the same bytes, before anything was consumed, so its answer is the route's.
 * - The rate limits are consumed as in Koa (Global unless local, then Submit), then the statement
 *   runs; a rate limit's refusal and the statement's (a write on another node this cache has not
 *   heard of yet) are answered here in the contract's shape (errorMiddleware's `appErrorAnswer`),
 *   the refusal the route would give: the statement judges on the stored rows.
 * - Not answered here, as for the hot reads: the access log line and `X-Request-Id`.
 */
import { randomUUID } from 'node:crypto'
import { IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { FlagSubmitModel } from '@flagwave/shared/schemas/play'
import type pg from 'pg'
import type { Services } from '../services.js'
import { touchCachedSession, usableCachedSession, visitDue, type CachedSession } from '../domain/accounts/sessions.js'
import { mustEnrol } from '../domain/accounts/twoFactor.js'
import { divisionRefusal, gateRefusal, peekChallenge, peekGame, peekRegistration, referenceId } from '../domain/play/gate.js'
import { peekDivisions } from '../domain/divisions/divisions.js'
import { deadlineRefusal, isPendingRelease } from '../domain/challenges/rules.js'
import { accepted, acceptSubmission, type SubmissionInput } from '../domain/submissions/accept.js'
import { DivisionPermissions } from '@flagwave/shared/divisions'
import { GamePermission } from '@flagwave/shared/enums'
import { nativePool } from '../db/pg.js'
import { AppError } from '../lib/errors.js'
import { isLoopback } from '../lib/clientAddress.js'
import type { SitePolicy } from '../lib/crossSite.js'
import { isCrossSite } from '../lib/crossSite.js'
import { routeLabel } from '../lib/metrics.js'
import { resolveRequestAddress } from './clientIp.js'
import { cookiesOf, isSecure } from './rawRequest.js'
import { xsrfSetCookie } from './xsrf.js'
import { appErrorAnswer } from './errorMiddleware.js'
import { newerFormsOf } from './compat.js'
import { parseOrThrow } from './validate.js'

const PATH = /^\/api\/game\/(\d{1,9})\/challenges\/(\d{1,9})\/?$/i
const LABEL = routeLabel('POST', '/api/game/:id/challenges/:challengeId')
const USER_RANK = roleRank('User')
/** The XSRF tokens http/xsrf.ts hands out (base64url): another value is Koa's to judge. */
const XSRF_TOKEN = /^[A-Za-z0-9_-]{1,64}$/
const JSON_TYPE = /^application\/json\s*(?:;\s*charset=utf-8\s*)?$/i

/** What the route's rules found on the cached rows: the statement's input, less the body and time. */
interface Admitted {
  userId: string
  participationId: number
  limited: boolean
  session: CachedSession
}

/**
 * Node's side: a submission whose every rule passes on cached rows is taken here; everything else
 * goes to `next` (the hot reads, then Koa) as it came. `headers`: the security headers of an API
 * answer (http/securityHeaders.ts).
 */
export function hotSubmissions(services: Services, policy: SitePolicy, headers: [string, string][], next: RequestListener): RequestListener {
  let pool: pg.Pool | null = null
  const fixed = headers.flat()
  return (req, res) => {
    if (req.method !== 'POST' || !req.url) return next(req, res)
    const match = PATH.exec(req.url)
    if (!match) return next(req, res)
    const gameId = Number(match[1])
    const challengeId = Number(match[2])
    const now = Date.now()
    const address = resolveRequestAddress(req, policy.trust)
    const cookies = cookiesOf(req.headers.cookie)
    const admitted = admit(services, policy, req, cookies, gameId, challengeId, now)
    if (!admitted) return next(req, res)
    const started = performance.now()
    const answer = { secure: isSecure(req, address.peer, policy.trust), xsrf: cookies.xsrf !== null, fixed }
    const local = !address.forwarded && isLoopback(address.peer)
    if (visitDue(admitted.session, address.ip, now)) {
      touchCachedSession(services.visits, admitted.session, address.ip)
    }
    const take = async (): Promise<number | null> => {
      const body = await readBody(req)
      const flag = flagOf(body)
      // Koa consumes the rate limits before it reads the body: nothing is consumed here before handing it over.
      if (flag === null) {
        next(replay(req, body), res)
        return null
      }
      if (services.limits.enabled) {
        if (!local) await services.limits.consume('Global', `u:${admitted.userId}`)
        await services.limits.consume('Submit', `u:${admitted.userId}`)
      }
      pool ??= await nativePool(services.orm)
      const input: SubmissionInput = { gameId, challengeId, participationId: admitted.participationId, userId: admitted.userId, answer: flag, time: new Date(now), ip: address.ip }
      const id = await acceptSubmission(pool, input, admitted.limited)
      accepted(services, input)
      return id
    }
    take().then(
      (id) => {
        if (id === null) return
        send(res, 200, String(id), answer)
        services.metrics.request(LABEL, (performance.now() - started) / 1000, 200)
      },
      (err: unknown) => {
        const status = sendError(req, res, err, answer, services)
        services.metrics.request(LABEL, (performance.now() - started) / 1000, status)
      },
    )
  }
}

/** The route's rules before its body, on cached rows only: what to take, or null for Koa. */
function admit(services: Services, policy: SitePolicy, req: IncomingMessage, cookies: ReturnType<typeof cookiesOf>, gameId: number, challengeId: number, now: number): Admitted | null {
  const h = req.headers
  // An API token, a body Koa would inflate, stream or refuse by size or type: Koa's.
  if (h.authorization !== undefined || h['content-encoding'] !== undefined || h['content-length'] === undefined) return null
  if (Number(h['content-length']) > BODY_LIMITS.json || !JSON_TYPE.test(h['content-type'] ?? '')) return null
  if (!cookies.session) return null
  const session = usableCachedSession(services.readCache, cookies.session, now)
  if (!session) return null
  const role = session.user.role as Role
  const settings = services.settings.peek()
  if (roleRank(role) < USER_RANK || !settings || mustEnrol(settings, { role, twoFactorSecret: (session.user.twoFactorSecret as string | null | undefined) ?? null })) return null
  // http/xsrf.ts: an unsafe request with the session cookie, cross-site or with a token that is not the cookie's.
  const header = h['x-xsrf-token']
  if (isCrossSite(h, req.socket.remoteAddress, policy)) return null
  if (header !== undefined && header !== '' && (typeof header !== 'string' || !XSRF_TOKEN.test(header) || header !== cookies.xsrf)) return null
  const userId = session.user.id as string
  const cache = services.readCache
  const game = peekGame(cache, gameId)
  const registration = peekRegistration(cache, gameId, userId)
  const challenge = peekChallenge(cache, gameId, challengeId)
  if (!game || !registration || !challenge) return null
  if (gateRefusal(game, registration.participation as { status: string }, true, now)) return null
  const divisionId = referenceId(registration.participation.division)
  let permissions: number = GamePermission.All
  if (divisionId !== undefined) {
    const divisions = peekDivisions(cache, gameId)
    if (!divisions) return null
    permissions = new DivisionPermissions(divisions).of(divisionId, challengeId)
  }
  if (divisionRefusal(permissions, 'SubmitFlags') || isPendingRelease(challenge) || deadlineRefusal(challenge, now)) return null
  // Prerequisites need the team's solves: the statement checks them (a locked challenge's refusal comes from Koa).
  return { userId, participationId: registration.participation.id as number, limited: (challenge.submissionLimit ?? 0) > 0, session }
}

/** The body's bytes (its length was checked against the route's limit before). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** The trimmed flag of a body that is plainly a valid `FlagSubmitModel` (the route's schema), else null. */
function flagOf(body: Buffer): string | null {
  const text = body.toString('utf8')
  // What the route's parser (co-body with prototype-poisoning checks) and validation would judge otherwise is theirs.
  if (text.includes('__proto__') || text.includes('constructor')) return null
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
    return parseOrThrow(FlagSubmitModel, value).flag
  } catch {
    return null
  }
}

/** The request again, with the bytes already read from it, for Koa. */
function replay(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket)
  copy.method = req.method
  copy.url = req.url
  copy.headers = req.headers
  copy.rawHeaders = req.rawHeaders
  copy.httpVersion = req.httpVersion
  copy.httpVersionMajor = req.httpVersionMajor
  copy.httpVersionMinor = req.httpVersionMinor
  copy.complete = true
  copy.push(body)
  copy.push(null)
  return copy
}

interface AnswerContext {
  secure: boolean
  /** Whether the client has the XSRF cookie (else one is handed out, as http/xsrf.ts does). */
  xsrf: boolean
  fixed: string[]
}

function send(res: ServerResponse, status: number, body: string, answer: AnswerContext, type = 'application/json; charset=utf-8', extra: string[] = []): void {
  const list = [...answer.fixed, ...extra, 'Content-Type', type, 'Content-Length', String(Buffer.byteLength(body))]
  if (!answer.xsrf) list.push('Set-Cookie', xsrfSetCookie(answer.secure))
  res.writeHead(status, list)
  res.end(body)
}

/** A refusal in the contract's shape; anything else is a 500 as errorMiddleware answers it. */
function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, answer: AnswerContext, services: Services): number {
  const traceId = randomUUID()
  const language = typeof req.headers['accept-language'] === 'string' ? req.headers['accept-language'] : ''
  const compat = typeof req.headers['x-gzctf-compat'] === 'string' ? req.headers['x-gzctf-compat'] : ''
  if (err instanceof AppError) {
    const { type, body } = appErrorAnswer(err, language, newerFormsOf(compat), traceId)
    send(res, err.status, JSON.stringify(body), answer, type === undefined ? undefined : `${type}; charset=utf-8`, Object.entries(err.headers).flat())
    return err.status
  }
  services.log.error({ err, requestId: traceId }, 'unhandled error')
  const { body } = appErrorAnswer(new AppError(500, '服务器内部错误'), language, false, traceId)
  send(res, 500, JSON.stringify({ ...body, requestId: traceId }), answer)
  return 500
}
