/**
 * CSRF (docs/compatibility.md#xsrf): a readable XSRF-TOKEN cookie that our client echoes in X-XSRF-TOKEN.
 * An unsafe request carrying the session cookie is refused when it is a cross-site browser
 * request (lib/crossSite.ts: Sec-Fetch-Site, else Origin against PUBLIC_URL, a trusted proxy's
 * forwarded host, or Host), or when it sends an X-XSRF-TOKEN that does not match the cookie.
 * Clients written for GZ::CTF send neither header and are unaffected.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Middleware } from 'koa'
import { SESSION_COOKIE } from '../domain/accounts/sessions.js'
import { AppError } from '../lib/errors.js'
import { isCrossSite, type SitePolicy } from '../lib/crossSite.js'

const XSRF_COOKIE = 'XSRF-TOKEN'
const XSRF_HEADER = 'X-XSRF-TOKEN'
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

export function xsrf(policy: SitePolicy): Middleware {
  return async (ctx, next) => {
    // A token caller sends no cookies a foreign page could ride on: nothing to protect, nothing to hand out.
    if (ctx.state.token) return next()
    const cookie = ctx.cookies.get(XSRF_COOKIE)
    if (!SAFE.has(ctx.method) && ctx.cookies.get(SESSION_COOKIE)) {
      const crossSite = isCrossSite(ctx.req.headers, ctx.req.socket.remoteAddress, policy)
      const header = ctx.get(XSRF_HEADER)
      const mismatch = header !== '' && (!cookie || !safeEqual(header, cookie))
      if (crossSite || mismatch) throw new AppError(403, '跨站请求已被拒绝', 403)
    }
    if (!cookie) {
      ctx.cookies.set(XSRF_COOKIE, newXsrfToken(), { httpOnly: false, sameSite: 'lax', path: '/', secure: ctx.secure, overwrite: true })
    }
    await next()
  }
}

const newXsrfToken = () => randomBytes(24).toString('base64url')

/**
 * The same cookie as a `Set-Cookie` value, for answers sent without Koa (http/hotReads.ts): the
 * attributes the middleware above sets, in the order Koa's cookie writer puts them.
 */
export const xsrfSetCookie = (secure: boolean): string => `${XSRF_COOKIE}=${newXsrfToken()}; path=/; samesite=lax${secure ? '; secure' : ''}`

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
