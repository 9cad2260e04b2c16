/**
 * Response compression (docs/architecture.md#request-flow). JSON answers of a few kilobytes — the
 * board, notices, a challenge — are gzipped in one synchronous call: about 60 µs for 9 KB, far
 * less than a zlib stream's setup, thread-pool round trips and chunked writes, which cost more
 * than the request itself. Larger bodies and streams (file downloads) go through koa-compress.
 */
import { gzipSync } from 'node:zlib'
import type { Middleware } from 'koa'
import compress from 'koa-compress'

const THRESHOLD = 2048
/** Above this, one synchronous call could hold the event loop for more than a millisecond. */
const SYNC_LIMIT = 64 * 1024

export function compression(): Middleware {
  const streamed = compress({ threshold: THRESHOLD, br: false })
  return (ctx, next) =>
    streamed(ctx, async () => {
      await next()
      const body = ctx.body
      if (typeof body !== 'string' && !Buffer.isBuffer(body)) return
      const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length
      if (size < THRESHOLD || size > SYNC_LIMIT || ctx.method === 'HEAD' || ctx.response.get('Content-Encoding')) return
      if (!/json|text|javascript/.test(ctx.response.type) || ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') return
      ctx.vary('Accept-Encoding')
      const type = ctx.response.get('Content-Type')
      ctx.body = gzipSync(body)
      ctx.set('Content-Type', type)
      ctx.set('Content-Encoding', 'gzip')
    })
}
