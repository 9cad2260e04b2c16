/**
 * API tokens (docs/architecture.md#api-tokens, docs/compatibility.md#api-tokens).
 *
 * Two formats reach `authenticateBearer`, the one check every transport calls (REST, Socket.IO,
 * SignalR's `access_token`):
 * - Flagwave tokens, `fw_` + 32 random bytes (base64url), created by their owner with scopes and
 *   an expiry; only the SHA-256 of the whole token is stored.
 * - GZ::CTF 1.5 admin tokens, `b64url(JSON{jti,iat[,exp]}).b64url(Ed25519 signature)`, signed with
 *   the installation's key (kept in `configs` as `internal.apiTokenKey`); the row named by `jti`
 *   makes them revocable and names their creator, whose role they act with.
 *
 * A verified token is kept in the read cache under the SHA-256 of the presented string, tagged
 * with the token's and the owner's rows: a revocation, a ban or a role change drops it on every
 * node when it commits, and every use re-checks expiry, revocation and the owner's current role.
 * Signatures are verified only when the record is loaded, so a cached token costs what a cached
 * session costs. Last use is recorded in memory and written in batches (`flushTokenUsage`).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, sign, verify, type KeyObject } from 'node:crypto'
import { wrap, type EntityData } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { roleRank, type Role } from '@flagwave/shared/enums'
import type { GzTokenCreateModel, TokenCreateModel, TokenScope } from '@flagwave/shared/schemas/tokens'
import { ApiToken } from '../../entities/ApiToken.js'
import { User } from '../../entities/User.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { installationSecret } from './tokens.js'
import { nativePool } from '../../db/pg.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

const FLAGWAVE_PREFIX = 'fw_'
const API_TOKEN_KEY = 'internal.apiTokenKey'
/** Active (unrevoked) tokens one account may hold. */
const MAX_ACTIVE_TOKENS = 50
/** Longer strings are no token of ours: refused before any hashing or parsing. */
const MAX_TOKEN_LENGTH = 1024

const TOKEN_NOT_FOUND = '令牌未找到'

/** The scopes each role may grant a new token. */
const SCOPE_ROLE: Record<TokenScope, Role> = { read: 'User', submit: 'User', monitor: 'Monitor', admin: 'Admin' }

/** What each scope includes: `admin` everything, `monitor` and `submit` also `read`. */
const IMPLIES: Record<TokenScope, readonly TokenScope[]> = {
  read: ['read'],
  submit: ['submit', 'read'],
  monitor: ['monitor', 'read'],
  admin: ['admin', 'monitor', 'submit', 'read'],
}

/** Those of `scopes` that `role` may grant. */
const grantable = (scopes: readonly string[], role: Role): TokenScope[] =>
  (scopes as TokenScope[]).filter((s) => s in SCOPE_ROLE && role !== 'Banned' && roleRank(role) >= roleRank(SCOPE_ROLE[s]))

/** Whether a token holding `scopes` may do what needs `needed`. */
export const scopeAllows = (scopes: readonly TokenScope[], needed: TokenScope): boolean => scopes.some((s) => IMPLIES[s].includes(needed))

/** A verified token, as the request or socket that presented it sees it. */
export interface TokenPrincipal {
  user: User
  token: { id: string; kind: string; scopes: TokenScope[] }
}

