/**
 * The authorization code flow with PKCE (docs/compatibility.md#single-sign-on). `startSso` stores
 * the PKCE verifier and the nonce under the SHA-256 of a random `state` and hands the state back
 * for the browser's cookie; `completeSso` takes the row out as it reads it (each serves once),
 * requires the state of the query to be the cookie's, redeems the code and checks the ID token
 * (issuer, audience, signature, nonce), then signs in or links in one transaction.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type pg from 'pg'
import * as oidc from 'openid-client'
import type { EntityManager } from '@mikro-orm/postgresql'
import { SsoLogin } from '../../entities/SsoLogin.js'
import type { SsoProvider } from '../../entities/SsoProvider.js'
import type { User } from '../../entities/User.js'
import type { Session } from '../../entities/Session.js'
import type { RequestInfo } from '../accounts/identity.js'
import type { IssuedSession } from '../accounts/sessions.js'
import type { Scope } from '../scope.js'
import { AppError } from '../../lib/errors.js'
import { ssoError } from './errors.js'
import { clientConfiguration, findEnabledProvider } from './providers.js'
import { signInWithClaims, linkIdentity, type Claims } from './accounts.js'

/** How long a started sign-in may take at the provider. */
export const SSO_LOGIN_TTL_MS = 10 * 60 * 1000

const hashState = (state: string): string => createHash('sha256').update(state).digest('hex')

/** The `sso_logins.return_to` column. */
const RETURN_TO_MAX = 512
/** OpenID Connect Core 1.0 §2: `sub` is at most 255 ASCII characters (the column of `user_identities.subject`). */
const SUBJECT_MAX = 255

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)

/**
 * Only a path of this site: `/games/1?x=y`, never `//evil.example`, `/\evil.example`, a scheme or
 * a control character. Anything else means the home page.
 */
