import type { Middleware } from 'koa'

/** Resolves the client address once; forwarded headers count only when TRUST_PROXY is set (CONTRACT §2.10). */
export function clientIp(trustProxy: boolean): Middleware {
  return async (ctx, next) => {
    const forwarded = trustProxy ? ctx.get('X-Forwarded-For').split(',')[0]?.trim() : ''
    const raw = forwarded || ctx.req.socket.remoteAddress || ''
    ctx.clientIp = raw.startsWith('::ffff:') ? raw.slice(7) : raw
    await next()
  }
}

export const isLoopback = (ip: string): boolean => ip === '' || ip === '::1' || ip.startsWith('127.')
