/**
 * `services.scoreboard` — the scoreboard engine of a node (DESIGN §5, §6).
 *
 * For the other endpoints (details, sheets, exports):
 *   - `await services.scoreboard.get(gameId)` → the current ScoreboardModel (CONTRACT §4.9), read-only;
 *     throws 404 `比赛未找到` when there is no such game. Whether it has started is the caller's check.
 *   - `await services.scoreboard.snapshot(gameId)` → `ScoreboardSnapshot | null` (null = no such game):
 *     `{ gameId, version, etag, json, model, start }` — the same model with its version, serialised
 *     once per version (`json`), and the game start (epoch ms).
 *   - `services.scoreboard.applySolve(gameId, solve)` — fold in a counted solve (the checker does this).
 *   - `await services.scoreboard.rebuild(gameId)` — rebuild now (owner) or ask the owner to
 *     (`requestScoreboardRebuild` in hooks.ts is the same request for code that only has the ORM).
 *
 * How it works: one node owns a game's engine at a time, holding a session-level advisory lock
 * on a dedicated connection. The owner keeps the incremental state (engine.ts), rebuilds it from
 * the database on first use, on the `flagwave_scoreboard` NOTIFY and after reconnecting, applies
 * solves (its own checkers call `applySolve`, other nodes' checkers reach it through the
 * `flagwave_solves` NOTIFY sent inside their transaction), and publishes at most one versioned
 * `ReceivedScoreboardUpdate` per game per 100 ms — the difference from the previous version, or
 * the whole board after a rebuild (shared/src/events.ts) — followed by `ReceivedChallengeUpdate`
 * when challenge scores, solve counts or bloods changed. Each event costs a write (a system call)
 * per watching socket, so with thousands of watchers pushes are spaced by what their fan-out
 * actually cost on this node: board pushes may take at most 60 % of its event loop, and challenge
 * updates, which cards can show a moment later, a tenth.
 * Every version is serialised once and cached in Redis (`flagwave:scoreboard:{gameId}`) when there
 * is one, so any node can serve it; other nodes keep a local copy, dropped when the owner
 * announces a newer version. When the owner dies its lock goes with its connection and another
 * node takes the game over within a couple of seconds, continuing the version sequence.
 */
import { promisify } from 'node:util'
import { gzip as gzipCallback } from 'node:zlib'
import type pg from 'pg'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { NAMESPACES, rooms } from '@flagwave/shared/events'
import type { ScoreboardDelta, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Orm } from '../../db/orm.js'
import type { Realtime } from '../../realtime/publish.js'
import { DedicatedConnection, SOLVE_CHANNEL, databaseUrl, nativePool } from '../submissions/pg.js'
import { SCOREBOARD_CHANNEL, requestScoreboardRebuild } from './hooks.js'
import { ScoreboardState, type SolveData } from './engine.js'
import { loadGameData } from './load.js'
import { ChallengeChanges } from './delta.js'
import { notFound } from '../../lib/errors.js'

const gzip = promisify(gzipCallback)

/** Minimum spacing of two pushes of one game (DESIGN §5); see `interval()` for large audiences. */
export const PUSH_INTERVAL_MS = 100
/**
 * The share of a node's event loop one game's board pushes may take. A push is written to every
 * watching socket synchronously (10–20 µs each on loopback here), so its measured duration over
 * this share is the spacing that leaves the rest of the loop to requests, checkers and timers.
 * (Measured, not configured: the cost of a write differs tenfold between loopback and a NIC.)
 */
