/**
 * Per-request plumbing: a request id, a child logger, a forked EntityManager, the realtime
 * outbox (flushed only after a successful response, i.e. after the data committed), and
 * structured access logs.
 */
import { randomUUID } from 'node:crypto'
import type { Middleware } from 'koa'
import { Outbox } from '../realtime/outbox.js'

export function requestContext(): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint()
    const requestId = ctx.get('X-Request-Id') || randomUUID()
    ctx.state.requestId = requestId
    ctx.state.log = ctx.services.log.child({ requestId })
    ctx.set('X-Request-Id', requestId)
    ctx.em = ctx.services.orm.em.fork()
    ctx.outbox = new Outbox()
    try {
      await next()
    } finally {
      // The change has committed: a push that fails is logged, never turned into an error answer.
      if (ctx.status < 400) await ctx.outbox.flush(ctx.services.realtime).catch((err: unknown) => ctx.state.log.error({ err }, 'realtime flush failed'))
      else ctx.outbox.discard()
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (ctx.path !== '/healthz') {
        ctx.state.log[ctx.status >= 500 ? 'error' : 'info'](
          { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, user: ctx.state.user?.userName, ip: ctx.clientIp },
          'request',
        )
      }
    }
  }
}
