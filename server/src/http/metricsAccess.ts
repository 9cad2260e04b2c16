/**
 * Who may read `GET /metrics` (docs/operations.md#metrics): a caller presenting `METRICS_TOKEN` as a
 * Bearer token, or a client address in `METRICS_ALLOW`. The address is the one resolved by
 * http/clientIp.ts, so an `X-Forwarded-For` counts only from a trusted proxy and cannot be
 * spoofed. A session, even an Admin's, opens nothing: metrics are for the monitoring system.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import net from 'node:net'
import type { Context } from 'koa'
import { parseTrustedProxies } from '../lib/clientAddress.js'

const allowLists = new WeakMap<object, net.BlockList>()

function allowListOf(config: { readonly METRICS_ALLOW: string }): net.BlockList {
  let list = allowLists.get(config)
  if (!list) {
    list = parseTrustedProxies(config.METRICS_ALLOW).list
    allowLists.set(config, list)
  }
  return list
}

const digest = (value: string) => createHash('sha256').update(value).digest()

export function mayReadMetrics(ctx: Context): boolean {
  const { METRICS_TOKEN } = ctx.services.config
  const authorization = ctx.get('Authorization')
  if (METRICS_TOKEN && /^Bearer /i.test(authorization)) {
    // Equal-length digests: the comparison takes the same time whatever was sent.
    if (timingSafeEqual(digest(authorization.slice(7).trim()), digest(METRICS_TOKEN))) return true
  }
  const ip = ctx.clientIp
  if (!ip || net.isIP(ip) === 0) return false
  return allowListOf(ctx.services.config).check(ip, net.isIPv4(ip) ? 'ipv4' : 'ipv6')
}