const BOARD_FANOUT_SHARE = 0.6
/** The share for ReceivedChallengeUpdate: challenge cards can lag, the board should not. */
const CHALLENGE_FANOUT_SHARE = 0.1
/** A fan-out this long (ms) is worth keeping apart from the next one. */
const LONG_FANOUT_MS = 5
/** Whatever the fan-out, a board is pushed at least this often while it changes. */
const MAX_PUSH_INTERVAL_MS = 2000
/** How soon a push held back by busy sockets is tried again. */
const BACKLOG_RETRY_MS = 25
/** How often a node looks for games without a living owner. */
const TAKEOVER_INTERVAL_MS = 2000
/** A non-owner's copy read from Redis is trusted this long without an announcement. */
const SHARED_COPY_TTL_MS = 5000
/** A non-owner's locally built copy (no Redis) is reused this long. */
const LOCAL_COPY_TTL_MS = 1000
/** Games asked for are watched for takeover this long. */
const INTEREST_MS = 10 * 60_000
/** Advisory-lock namespace (first key of the two-int form). */
const LOCK_CLASS = 0x46570001
/** Channels escape ioredis' keyPrefix, so the snapshot channel carries the namespace itself. */
const snapshotChannel = (redis: Redis) => `${redis.options.keyPrefix ?? ''}scoreboard`
export const redisKey = (gameId: number) => `flagwave:scoreboard:${gameId}`

/** One version of a game's scoreboard. */
export class ScoreboardSnapshot {
  private parsed: ScoreboardModel | undefined
  private compressed: Promise<Buffer> | undefined
  private compressedBuffer: Buffer | undefined
  private validators: Readonly<Record<string, string>> | undefined

  constructor(
    readonly gameId: number,
    readonly version: number,
    readonly json: string,
    /** Game start, epoch milliseconds. */
    readonly start: number,
    model?: ScoreboardModel,
  ) {
    this.parsed = model
  }

  /** A weak validator carrying the version (both encodings share it). */
  get etag(): string {
    return `W/"${this.version}"`
  }

  /** The headers every answer of this version carries (built once: the board is read far more often than it changes). */
  get headers(): Readonly<Record<string, string>> {
    return (this.validators ??= Object.freeze({
      ETag: this.etag,
      'X-Scoreboard-Version': String(this.version),
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    }))
  }

  /** The contract's ScoreboardModel (read-only). */
  get model(): ScoreboardModel {
    return (this.parsed ??= JSON.parse(this.json) as ScoreboardModel)
  }

  /** The JSON gzipped, computed once per version off the event loop. */
  gzipped(): Promise<Buffer> {
    return (this.compressed ??= gzip(this.json, { level: 6 }).then((buffer) => (this.compressedBuffer = buffer)))
  }

  /** The gzipped JSON if it is ready (starting it otherwise), without waiting. */
  gzippedNow(): Buffer | undefined {
    if (!this.compressedBuffer) void this.gzipped().catch(() => undefined)
    return this.compressedBuffer
  }
}

interface Owned {
  gameId: number
  state: ScoreboardState | null
  snapshot: ScoreboardSnapshot | null
  version: number
  building: Promise<void> | null
  /** Solves that arrived while a rebuild was reading the database. */
  buffer: SolveData[] | null
  rebuildAgain: boolean
  pushAfterBuild: boolean
  lastPush: number
  timer: NodeJS.Timeout | null
  /** What the previous version showed of each challenge, for ReceivedChallengeUpdate and deltas. */
  challengeChanges: ChallengeChanges
  /** How long the last board push took to write to this node's sockets (ms). */
  boardFanOutMs: number
  lastChallengePush: number
  /** How long the last ReceivedChallengeUpdate took to write to this node's sockets (ms). */
  challengeFanOutMs: number
  challengeTimer: NodeJS.Timeout | null
}

interface Cached {
  snapshot: ScoreboardSnapshot
  /** Local builds expire after a second, copies from Redis when a newer version is announced (or after 5 s). */
  expires: number
}

export interface ScoreboardDeps {
  orm: Orm
  redis: Redis | null
  realtime: Realtime
  log: Logger
}

export class ScoreboardService {
  private readonly owned = new Map<number, Owned>()
  private readonly cache = new Map<number, Cached>()
  private readonly loading = new Map<number, Promise<ScoreboardSnapshot | null>>()
  /** Game → until when another node is known to own it. */
  private readonly elsewhere = new Map<number, number>()
  private readonly interest = new Map<number, number>()
  private control: DedicatedConnection | null = null
  private sub: Redis | null = null
  private pool: pg.Pool | null = null
  private dbId = ''
  private takeover: NodeJS.Timeout | null = null
  private running = false
  private sweeping: Promise<void> | null = null

