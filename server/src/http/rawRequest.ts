/**
 * Reading a request the way Koa would, for the answers sent from Node's request event without it
 * (http/hotReads.ts, http/hotSubmissions.ts): its cookies and whether it came over TLS.
 */
import type { IncomingMessage } from 'node:http'
import { SESSION_COOKIE } from '../domain/accounts/sessions.js'
import type { ProxyTrust } from '../lib/clientAddress.js'

const XSRF_COOKIE = 'XSRF-TOKEN'

/** A cookie's value as Koa's reader (the `cookies` package) takes it: the first of its name, one pair of quotes removed. */
function cookieValue(header: string, pattern: RegExp): string | null {
  const match = pattern.exec(header)
  if (!match) return null
  const value = match[1]!
  return value[0] === '"' ? value.slice(1, -1) : value
}

const SESSION_PATTERN = new RegExp(`(?:^|;) *${SESSION_COOKIE}=([^;]*)`)
const XSRF_PATTERN = new RegExp(`(?:^|;) *${XSRF_COOKIE}=([^;]*)`)

/**
 * The session cookie of a request and its XSRF cookie, exactly as Koa reads them (null when
 * absent; an empty XSRF cookie counts as none, as in http/xsrf.ts).
 */
export function cookiesOf(header: string | undefined): { session: string | null; xsrf: string | null } {
  if (!header) return { session: null, xsrf: null }
  return { session: cookieValue(header, SESSION_PATTERN), xsrf: cookieValue(header, XSRF_PATTERN) || null }
}

/** Koa's `ctx.secure` with `app.proxy` = TRUST_PROXY, where http/clientIp.ts drops an untrusted peer's forwarded headers. */
export function isSecure(req: IncomingMessage, peer: string, trust: ProxyTrust): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true
  if (!trust.enabled || !trust.isTrusted(peer)) return false
  const proto = req.headers['x-forwarded-proto']
  return typeof proto === 'string' && proto.split(/\s*,\s*/, 1)[0] === 'https'
}
