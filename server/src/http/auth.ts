/**
 * Session loading and the one authorization helper. The session cookie is checked against
 * the server-side store on every request, so logout, bans and password changes take effect
 * at once. `authorize()` runs before any body parsing, so 401/403 win over 400 (docs/compatibility.md#sessions-and-roles).
 */
import type { Context, Middleware } from 'koa'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { SESSION_COOKIE, resolveSession, touchUser } from '../domain/accounts/sessions.js'
import { forbidden, unauthorized } from '../lib/errors.js'

export function loadSession(): Middleware {
  return async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE)
    if (token) {
      const resolved = await resolveSession(ctx.em, token)
      if (resolved) {
        ctx.state.user = resolved.user
        ctx.state.session = resolved.session
        if (resolved.renewed) setSessionCookie(ctx, token, resolved.session.expiresAt)
        await touchUser(ctx.em, resolved, ctx.clientIp)
      }
    }
    await next()
  }
}

/** Require at least `role`: no session → 401 `请先登录`, lower role → 403 `无权访问`. */
export function assertRole(ctx: Context, role: Role): asserts ctx is Context & { state: { user: NonNullable<Context['state']['user']> } } {
  const user = ctx.state.user
  if (!user) throw unauthorized()
  if (roleRank(user.role) < roleRank(role)) throw forbidden()
}

export function setSessionCookie(ctx: Context, token: string, expires: Date): void {
  ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', expires, secure: ctx.secure, overwrite: true })
}

export function clearSessionCookie(ctx: Context): void {
  const expired = { httpOnly: true, sameSite: 'lax' as const, path: '/', expires: new Date(0), secure: ctx.secure, overwrite: true }
  ctx.cookies.set(SESSION_COOKIE, '', expired)
  ctx.cookies.set('Identity.External', '', expired)
  ctx.cookies.set('Identity.TwoFactorUserId', '', expired)
}
