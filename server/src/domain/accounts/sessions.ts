/**
 * Server-side sessions behind the `GZCTF_Token` cookie (docs/compatibility.md#sessions-and-roles): 7 days, renewed when
 * more than half has elapsed, void as soon as the row is gone or the user's security stamp moved.
 */
import { createHash, randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { EntityManager } from '@mikro-orm/postgresql'
import { Session } from '../../entities/Session.js'
import { User } from '../../entities/User.js'
import { wrap, type EntityData } from '@mikro-orm/core'
import { invalidateAfterCommit, readCacheOf, tags } from '../../cache/invalidation.js'
import type { ReadCache } from '../../cache/readCache.js'
import type { VisitRecorder } from './visits.js'

export const SESSION_COOKIE = 'GZCTF_Token'
const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000
const VISIT_GRANULARITY_MS = 5000

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/** A new session for the client: the route hands `token` out as the session cookie. */
export interface IssuedSession {
  token: string
  expiresAt: Date
}

export async function createSession(em: EntityManager, user: User, ip: string, userAgent: string): Promise<IssuedSession> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS)
  em.create(Session, { id: hashToken(token), user, securityStamp: user.securityStamp, expiresAt, ip, userAgent: userAgent.slice(0, 512) })
  await em.flush()
  return { token, expiresAt }
}

export interface ResolvedSession {
  session: Session
  user: User
  renewed: boolean
  /** The cache entry behind it: `touchUser` keeps its last visit current. */
  cached: CachedSession
}

/** A session as the read cache keeps it: plain data, turned into entities per request. */
export interface CachedSession {
  session: EntityData<Session>
  user: EntityData<User>
}

/**
 * The session of a cookie, or null. Served from the read cache (docs/architecture.md#read-cache):
 * the entry carries the session's and the user's tags, so a logout, ban, role, password or
 * e-mail change drops it on every node when it commits.
 */
const sessionKey = (id: string) => `session:${id}`
const millis = (date: Date | string) => (typeof date === 'string' ? Date.parse(date) : date.getTime())

/**
 * The cached session of a cookie when it can be used as it stands, without any write: in the read
 * cache, not expired, minted under the user's current stamp and not due for renewal. Anything else
 * (null) goes through `resolveSession`, which deletes, renews or loads it. The hot reads
 * (http/hotReads.ts) answer from this.
 */
export function usableCachedSession(cache: ReadCache, token: string, now: number): CachedSession | null {
  if (token.length > 128) return null
  const cached = cache.peek<CachedSession>(sessionKey(hashToken(token)))
  if (!cached) return null
  const expiresAt = millis(cached.session.expiresAt as Date | string)
  if (expiresAt <= now || expiresAt - now < SESSION_LIFETIME_MS / 2) return null
  return cached.session.securityStamp === cached.user.securityStamp ? cached : null
}

export async function resolveSession(em: EntityManager, token: string): Promise<ResolvedSession | null> {
  if (token.length > 128) return null
  const id = hashToken(token)
  const cached = await readCacheOf(em).read<CachedSession>(sessionKey(id), async () => {
    const found = await em.findOne(Session, { id }, { populate: ['user'] })
    if (!found) return undefined
    const user = found.user as User
    return { value: { session: { ...wrap(found).toPOJO(), user: user.id }, user: wrap(user).toPOJO() }, tags: [tags.session(id), tags.user(user.id)] }
  })
  if (!cached) return null
  const user = em.merge(User, cached.user)
  const session = em.merge(Session, cached.session)
  const now = Date.now()
  if (session.expiresAt.getTime() <= now || session.securityStamp !== user.securityStamp) {
    await em.nativeDelete(Session, { id: session.id })
    await invalidateAfterCommit(em, [tags.session(id)])
    return null
  }
  let renewed = false
  if (session.expiresAt.getTime() - now < SESSION_LIFETIME_MS / 2) {
    session.expiresAt = new Date(now + SESSION_LIFETIME_MS)
    await em.flush()
    renewed = true
  }
  return { session, user, renewed, cached }
}

export async function endSession(em: EntityManager, session: Session): Promise<void> {
  await em.nativeDelete(Session, { id: session.id })
  await invalidateAfterCommit(em, [tags.session(session.id)])
}

/** End the request's session (if any) and start one for `user` in its place. */
export async function replaceSession(em: EntityManager, previous: Session | undefined, user: User, client: { ip: string; userAgent: string }): Promise<IssuedSession> {
  if (previous) await endSession(em, previous)
  return createSession(em, user, client.ip, client.userAgent)
}

/** End every session of a user (bans, deletions); password and e-mail changes move the stamp instead. */
export async function endAllSessions(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(Session, { user: userId })
  await invalidateAfterCommit(em, [tags.user(userId)])
}

/** Rows deleted per statement by `purgeDeadSessions`, so a large backlog never holds many row locks at once. */
const PURGE_BATCH = 1000

/**
 * Delete the sessions that can never be used again (docs/operations.md#purging): expired ones and
 * those minted under a security stamp the user no longer has (a password or e-mail change moves
 * the stamp and leaves the rows behind). `resolveSession` already refuses and deletes such a row
 * when its cookie comes back; most never do. Rows another node is deleting are skipped, so
 * several nodes may purge at once. Returns how many rows went.
 */
export async function purgeDeadSessions(pool: pg.Pool, now = new Date()): Promise<number> {
  let total = 0
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from sessions where id in (
         select s.id from sessions s join users u on u.id = s.user_id
          where s.expires_at <= $1 or s.security_stamp <> u.security_stamp
          limit $2 for update of s skip locked)`,
      [now, PURGE_BATCH],
    )
    total += rowCount ?? 0
    if ((rowCount ?? 0) < PURGE_BATCH) return total
  }
}

/** Record the last visit and address, at most once every 5 seconds (docs/compatibility.md#sessions-and-roles). */
export function touchUser(visits: VisitRecorder, resolved: ResolvedSession, ip: string): void {
  const { user, cached } = resolved
  if (!visitDue(cached, ip)) return
  const visit = touchCachedSession(visits, cached, ip)
  user.lastVisited = visit.lastVisited
  user.ip = visit.ip
}

/** Whether the visit of a cached session is older than the granularity, or came from another address. */
export const visitDue = (cached: CachedSession, ip: string, now = Date.now()): boolean =>
  now - millis(cached.user.lastVisited as Date | string) >= VISIT_GRANULARITY_MS || cached.user.ip !== ip

/** Record a visit of a cached session's user (the hot reads call it without an entity); written with others within a second (visits.ts). */
export function touchCachedSession(visits: VisitRecorder, cached: CachedSession, ip: string): { lastVisited: Date; ip: string } {
  const visit = { lastVisited: new Date(), ip: ip || (cached.user.ip as string) }
  // The visit is no reason to drop cached sessions: the cached copy is brought up to date instead
  // (other nodes' copies only decide when they write their own visit).
  cached.user = { ...cached.user, ...visit }
  visits.record(cached.user.id as string, visit.lastVisited, visit.ip)
  return visit
}

/** A new random security stamp: every session minted under the old one stops working. */
export const newSecurityStamp = (): string => randomBytes(16).toString('hex')
