/**
 * Counts every HTTP request for `GET /metrics` (lib/metrics.ts): its latency until the answer is
 * decided (not the time the body takes to reach the client) and its status, under the label of
 * the route that answered (`ctx.routeLabel`) or `other`. Outermost, so rate-limited and refused
 * requests count too. Two clock reads and a few additions per request.
 */
import type { Middleware } from 'koa'
import { OTHER_ROUTE } from '../lib/metrics.js'

export function requestMetrics(): Middleware {
  return async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      ctx.services.metrics.request(ctx.routeLabel ?? OTHER_ROUTE, (performance.now() - started) / 1000, ctx.status)
    }
  }
}