  constructor(private readonly deps: ScoreboardDeps) {}

  /** Connect, listen, take the running games this node can own, and watch for orphaned ones. */
  async start(): Promise<void> {
    this.running = true
    this.pool = await nativePool(this.deps.orm)
    const db = await this.pool.query<{ id: string }>(`select current_database() || '@' || coalesce(inet_server_port(), 0)::text as id`)
    this.dbId = db.rows[0]!.id
    if (this.deps.redis) {
      this.sub = this.deps.redis.duplicate()
      this.sub.on('message', (_channel, message) => this.onAnnounce(message))
      this.sub.on('error', (err) => this.deps.log.warn({ err }, 'scoreboard subscriber error'))
      await this.sub.subscribe(snapshotChannel(this.deps.redis))
    }
    this.control = new DedicatedConnection({
      url: databaseUrl(this.deps.orm),
      name: 'scoreboard',
      log: this.deps.log,
      channels: [SCOREBOARD_CHANNEL, SOLVE_CHANNEL],
      onNotification: (channel, payload) => this.onNotification(channel, payload),
      onDown: () => this.dropOwnership(),
      onUp: () => this.sweep(true),
    })
    await this.control.start()
    this.takeover = setInterval(() => void this.sweep(false), TAKEOVER_INTERVAL_MS)
    this.takeover.unref()
  }

  /** Push what is pending, release every game and close the connections. */
  async stop(): Promise<void> {
    this.running = false
    if (this.takeover) clearInterval(this.takeover)
    await this.sweeping?.catch(() => undefined)
    for (const own of this.owned.values()) {
      await own.building?.catch(() => undefined)
      this.clearTimers(own)
      this.flush(own)
      this.pushChallenges(own, true)
    }
    if (this.control?.connected) await this.control.query('select pg_advisory_unlock_all()').catch(() => undefined)
    this.owned.clear()
    await this.control?.stop()
    if (this.sub) await this.sub.quit().catch(() => undefined)
  }

  /** Whether this node owns the game's engine. */
  owns(gameId: number): boolean {
    return this.owned.has(gameId)
  }

  /** The current ScoreboardModel of a game (read-only); 404 `比赛未找到` when the game does not exist. */
  async get(gameId: number): Promise<ScoreboardModel> {
    const snapshot = await this.snapshot(gameId)
    if (!snapshot) throw notFound('比赛未找到')
    return snapshot.model
  }

  /** The snapshot this node holds in memory right now (owned, or a copy still fresh), without loading anything. */
  inMemory(gameId: number): ScoreboardSnapshot | null {
    const own = this.owned.get(gameId)
    if (own) return own.snapshot
    const cached = this.cache.get(gameId)
    return cached && cached.expires > Date.now() ? cached.snapshot : null
  }

  /** The current versioned snapshot of a game, or null when the game does not exist. */
  async snapshot(gameId: number): Promise<ScoreboardSnapshot | null> {
    const own = this.owned.get(gameId)
    if (own?.snapshot) return own.snapshot
    if (own?.building) {
      await own.building
      return this.owned.get(gameId)?.snapshot ?? null
    }
    const cached = this.cache.get(gameId)
    if (cached && cached.expires > Date.now()) return cached.snapshot
    let pending = this.loading.get(gameId)
    if (!pending) {
      pending = this.load(gameId).finally(() => this.loading.delete(gameId))
      this.loading.set(gameId, pending)
    }
    return pending
  }

  /**
   * Fold in a counted solve (settled Accepted before the end, first of its team and challenge).
   * On the owner it updates the state and schedules a push; elsewhere it does nothing (the owner
   * hears of it through the checker's NOTIFY).
   */
  applySolve(gameId: number, solve: SolveData): void {
    const own = this.owned.get(gameId)
    if (!own) return void this.adopt(gameId)
    if (own.buffer) return void own.buffer.push(solve)
    if (!own.state) return
    const result = own.state.applySolve(solve)
    if (result === 'unknown') this.requestRebuild(own, true)
    else if (result === 'applied') this.schedulePush(own)
  }

