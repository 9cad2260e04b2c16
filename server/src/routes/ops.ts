/**
 * Operations endpoints, Flagwave additions outside the GZ::CTF contract (docs/operations.md#metrics,
 * #health-checks). `GET /healthz` (alive) is answered in app.ts ahead of the session and rate
 * limits.
 */
import { z } from 'zod'
import { RAW, route } from '../http/route.js'
import { problem } from '../lib/errors.js'
import { mayReadMetrics } from '../http/metricsAccess.js'
import { readiness } from '../domain/ops/readiness.js'

const Check = z.enum(['ok', 'failed', 'skipped'])
const ReadinessModel = z.object({
  status: z.literal('Ready'),
  checks: z.object({ database: Check, redis: Check, containers: Check, storage: Check }),
})

export const opsRoutes = [
  route({
    method: 'GET',
    path: '/metrics',
    response: 'file:text/plain',
    summary: 'Prometheus metrics; only with the METRICS_TOKEN bearer token or from a METRICS_ALLOW address, otherwise 404',
    handler: async (ctx) => {
      // 404, as for a path that does not exist: a scanner learns nothing about the endpoint.
      if (!mayReadMetrics(ctx)) throw problem(404)
      const text = await ctx.services.metrics.render()
      ctx.status = 200
      ctx.set('Cache-Control', 'no-store')
      ctx.type = ctx.services.metrics.contentType
      ctx.body = text
      return RAW
    },
  }),
  route({
    method: 'GET',
    path: '/readyz',
    response: ReadinessModel,
    summary: 'Readiness: database, Redis, container engine and file store reachable; 503 naming the parts that failed',
    handler: async (ctx) => {
      const { ready, checks } = await readiness(ctx.services)
      ctx.set('Cache-Control', 'no-store')
      if (ready) return { status: 'Ready', checks }
      const failed = Object.entries(checks).filter(([, result]) => result === 'failed').map(([part]) => part)
      ctx.status = 503
      ctx.type = 'application/json; charset=utf-8'
      ctx.body = JSON.stringify({ title: `Not ready: ${failed.join(', ')}`, status: 503, checks })
      return RAW
    },
  }),
]
