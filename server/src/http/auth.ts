/**
 * Session loading and the one authorization helper. The session cookie is checked against
 * the server-side store on every request, so logout, bans and password changes take effect
 * at once; so is an API token (`Authorization: Bearer`, docs/architecture.md#api-tokens). `authorize()` runs before any body parsing, so 401/403 win over 400 (docs/compatibility.md#sessions-and-roles).
 */
import type { Context, Middleware } from 'koa'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { SESSION_COOKIE, resolveSession, touchUser } from '../domain/accounts/sessions.js'
import { AppError, forbidden, unauthorized } from '../lib/errors.js'
import type { TokenScope } from '@flagwave/shared/schemas/tokens'
import { authenticateBearer, scopeAllows } from '../domain/accounts/apiTokens.js'
import { bearerOf } from '../lib/bearer.js'
import { enrolmentRequired, mustEnrol } from '../domain/accounts/twoFactor.js'
import { SIGNED_IN_COOKIE } from '@flagwave/shared/limits'

/** Paths whose `Authorization: Bearer` is their own secret, not an API token: `/metrics` takes METRICS_TOKEN (http/metricsAccess.ts). */
const OWN_BEARER_PATHS = new Set(['/metrics'])

export function loadSession(): Middleware {
  return async (ctx, next) => {
    const bearer = OWN_BEARER_PATHS.has(ctx.path) ? null : bearerOf(ctx.get('Authorization'), ctx.path.startsWith('/hub/') ? ctx.query.access_token : undefined)
    if (bearer !== null) {
      await loadToken(ctx, bearer)
      return next()
    }
    const token = ctx.cookies.get(SESSION_COOKIE)
    if (token) {
      const resolved = await resolveSession(ctx.em, token)
      if (resolved) {
        ctx.state.user = resolved.user
        ctx.state.session = resolved.session
        if (resolved.renewed) setSessionCookie(ctx, token, resolved.session.expiresAt)
        touchUser(ctx.services.visits, resolved, ctx.clientIp)
      } else {
        // Expired, revoked or forged: drop the cookie and its marker, so the client stops asking as someone.
        clearSessionCookie(ctx)
      }
    }
    await next()
  }
}

/** A request with a token is that token's owner, whatever cookie it also carries; a bad token is a 401, never anonymous. */
async function loadToken(ctx: Context, bearer: string): Promise<void> {
  const principal = await authenticateBearer(ctx.em, bearer)
  if (!principal) throw unauthorized(INVALID_TOKEN)
  ctx.state.user = principal.user
  ctx.state.token = principal.token
}

const INVALID_TOKEN = '令牌无效或已过期'

/** A token refused by the route: a missing scope, or a route no token may call. */
export function assertTokenScope(scopes: readonly TokenScope[], needed: TokenScope | 'never'): void {
  if (needed === 'never') throw forbidden('API 令牌不能用于此操作')
  if (!scopeAllows(scopes, needed)) throw new AppError(403, '令牌权限不足', 403, { kind: 'request', extra: { requiredScope: needed } })
}

/** An account the two-factor policy holds at enrolment may call only the routes marked `enrolment`. */
export async function assertEnrolled(ctx: Context): Promise<void> {
  const user = ctx.state.user
  if (!user || user.twoFactorSecret) return
  if (mustEnrol(await ctx.services.settings.get(ctx.em), user)) throw enrolmentRequired()
}

/** Require at least `role`: no session → 401 `请先登录`, lower role → 403 `无权访问`. */
export function assertRole(ctx: Context, role: Role): asserts ctx is Context & { state: { user: NonNullable<Context['state']['user']> } } {
  const user = ctx.state.user
  if (!user) throw unauthorized()
  if (roleRank(user.role) < roleRank(role)) throw forbidden()
}

export function setSessionCookie(ctx: Context, token: string, expires: Date): void {
  ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', expires, secure: ctx.secure, overwrite: true })
  ctx.cookies.set(SIGNED_IN_COOKIE, '1', { httpOnly: false, sameSite: 'lax', path: '/', expires, secure: ctx.secure, overwrite: true })
}

/**
 * The SPA page keeps the client's marker in step with the session this request resolved (a session
 * from before the marker existed gains it; one that lapsed loses it), docs/compatibility.md#sessions-and-roles.
 */
export function syncSignedInMarker(ctx: Context): void {
  const session = ctx.state.session
  const marked = ctx.cookies.get(SIGNED_IN_COOKIE) !== undefined
  if (session && !marked) ctx.cookies.set(SIGNED_IN_COOKIE, '1', { httpOnly: false, sameSite: 'lax', path: '/', expires: session.expiresAt, secure: ctx.secure, overwrite: true })
  if (!session && marked) ctx.cookies.set(SIGNED_IN_COOKIE, '', { httpOnly: false, sameSite: 'lax', path: '/', expires: new Date(0), secure: ctx.secure, overwrite: true })
}

/** The signed ticket between a correct password and the second step (ASP.NET Identity's name for it). */
export const TWO_FACTOR_TICKET_COOKIE = 'Identity.TwoFactorUserId'
/** A remembered device: sign-ins from this browser skip the second step (docs/compatibility.md#two-factor-authentication). */
export const TWO_FACTOR_DEVICE_COOKIE = 'Flagwave.TwoFactorDevice'

export function setTwoFactorCookie(ctx: Context, name: typeof TWO_FACTOR_TICKET_COOKIE | typeof TWO_FACTOR_DEVICE_COOKIE, value: string, lifetimeMs: number): void {
  ctx.cookies.set(name, value, { httpOnly: true, sameSite: 'lax', path: '/api/account', expires: new Date(Date.now() + lifetimeMs), secure: ctx.secure, overwrite: true })
}

export function clearTwoFactorTicket(ctx: Context): void {
  ctx.cookies.set(TWO_FACTOR_TICKET_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/api/account', expires: new Date(0), secure: ctx.secure, overwrite: true })
}

export function clearSessionCookie(ctx: Context): void {
  const expired = { httpOnly: true, sameSite: 'lax' as const, path: '/', expires: new Date(0), secure: ctx.secure, overwrite: true }
  ctx.cookies.set(SESSION_COOKIE, '', expired)
  ctx.cookies.set('Identity.External', '', expired)
  ctx.cookies.set('Identity.TwoFactorUserId', '', expired)
  ctx.cookies.set(SIGNED_IN_COOKIE, '', { ...expired, httpOnly: false })
}