function safeReturnTo(value: string | undefined): string {
  if (!value || value.length > RETURN_TO_MAX || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return '/'
  const parsed = new URL(value, 'http://flagwave.invalid')
  if (parsed.origin !== 'http://flagwave.invalid') return '/'
  // Percent-encoding may lengthen it past the column.
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`
  return path.length <= RETURN_TO_MAX ? path : '/'
}

export interface StartedSso {
  url: string
  /** For the browser's cookie; the callback must bring it back. */
  state: string
  expiresAt: Date
}

/** Begin a sign-in (or, with `linkUser`, the linking of an identity) at an enabled provider. */
export async function startSso(scope: Scope, providerId: string, redirectUri: string, returnTo: string | undefined, linkUser: User | null): Promise<StartedSso> {
  const provider = await findEnabledProvider(scope.em, providerId)
  if (!provider) throw ssoError('unknown_provider')
  const config = await clientConfiguration(provider)
  const state = oidc.randomState()
  const nonce = oidc.randomNonce()
  const codeVerifier = oidc.randomPKCECodeVerifier()
  const expiresAt = new Date(Date.now() + SSO_LOGIN_TTL_MS)
  scope.em.create(SsoLogin, { id: hashState(state), provider: provider.id, codeVerifier, nonce, returnTo: safeReturnTo(returnTo), linkUser: linkUser?.id ?? null, expiresAt })
  await scope.em.flush()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  })
  return { url: url.href, state, expiresAt }
}

export type SsoOutcome =
  | { kind: 'signedIn'; user: User; session: IssuedSession; returnTo: string }
  | { kind: 'linked'; user: User; returnTo: string }

export interface SsoCallback {
  /** The callback's query string as the provider sent it. */
  query: URLSearchParams
  /** The state cookie the browser brought. */
  stateCookie: string | undefined
  redirectUri: string
  req: RequestInfo
  /** The request's session: replaced by a sign-in, required (and kept) by a link. */
  session: Session | undefined
  user: User | undefined
}

/** What went wrong in the flow, and where the browser goes back to: the profile for a link, the sign-in page otherwise. */
export interface SsoFailureContext {
  linking: boolean
}

interface PendingLogin {
  provider: string
  codeVerifier: string
  nonce: string
  returnTo: string
  linkUserId: string | null
}

/** Consume the started sign-in of `state`: gone afterwards, whatever follows. */
async function takeLogin(em: EntityManager, state: string): Promise<PendingLogin | null> {
  const rows = await em.execute<{ provider: string; code_verifier: string; nonce: string; return_to: string; link_user_id: string | null; expires_at: Date }[]>(
    'delete from sso_logins where id = ? returning provider, code_verifier, nonce, return_to, link_user_id, expires_at',
    [hashState(state)],
  )
  const row = rows[0]
  if (!row || new Date(row.expires_at).getTime() <= Date.now()) return null
  return { provider: row.provider, codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to, linkUserId: row.link_user_id }
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * Finish a sign-in or link. Throws `ssoError`s; `context.linking` tells the caller where the
 * browser should land afterwards, also on failure.
 */
export async function completeSso(scope: Scope, providerId: string, callback: SsoCallback, context: SsoFailureContext): Promise<SsoOutcome> {
  const state = callback.query.get('state') ?? ''
  if (!state || !callback.stateCookie || !sameText(state, callback.stateCookie)) throw ssoError('invalid_state')
  const pending = await takeLogin(scope.em, state)
  if (!pending || pending.provider !== providerId) throw ssoError('invalid_state')
  context.linking = pending.linkUserId !== null
  if (context.linking && pending.linkUserId !== callback.user?.id) throw ssoError('invalid_state')
  if (callback.query.has('error')) throw ssoError('denied')

  const provider = await findEnabledProvider(scope.em, providerId)
  if (!provider) throw ssoError('unknown_provider')
  const claims = await redeem(provider, callback, pending)

  if (context.linking) {
    const user = await linkIdentity(scope, provider, claims, callback.user!)
    return { kind: 'linked', user, returnTo: pending.returnTo }
  }
  const { user, session } = await signInWithClaims(scope, provider, claims, callback.req, callback.session)
  return { kind: 'signedIn', user, session, returnTo: pending.returnTo }
}

/** Token request, ID token checks and userinfo; the claims of both, the ID token's `sub` binding. */
async function redeem(provider: SsoProvider, callback: SsoCallback, pending: PendingLogin): Promise<Claims> {
  const config = await clientConfiguration(provider)
  const current = new URL(callback.redirectUri)
  current.search = callback.query.toString()
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedNonce: pending.nonce,
      expectedState: callback.query.get('state') ?? undefined,
      idTokenExpected: true,
    })
    const idToken = tokens.claims()
    if (!idToken || idToken.sub.length > SUBJECT_MAX) throw ssoError('exchange_failed')
    let userinfo: Record<string, unknown> = {}
    if (config.serverMetadata().userinfo_endpoint) userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)
    return { ...userinfo, ...idToken }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw ssoError(unreachable(err) ? 'provider_unavailable' : 'exchange_failed')
  }
}

/** A network failure or a provider answering 5xx, as opposed to a refused or malformed answer. */
function unreachable(err: unknown): boolean {
  if (err instanceof oidc.ResponseBodyError) return err.status >= 500
  if (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.WWWAuthenticateChallengeError) return false
  if (err instanceof oidc.ClientError) {
    const cause = (err as { cause?: unknown }).cause
    return cause instanceof Response ? cause.status >= 500 : err.code === 'OAUTH_TIMEOUT' || cause instanceof TypeError
  }
  return err instanceof TypeError || (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
}

/** Delete the sign-ins started and never finished, once expired (docs/operations.md#purging). Returns how many went. */
export async function purgeExpiredSsoLogins(pool: pg.Pool, now = new Date()): Promise<number> {
  const { rowCount } = await pool.query('delete from sso_logins where expires_at <= $1', [now])
  return rowCount ?? 0
}