  /**
   * Rebuild from the database now: on this node when it owns the game or can take it, otherwise
   * by asking the owner (NOTIFY). Resolves once a local rebuild is published.
   */
  async rebuild(gameId: number): Promise<void> {
    let own = this.owned.get(gameId)
    if (own) this.requestRebuild(own, true)
    else if ((await this.tryAcquire([gameId], true)).length > 0) own = this.owned.get(gameId)
    if (!own) return requestScoreboardRebuild(this.deps, gameId)
    while (own.building) await own.building
    // Publish the rebuilt state at once, so the caller reads what it asked for.
    if (this.owned.get(gameId) === own && own.state?.changed) {
      if (own.timer) clearTimeout(own.timer)
      own.timer = null
      this.flush(own)
    }
  }

  /* ------------------------------------------------------------------------------------------ */

  private async load(gameId: number): Promise<ScoreboardSnapshot | null> {
    this.interest.set(gameId, Date.now())
    if (await this.tryAcquire([gameId]).then((got) => got.length > 0)) {
      const own = this.owned.get(gameId)!
      await own.building
      return this.owned.get(gameId)?.snapshot ?? null
    }
    const shared = await this.readShared(gameId)
    if (shared) {
      // Dropped early when the owner announces a newer version; re-read now and then in case an announcement was missed.
      this.cache.set(gameId, { snapshot: shared, expires: Date.now() + SHARED_COPY_TTL_MS })
      return shared
    }
    // No copy anywhere (no Redis, or it lost the key): build a short-lived local one.
    const data = await loadGameData(this.pool!, gameId)
    if (!data) return null
    const built = ScoreboardState.build(data).snapshot()
    const snapshot = new ScoreboardSnapshot(gameId, Date.now(), built.json, data.game.start, built.model)
    this.cache.set(gameId, { snapshot, expires: Date.now() + LOCAL_COPY_TTL_MS })
    return snapshot
  }

