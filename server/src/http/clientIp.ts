import type { IncomingMessage } from 'node:http'
import type { Middleware } from 'koa'
import { resolveClientAddress, isLoopback, type ProxyTrust } from '../lib/clientAddress.js'

/** Headers through which a proxy describes the original request; believed only from a trusted proxy. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'] as const

/** The request's client address; an untrusted peer's forwarded headers are removed from it (for Koa and the answers sent without it). */
export function resolveRequestAddress(req: IncomingMessage, trust: ProxyTrust): ReturnType<typeof resolveClientAddress> {
  const resolved = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trust)
  if (trust.enabled && !trust.isTrusted(resolved.peer)) {
    for (const name of FORWARDED_HEADERS) delete req.headers[name]
  }
  return resolved
}

/**
 * Resolves the client address once (docs/compatibility.md#other-global-rules): X-Forwarded-For counts only when TRUST_PROXY
 * is set and the TCP peer is one of TRUSTED_PROXIES, and then only up to the right-most hop that is
 * not a trusted proxy (lib/clientAddress.ts). From any other peer the forwarded headers are
 * removed, so Koa's `ctx.host`, `ctx.protocol` and `ctx.secure` (which read X-Forwarded-Host and
 * X-Forwarded-Proto when `app.proxy` is on) cannot be steered by a client either.
 */
export function clientIp(trust: ProxyTrust): Middleware {
  return async (ctx, next) => {
    const resolved = resolveRequestAddress(ctx.req, trust)
    ctx.clientIp = resolved.ip
    // The global limiter's exemption is for callers on this machine, judged by the socket alone:
    // a forwarded request (even one claiming 127.0.0.1) is never local.
    ctx.localCaller = !resolved.forwarded && isLoopback(resolved.peer)
    await next()
  }
}
