/**
 * The scoreboard versions shared through Redis: the owner stores every version it makes
 * (`flagwave:scoreboard:{gameId}`), so any node can serve a board it does not own, and announces
 * it on a channel, so the nodes holding an older copy drop theirs. Entries carry the database
 * they belong to, so nodes of other deployments sharing the Redis never mix boards.
 */
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { ScoreboardSnapshot } from './snapshot.js'

const redisKey = (gameId: number) => `flagwave:scoreboard:${gameId}`
/** Channels escape ioredis' keyPrefix, so the snapshot channel carries the namespace itself. */
const snapshotChannel = (redis: Redis) => `${redis.options.keyPrefix ?? ''}scoreboard`
/** Stored copies outlive the game's activity by a day. */
const COPY_TTL_S = 24 * 3600

export class SharedCopies {
  private sub: Redis | null = null

  constructor(
    private readonly redis: Redis,
    /** The database this deployment runs on (`name@port`). */
    private readonly db: string,
    private readonly log: Logger,
  ) {}

  /** Listen for other nodes' announcements: `onNewer(gameId, version)` for each. */
  async start(onNewer: (gameId: number, version: number) => void): Promise<void> {
    this.sub = this.redis.duplicate()
    this.sub.on('message', (_channel, message) => {
      try {
        const { db, gameId, version } = JSON.parse(message) as { db: string; gameId: number; version: number }
        if (db === this.db) onNewer(gameId, version)
      } catch {
        // not ours
      }
    })
    this.sub.on('error', (err) => this.log.warn({ err }, 'scoreboard subscriber error'))
    await this.sub.subscribe(snapshotChannel(this.redis))
  }

  async stop(): Promise<void> {
    if (this.sub) await this.sub.quit().catch(() => undefined)
  }

  /** Store a version and announce it (in the background: a failure only costs other nodes a rebuild). */
  write(snapshot: ScoreboardSnapshot): void {
    this.redis
      .multi()
      .hset(redisKey(snapshot.gameId), { db: this.db, version: String(snapshot.version), start: String(snapshot.start), json: snapshot.json, until: String(snapshot.validUntil) })
      .expire(redisKey(snapshot.gameId), COPY_TTL_S)
      .publish(snapshotChannel(this.redis), JSON.stringify({ db: this.db, gameId: snapshot.gameId, version: snapshot.version }))
      .exec()
      .catch((err) => this.log.warn({ err, gameId: snapshot.gameId }, 'scoreboard cache write failed'))
  }

  /** The stored version of a game, or null. */
  async read(gameId: number): Promise<ScoreboardSnapshot | null> {
    try {
      const hash = await this.redis.hgetall(redisKey(gameId))
      if (hash.db !== this.db || !hash.json) return null
      // `until`: a live board's pending freeze time (docs/scoring.md#freeze); older entries have none.
      const until = hash.until === undefined ? Infinity : Number(hash.until)
      return new ScoreboardSnapshot(gameId, Number(hash.version), hash.json, Number(hash.start), undefined, Number.isNaN(until) ? Infinity : until)
    } catch (err) {
      this.log.warn({ err, gameId }, 'scoreboard cache read failed')
      return null
    }
  }

  /** The number of the stored version (0 when none), which a new owner continues from. */
  async version(gameId: number): Promise<number> {
    try {
      const [db, version] = await this.redis.hmget(redisKey(gameId), 'db', 'version')
      return db === this.db ? Number(version) || 0 : 0
    } catch {
      return 0
    }
  }

  /** Forget a deleted game. */
  async delete(gameId: number): Promise<void> {
    await this.redis.del(redisKey(gameId)).catch(() => undefined)
  }
}