  /** Try to take the given games; the acquired ones start building. Returns them. */
  private async tryAcquire(gameIds: number[], push = false): Promise<number[]> {
    const wanted = gameIds.filter((id) => !this.owned.has(id))
    if (!this.running || !this.control?.connected || wanted.length === 0) return []
    let rows: { g: number; ok: boolean }[]
    try {
      rows = (await this.control.query<{ g: number; ok: boolean }>(`select g, pg_try_advisory_lock($1, g) as ok from unnest($2::int[]) as g`, [LOCK_CLASS, wanted])).rows
    } catch (err) {
      this.deps.log.warn({ err }, 'scoreboard lock attempt failed')
      return []
    }
    const got: number[] = []
    for (const { g, ok } of rows) {
      if (!ok) {
        this.elsewhere.set(g, Date.now() + TAKEOVER_INTERVAL_MS)
        continue
      }
      if (this.owned.has(g)) {
        // Raced with another acquisition of ours: drop the extra lock count.
        await this.control.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, g]).catch(() => undefined)
        continue
      }
      this.cache.delete(g)
      this.elsewhere.delete(g)
      const own: Owned = {
        gameId: g,
        state: null,
        snapshot: null,
        version: 0,
        building: null,
        buffer: null,
        rebuildAgain: false,
        pushAfterBuild: push,
        lastPush: 0,
        timer: null,
        challengeChanges: new ChallengeChanges(),
        boardFanOutMs: 0,
        lastChallengePush: 0,
        challengeFanOutMs: 0,
        challengeTimer: null,
      }
      this.owned.set(g, own)
      this.requestRebuild(own, push)
      got.push(g)
    }
    return got
  }

  /** Take over a game that seems to have no owner (a solve or rebuild request for it arrived). */
  private async adopt(gameId: number): Promise<void> {
    if (this.owned.has(gameId) || (this.elsewhere.get(gameId) ?? 0) > Date.now()) return
    await this.tryAcquire([gameId], true)
  }

  private async release(gameId: number): Promise<void> {
    const own = this.owned.get(gameId)
    if (own) this.clearTimers(own)
    this.owned.delete(gameId)
    this.cache.delete(gameId)
    if (this.control?.connected) await this.control.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, gameId]).catch(() => undefined)
  }

  /** The connection (and with it every lock) is gone: stop acting as owner. */
  private dropOwnership(): void {
    for (const own of this.owned.values()) {
      this.clearTimers(own)
      if (own.snapshot) this.cache.set(own.gameId, { snapshot: own.snapshot, expires: Date.now() + LOCAL_COPY_TTL_MS })
    }
    this.owned.clear()
  }

  /**
   * Acquire the games asked for recently that nobody owns (an owner died), and — after
   * (re)connecting — the running games, so their boards are ready before the first request.
   * (A game nobody asks for needs no owner; a solve or rebuild request for it adopts it.)
   */
  private sweep(withRunning: boolean): Promise<void> {
    if (this.sweeping || !this.running) return this.sweeping ?? Promise.resolve()
    this.sweeping = (async () => {
      try {
        const now = Date.now()
        for (const [id, at] of this.interest) if (now - at > INTEREST_MS) this.interest.delete(id)
        const candidates = new Set(this.interest.keys())
        if (withRunning) {
          const live = await this.pool!.query<{ id: number }>(`select id from games where start <= now() + interval '5 minutes' and "end" >= now()`)
          for (const row of live.rows) candidates.add(row.id)
        }
        // A takeover pushes (clients may have missed updates while the game had no owner).
        await this.tryAcquire([...candidates], !withRunning)
      } catch (err) {
        this.deps.log.warn({ err }, 'scoreboard takeover sweep failed')
      } finally {
        this.sweeping = null
      }
    })()
    return this.sweeping
  }

  private requestRebuild(own: Owned, push: boolean): void {
    own.pushAfterBuild ||= push
    if (own.building) {
      own.rebuildAgain = true
      return
    }
    own.buffer ??= []
    own.building = this.build(own).finally(() => {
      own.building = null
      if (own.rebuildAgain && this.owned.get(own.gameId) === own) {
        own.rebuildAgain = false
        this.requestRebuild(own, own.pushAfterBuild)
      }
    })
  }

  private async build(own: Owned): Promise<void> {
    own.buffer ??= []
    try {
      const first = own.snapshot === null
      const [data, sharedVersion] = await Promise.all([loadGameData(this.pool!, own.gameId), first ? this.sharedVersion(own.gameId) : Promise.resolve(0)])
      if (this.owned.get(own.gameId) !== own) return
      if (!data) {
        own.buffer = null
        await this.release(own.gameId)
        if (this.deps.redis) await this.deps.redis.del(redisKey(own.gameId)).catch(() => undefined)
        return
      }
      const state = ScoreboardState.build(data)
      const buffered = own.buffer ?? []
      own.buffer = null
      for (const solve of buffered) state.applySolve(solve)
      own.state = state
      if (first) {
        own.version = Math.max(sharedVersion + 1, Date.now())
        this.publish(own, own.pushAfterBuild)
      } else this.schedulePush(own)
      own.pushAfterBuild = false
    } catch (err) {
      own.buffer = null
      this.deps.log.error({ err, gameId: own.gameId }, 'scoreboard rebuild failed')
      if (own.snapshot === null) await this.release(own.gameId)
    }
  }

  private clearTimers(own: Owned): void {
    if (own.timer) clearTimeout(own.timer)
    if (own.challengeTimer) clearTimeout(own.challengeTimer)
    own.timer = null
    own.challengeTimer = null
  }

  private schedulePush(own: Owned): void {
    if (own.timer || !this.running) return
    const wait = Math.max(0, own.lastPush + this.interval(own) - Date.now())
    own.timer = setTimeout(() => {
      own.timer = null
      if (this.owned.get(own.gameId) === own) this.flush(own)
    }, wait)
  }

  private flush(own: Owned): void {
    if (!own.state?.changed) return
    if (this.backlogged(rooms.game(own.gameId))) {
      // Many watchers are still receiving the previous board: send the newest one when they are done.
      own.lastPush = Date.now() - PUSH_INTERVAL_MS + BACKLOG_RETRY_MS
      this.schedulePush(own)
      return
    }
    own.version += 1
    this.publish(own, true)
  }

  /**
   * The spacing of board pushes: 100 ms, or longer when the last push's fan-out would take more
   * than its share of the event loop — pushes queued faster than the node writes them only add
   * latency for everything else.
   */
  private interval(own: Owned): number {
    return pushSpacing(own.boardFanOutMs, BOARD_FANOUT_SHARE)
  }

  /** The spacing of ReceivedChallengeUpdate: with every push, unless its fan-out needs rationing. */
  private challengeInterval(own: Owned): number {
    return pushSpacing(own.challengeFanOutMs, CHALLENGE_FANOUT_SHARE)
  }

  /**
   * Tell the game room the challenges' new scores now (`now`), or when their share of the fan-out
   * allows. A board push that took the loop for a while is not followed straight by another
   * fan-out: the update goes halfway to the next board push, so checkers and timers run between.
   */
  private pushChallenges(own: Owned, now = false): void {
    if (!own.challengeChanges.hasUnsent || own.challengeTimer) return
    const due = own.lastChallengePush + this.challengeInterval(own) - Date.now()
    // Stopping: whatever is pending goes out now, with the last board.
    const wait = now || !this.running ? 0 : Math.max(due, own.boardFanOutMs >= LONG_FANOUT_MS ? this.interval(own) / 2 : 0)
    if (wait > 0) {
      own.challengeTimer = setTimeout(() => {
        own.challengeTimer = null
        if (this.owned.get(own.gameId) === own) this.pushChallenges(own, true)
      }, wait)
      return
    }
    own.lastChallengePush = Date.now()
    own.challengeFanOutMs = timed(() =>
      this.deps.realtime.publish('user', rooms.game(own.gameId), 'ReceivedChallengeUpdate', { gameId: own.gameId, challenges: own.challengeChanges.takeUnsent() }),
    )
  }

  /**
   * Whether at least a tenth of this node's sockets in `room` have not yet written out the
   * previous push (with thousands of watchers the fan-out, not the engine, is the limit, and
   * queueing pushes faster than they drain only grows memory).
   */
  private backlogged(room: string): boolean {
    const namespace = this.deps.realtime.server?.of(NAMESPACES.user)
    const ids = namespace?.adapter.rooms.get(room)
    if (!namespace || !ids || ids.size === 0) return false
    let busy = 0
    for (const id of ids) {
      const conn = namespace.sockets.get(id)?.conn as { writeBuffer?: unknown[]; transport?: { writable?: boolean } } | undefined
      if (conn && ((conn.writeBuffer?.length ?? 0) > 0 || conn.transport?.writable === false)) busy += 1
    }
    return busy * 10 >= ids.size && busy > 0
  }

  /** Snapshot the state as the current version, store it, and (when `push`) tell the game room. */
  private publish(own: Owned, push: boolean): void {
    const now = Date.now()
    const base = own.snapshot?.version ?? null
    const built = own.state!.snapshot(now)
    const snapshot = new ScoreboardSnapshot(own.gameId, own.version, built.json, own.state!.game.start, built.model)
    own.snapshot = snapshot
    own.lastPush = now
    const changed = own.challengeChanges.next(built.challenges)
    if (this.deps.redis) {
      this.deps.redis
        .multi()
        .hset(redisKey(own.gameId), { db: this.dbId, version: String(snapshot.version), start: String(snapshot.start), json: snapshot.json })
        .expire(redisKey(own.gameId), 24 * 3600)
        .publish(snapshotChannel(this.deps.redis), JSON.stringify({ db: this.dbId, gameId: own.gameId, version: snapshot.version }))
        .exec()
        .catch((err) => this.deps.log.warn({ err, gameId: own.gameId }, 'scoreboard cache write failed'))
    }
    if (!push) return
    const room = rooms.game(own.gameId)
    // A state that was just rebuilt has no previous version to differ from: watchers get the whole board.
    if (built.changedCells && base !== null) {
      const delta: ScoreboardDelta = { updateTimeUTC: snapshot.model.updateTimeUTC, challenges: changed, items: built.changedCells }
      own.boardFanOutMs = timed(() => this.deps.realtime.publish('user', room, 'ReceivedScoreboardUpdate', { gameId: own.gameId, version: snapshot.version, base, delta }))
    } else {
      own.boardFanOutMs = timed(() =>
        this.deps.realtime.publish('user', room, 'ReceivedScoreboardUpdate', { gameId: own.gameId, version: snapshot.version, scoreboard: snapshot.model }),
      )
    }
    this.pushChallenges(own)
  }

  private async readShared(gameId: number): Promise<ScoreboardSnapshot | null> {
    if (!this.deps.redis) return null
    try {
      const hash = await this.deps.redis.hgetall(redisKey(gameId))
      if (hash.db !== this.dbId || !hash.json) return null
      return new ScoreboardSnapshot(gameId, Number(hash.version), hash.json, Number(hash.start))
    } catch (err) {
      this.deps.log.warn({ err, gameId }, 'scoreboard cache read failed')
      return null
    }
  }

  private async sharedVersion(gameId: number): Promise<number> {
    if (!this.deps.redis) return 0
    try {
      const [db, version] = await this.deps.redis.hmget(redisKey(gameId), 'db', 'version')
      return db === this.dbId ? Number(version) || 0 : 0
    } catch {
      return 0
    }
  }

  /** Another node published a newer version: drop the local copy. */
  private onAnnounce(message: string): void {
    try {
      const { db, gameId, version } = JSON.parse(message) as { db: string; gameId: number; version: number }
      if (db !== this.dbId || this.owned.has(gameId)) return
      const cached = this.cache.get(gameId)
      if (cached && cached.snapshot.version < version) this.cache.delete(gameId)
    } catch {
      // not ours
    }
  }

  private onNotification(channel: string, payload: string): void {
    if (channel === SCOREBOARD_CHANNEL) {
      const gameId = Number(payload)
      if (!Number.isInteger(gameId)) return
      const own = this.owned.get(gameId)
      if (own) this.requestRebuild(own, true)
      else {
        this.cache.delete(gameId)
        void this.adopt(gameId)
      }
      return
    }
    if (channel === SOLVE_CHANNEL) {
      let message: SolveMessage
      try {
        message = JSON.parse(payload) as SolveMessage
      } catch {
        return
      }
      for (const s of message.s) this.applySolve(message.g, decodeSolve(s))
    }
  }
}