interface CachedToken {
  token: EntityData<ApiToken>
  user: EntityData<User>
  /** The `exp` of a GZ::CTF token's signed payload (seconds), when it has one. */
  payloadExp: number | null
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * The one token check of every transport (docs/architecture.md#api-tokens): the owner and what the
 * token may do now, or null when the string is no valid token (unknown, bad signature, expired,
 * revoked, owner banned or gone).
 */
export async function authenticateBearer(em: EntityManager, presented: string, now = Date.now()): Promise<TokenPrincipal | null> {
  if (presented.length === 0 || presented.length > MAX_TOKEN_LENGTH) return null
  const digest = sha256(presented)
  const cached = await readCacheOf(em).read<CachedToken>(`apitoken:${digest}`, async () => {
    const loaded = presented.startsWith(FLAGWAVE_PREFIX) ? await loadFlagwaveToken(em, digest) : await loadGzToken(em, presented)
    if (!loaded) return undefined
    const user = loaded.token.user as User
    const value: CachedToken = { token: { ...wrap(loaded.token).toPOJO(), user: user.id }, user: wrap(user).toPOJO(), payloadExp: loaded.payloadExp }
    return { value, tags: [tags.entity('ApiToken', loaded.token.id), tags.user(user.id)] }
  })
  if (!cached) return null
  const { token, user } = cached
  if (token.revokedAt) return null
  if (token.expiresAt && new Date(token.expiresAt as Date).getTime() <= now) return null
  if (cached.payloadExp !== null && cached.payloadExp * 1000 <= now) return null
  if (user.role === 'Banned') return null
  recordTokenUse(em, token.id as string, now)
  // The scopes stay as granted: every route still checks the owner's current role, so a demoted
  // owner's token reaches only what the new role allows.
  return { user: em.merge(User, user), token: { id: token.id as string, kind: token.kind as string, scopes: token.scopes as TokenScope[] } }
}

async function loadFlagwaveToken(em: EntityManager, digest: string): Promise<{ token: ApiToken; payloadExp: null } | null> {
  const token = await em.findOne(ApiToken, { secretHash: digest, kind: 'Flagwave' }, { populate: ['user'] })
  return token ? { token, payloadExp: null } : null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function loadGzToken(em: EntityManager, presented: string): Promise<{ token: ApiToken; payloadExp: number | null } | null> {
  const parts = presented.split('.')
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null
  const [payloadText, signature] = parts as [string, string]
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.from(payloadText, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!payload || typeof payload !== 'object') return null
  const { jti, exp } = payload as { jti?: unknown; exp?: unknown }
  if (typeof jti !== 'string' || !UUID.test(jti)) return null
  if (exp !== undefined && (typeof exp !== 'number' || !Number.isFinite(exp))) return null
  const keys = await signingKeys(em)
  if (!verify(null, Buffer.from(payloadText), keys.publicKey, Buffer.from(signature, 'base64url'))) return null
  const token = await em.findOne(ApiToken, { id: jti.toLowerCase(), kind: 'GzCtf' }, { populate: ['user'] })
  return token ? { token, payloadExp: typeof exp === 'number' ? exp : null } : null
}

/* ---- the installation's Ed25519 key ---- */

const keyCache = new WeakMap<object, Promise<{ privateKey: KeyObject; publicKey: KeyObject }>>()

function signingKeys(em: EntityManager): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  const owner = em.getConnection()
  let keys = keyCache.get(owner)
  if (!keys) {
    keys = installationSecret(em, API_TOKEN_KEY, () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')).then((der) => {
      const privateKey = createPrivateKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' })
      return { privateKey, publicKey: createPublicKey(privateKey) }
    })
    keyCache.set(owner, keys)
    keys.catch(() => keyCache.delete(owner))
  }
  return keys
}

/** GZ::CTF 1.5's token string for a row: the signed `{jti, iat[, exp]}` payload. */
async function gzTokenString(em: EntityManager, token: ApiToken): Promise<string> {
  const claims: Record<string, unknown> = { jti: token.id, iat: Math.floor(Date.now() / 1000) }
  if (token.expiresAt) claims.exp = Math.floor(token.expiresAt.getTime() / 1000)
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  const signature = sign(null, Buffer.from(payload), (await signingKeys(em)).privateKey).toString('base64url')
  return `${payload}.${signature}`
}

/* ---- last use, batched ---- */

/** Uses not yet written, per ORM (forks share the event manager): token id → latest use. */
const pendingUses = new WeakMap<object, Map<string, number>>()
const usesOf = (em: EntityManager): Map<string, number> => {
  const key = em.getEventManager()
  let uses = pendingUses.get(key)
  if (!uses) pendingUses.set(key, (uses = new Map()))
  return uses
}

function recordTokenUse(em: EntityManager, id: string, at: number): void {
  const uses = usesOf(em)
  if ((uses.get(id) ?? 0) < at) uses.set(id, at)
}

/**
 * Write the uses recorded since the last flush in one statement (workers/tokenUsage.ts, every few
 * seconds, and at shutdown). It never moves a last use backwards (another node may have written a
 * later one) and touches no cached value: last use decides nothing.
 */
export async function flushTokenUsage(em: EntityManager): Promise<number> {
  const uses = usesOf(em)
  if (uses.size === 0) return 0
  const batch = [...uses]
  uses.clear()
  const pool = await nativePool(em.getConnection())
  await pool.query(
    `update api_tokens t set last_used_at = greatest(coalesce(t.last_used_at, v.at), v.at)
       from unnest($1::uuid[], $2::timestamptz[]) as v(id, at) where t.id = v.id`,
    [batch.map(([id]) => id), batch.map(([, at]) => new Date(at).toISOString())],
  )
  return batch.length
}

/** A token with its last use as this node knows it: the stored one, or a later use not written yet. */
export interface TokenRecord {
  token: ApiToken
  lastUsedAt: Date | null
}

function lastUseOf(em: EntityManager, token: ApiToken): Date | null {
  const pending = usesOf(em).get(token.id)
  const stored = token.lastUsedAt?.getTime() ?? 0
  return pending && pending > stored ? new Date(pending) : (token.lastUsedAt ?? null)
}

/* ---- commands: the owner's tokens (/api/account/tokens) ---- */

/** A token's row and, this once, its secret. */
export interface IssuedToken {
  token: ApiToken
  secret: string
}

export async function listOwnTokens(em: EntityManager, userId: string): Promise<TokenRecord[]> {
  const rows = await em.find(ApiToken, { user: userId }, { orderBy: { createdAt: 'desc' } })
  return rows.map((token) => ({ token, lastUsedAt: lastUseOf(em, token) }))
}

/** Create a scoped token; scopes above the caller's role are refused. */
export async function createToken(scope: Scope, actor: Actor, input: TokenCreateModel): Promise<IssuedToken> {
  const scopes = [...new Set(input.scopes)]
  if (grantable(scopes, actor.user.role).length !== scopes.length) throw badRequest('令牌权限超出账户角色')
  const secret = FLAGWAVE_PREFIX + randomBytes(32).toString('base64url')
  const expiresAt = input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * 86_400_000)
  const token = await scope.em.transactional(async (tx) => {
    await lockTokensOf(tx, actor.user.id)
    await assertRoomForToken(tx, actor.user.id)
    const row = tx.create(ApiToken, { id: randomUUID(), user: actor.user.id, kind: 'Flagwave', name: input.name, secretHash: sha256(secret), scopes, expiresAt })
    await tx.flush()
    return row
  })
  await scope.services.audit.success(actor, `创建 API 令牌 ${token.name}（${scopes.join(', ')}）`)
  return { token, secret }
}

