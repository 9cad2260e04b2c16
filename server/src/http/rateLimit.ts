/**
 * Rate limits of docs/compatibility.md#rate-limits with rate-limiter-flexible: in memory on one node, in Redis
 * when REDIS_URL is set so every node shares the counters. Named policies are partitioned per
 * user (or per IP for anonymous callers); the global limiter exempts loopback like the reference,
 * judged by the TCP peer of a request that was not forwarded (http/clientIp.ts), never by a header.
 */
import type { Context, Middleware } from 'koa'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { tooManyRequests } from '../lib/errors.js'

export type PolicyName = 'Register' | 'Submit' | 'Container' | 'Concurrency' | 'Login' | 'InviteCode' | 'Replay'

interface PolicyShape {
  points: number
  duration: number
}

/**
 * Token buckets of the reference are approximated by fixed windows with the same long-run rate
 * and burst: Submit 60 per 10 s, Container 120 per 40 s. Login and InviteCode are our additions
 * against brute force (issue: hostile input); Replay bounds the public's board seeks, each of which
 * can cost a full rebuild of the board (docs/scoring.md#replay).
 */
const POLICIES: Record<Exclude<PolicyName, 'Concurrency'>, PolicyShape> = {
  Register: { points: 20, duration: 150 },
  Submit: { points: 60, duration: 10 },
  Container: { points: 120, duration: 40 },
  Login: { points: 30, duration: 60 },
  InviteCode: { points: 30, duration: 60 },
  Replay: { points: 30, duration: 60 },
}
const GLOBAL: PolicyShape = { points: 150, duration: 60 }

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>()
  constructor(
    private readonly redis: Redis | null,
    readonly enabled: boolean,
  ) {}

  private limiter(name: string, shape: PolicyShape): RateLimiterAbstract {
    let limiter = this.limiters.get(name)
    if (!limiter) {
      const options = { keyPrefix: `rl:${name}`, points: shape.points, duration: shape.duration }
      limiter = this.redis ? new RateLimiterRedis({ storeClient: this.redis, ...options }) : new RateLimiterMemory(options)
      this.limiters.set(name, limiter)
    }
    return limiter
  }

  /** Consume one point; throws the contract's 429 when the partition is exhausted. */
  async consume(name: PolicyName | 'Global', key: string): Promise<void> {
    if (!this.enabled || name === 'Concurrency') return
    const shape = name === 'Global' ? GLOBAL : POLICIES[name]
    try {
      await this.limiter(name, shape).consume(key)
    } catch (res) {
      if (res instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000))
        throw tooManyRequests(`Too many requests, retry after ${seconds} seconds.`, seconds)
      }
      throw res
    }
  }
}

/** The partition of a caller's limits: their user, or their address when anonymous. */
export const partitionKey = (ctx: Context): string => (ctx.state.user ? `u:${ctx.state.user.id}` : `ip:${ctx.clientIp}`)

export function globalRateLimit(): Middleware {
  return async (ctx, next) => {
    if (!ctx.localCaller) await ctx.services.limits.consume('Global', partitionKey(ctx))
    await next()
  }
}

export function rateLimit(policy: PolicyName): Middleware {
  return async (ctx, next) => {
    await ctx.services.limits.consume(policy, partitionKey(ctx))
    await next()
  }
}