/** The compact form of counted solves on the `flagwave_solves` channel. */
export interface SolveMessage {
  g: number
  /** [participationId, challengeId, submissionId, time, acceptedCount, board 0|1, userName] */
  s: [number, number, number, number, number, number, string | null][]
}

export const encodeSolve = (s: SolveData): SolveMessage['s'][number] => [
  s.participationId,
  s.challengeId,
  s.submissionId,
  s.time,
  s.acceptedCount ?? 0,
  s.board ? 1 : 0,
  s.userName,
]

export const decodeSolve = (s: SolveMessage['s'][number]): SolveData => ({
  participationId: s[0],
  challengeId: s[1],
  submissionId: s[2],
  time: s[3],
  acceptedCount: s[4] || undefined,
  board: s[5] === 1,
  userName: s[6],
})

/** How long `write` took (ms): a broadcast writes to this node's sockets before it returns. */
function timed(write: () => void): number {
  const start = performance.now()
  write()
  return performance.now() - start
}

/** The spacing of pushes whose fan-out took `fanOutMs` and may take `share` of the event loop. */
export function pushSpacing(fanOutMs: number, share: number): number {
  return Math.min(MAX_PUSH_INTERVAL_MS, Math.max(PUSH_INTERVAL_MS, fanOutMs / share))
}
