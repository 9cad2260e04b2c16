/**
 * Reading a request the way Koa would, for the answers sent from Node's request event without it
 * (http/hotReads.ts, http/hotSubmissions.ts): its cookies and whether it came over TLS.
 */
import type { IncomingMessage } from 'node:http'
import { SESSION_COOKIE } from '../domain/accounts/sessions.js'
import type { ProxyTrust } from '../lib/clientAddress.js'

const XSRF_COOKIE = 'XSRF-TOKEN'

/**
 * The session cookie of a request and its XSRF cookie, each the first of its name as Koa's cookie
 * reader takes it (null when absent; an empty XSRF cookie counts as none, as in http/xsrf.ts).
 */
export function cookiesOf(header: string | undefined): { session: string | null; xsrf: string | null } {
  if (!header) return { session: null, xsrf: null }
  let session: string | null = null
  let xsrf: string | null = null
  let xsrfSeen = false
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    if (name === SESSION_COOKIE && session === null) session = part.slice(eq + 1).trim()
    else if (name === XSRF_COOKIE && !xsrfSeen) {
      xsrfSeen = true
      const value = part.slice(eq + 1).trim()
      xsrf = value === '' ? null : value
    }
  }
  return { session, xsrf }
}

/** Koa's `ctx.secure` with `app.proxy` = TRUST_PROXY, where http/clientIp.ts drops an untrusted peer's forwarded headers. */
export function isSecure(req: IncomingMessage, peer: string, trust: ProxyTrust): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true
  if (!trust.enabled || !trust.isTrusted(peer)) return false
  const proto = req.headers['x-forwarded-proto']
  return typeof proto === 'string' && proto.split(/\s*,\s*/, 1)[0] === 'https'
}