/** Concurrent creations by one account are serialised, so the limit holds. */
const lockTokensOf = (tx: EntityManager, userId: string) => tx.getConnection().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`api-tokens:${userId}`])

async function assertRoomForToken(tx: EntityManager, userId: string): Promise<void> {
  const active = await tx.count(ApiToken, { user: userId, revokedAt: null })
  if (active >= MAX_ACTIVE_TOKENS) throw badRequest(`最多只能拥有 ${MAX_ACTIVE_TOKENS} 个有效令牌`)
}

/** Revoke one of the caller's tokens; it stops working on every node when this commits. */
export async function revokeOwnToken(scope: Scope, actor: Actor, id: string): Promise<void> {
  const token = await scope.em.findOne(ApiToken, { id, user: actor.user.id })
  if (!token) throw notFound(TOKEN_NOT_FOUND)
  if (token.revokedAt) return
  token.revokedAt = new Date()
  await scope.em.flush()
  // Sockets opened with the token go too; the owner's browser sockets reconnect by themselves.
  scope.events.disconnectUser(actor.user.id)
  await scope.services.audit.success(actor, `吊销 API 令牌 ${token.name}`)
}

/* ---- commands: GZ::CTF 1.5 admin tokens (/api/tokens) ---- */

export async function listGzTokens(em: EntityManager): Promise<TokenRecord[]> {
  const rows = await em.find(ApiToken, { kind: 'GzCtf' }, { orderBy: { createdAt: 'desc' }, populate: ['user'] })
  return rows.map((token) => ({ token, lastUsedAt: lastUseOf(em, token) }))
}

/** A GZ::CTF admin token: full access while its creator is an admin. */
export async function createGzToken(scope: Scope, actor: Actor, input: GzTokenCreateModel): Promise<IssuedToken> {
  const expiresAt = input.expiresIn ? new Date(Date.now() + input.expiresIn * 86_400_000) : null
  const token = await scope.em.transactional(async (tx) => {
    await lockTokensOf(tx, actor.user.id)
    await assertRoomForToken(tx, actor.user.id)
    const row = tx.create(ApiToken, { id: randomUUID(), user: actor.user.id, kind: 'GzCtf', name: input.name, secretHash: null, scopes: ['admin'], expiresAt })
    await tx.flush()
    return row
  })
  await scope.em.populate(token, ['user'])
  const secret = await gzTokenString(scope.em, token)
  await scope.services.audit.success(actor, `创建 API 令牌 ${token.name}（GZ::CTF）`)
  return { token, secret }
}

async function findGzToken(em: EntityManager, id: string): Promise<ApiToken> {
  const token = await em.findOne(ApiToken, { id, kind: 'GzCtf' })
  if (!token) throw notFound(TOKEN_NOT_FOUND)
  return token
}

export async function restoreGzToken(scope: Scope, actor: Actor, id: string): Promise<void> {
  const token = await findGzToken(scope.em, id)
  token.revokedAt = null
  await scope.em.flush()
  await scope.services.audit.success(actor, `恢复 API 令牌 ${token.name}`)
}

/** Revoke (or with `remove`, delete) a GZ::CTF token. */
export async function revokeGzToken(scope: Scope, actor: Actor, id: string, remove: boolean): Promise<void> {
  const token = await findGzToken(scope.em, id)
  const ownerId = (token.user as User).id
  if (remove) scope.em.remove(token)
  else token.revokedAt ??= new Date()
  await scope.em.flush()
  scope.events.disconnectUser(ownerId)
  await scope.services.audit.success(actor, `${remove ? '删除' : '吊销'} API 令牌 ${token.name}`)
}
