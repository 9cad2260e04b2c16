/**
 * `services.scoreboard` — the scoreboard engine of a node (docs/realtime.md#scoreboard-versions-and-gap-repair; docs/scoring.md#incremental-engine).
 *
 * For the other endpoints (details, sheets, exports):
 *   - `await services.scoreboard.get(gameId)` → the current ScoreboardModel (docs/compatibility.md#scoreboard-shapes), read-only;
 *     throws 404 `比赛未找到` when there is no such game. Whether it has started is the caller's check.
 *   - `await services.scoreboard.snapshot(gameId)` → `ScoreboardSnapshot | null` (null = no such game):
 *     `{ gameId, version, etag, json, model, start }` — the same model with its version, serialised
 *     once per version (`json`), and the game start (epoch ms).
 *   - `services.scoreboard.applySolve(gameId, solve)` — fold in a counted solve (the checker does this).
 *   - `services.scoreboard.applyHintUnlock(gameId, unlock)` — fold in a costed hint unlock (the unlock command does this).
 *   - `await services.scoreboard.rebuild(gameId)` — rebuild now (owner) or ask the owner to
 *     (`requestScoreboardRebuild` in hooks.ts is the same request for code that only has the ORM).
 *
 * How it works: one node owns a game's engine at a time (ownership.ts). The owner keeps the
 * incremental state (board.ts over engine.ts), rebuilds it from the database on first use, on the
 * `flagwave_scoreboard` NOTIFY and after reconnecting, applies solves (its own checkers call
 * `applySolve`, other nodes' checkers reach it through the `flagwave_solves` NOTIFY sent inside
 * their transaction, solveChannel.ts), and publishes versioned `ReceivedScoreboardUpdate`s paced by
 * pacing.ts — the difference from the previous version, or the whole board after a rebuild
 * (shared/src/events.ts) — followed by `ReceivedChallengeUpdate` when challenges changed (delta.ts).
 * Every version is serialised once (snapshot.ts) and shared through Redis when there is one
 * (sharedCopy.ts), so any node can serve it; other nodes keep a local copy, dropped when the owner
 * announces a newer version. A node taking a game over continues its version sequence.
 */
import type pg from 'pg'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { rooms } from '@flagwave/shared/events'
import type { Orm } from '../../db/orm.js'
import type { ImmediatePublish } from '../../realtime/sink.js'
import type { Metrics } from '../../lib/metrics.js'
import { databaseUrl, nativePool } from '../../db/pg.js'
import { notFound } from '../../lib/errors.js'
import { SCOREBOARD_CHANNEL, requestScoreboardRebuild } from './hooks.js'
import type { HintUnlockData, SolveData } from './engine.js'
import { ScoreboardState } from './board.js'
import { loadGameData } from './load.js'
import { ChallengeChanges } from './delta.js'
import { ScoreboardSnapshot } from './snapshot.js'
import { SOLVE_CHANNEL, parseSolveMessage } from './solveChannel.js'
import { SharedCopies } from './sharedCopy.js'
import { Ownership } from './ownership.js'
import { PushPacer, type PacedGame } from './pacing.js'

/** A non-owner's copy read from Redis is trusted this long without an announcement. */
const SHARED_COPY_TTL_MS = 5000
/** A non-owner's locally built copy (no Redis) is reused this long. */
const LOCAL_COPY_TTL_MS = 1000

/** A game this node owns. */
interface Owned {
  gameId: number
  state: ScoreboardState | null
  snapshot: ScoreboardSnapshot | null
  version: number
  building: Promise<void> | null
  /** Solves and hint unlocks that arrived while a rebuild was reading the database. */
  buffer: (SolveData | HintUnlockData)[] | null
  rebuildAgain: boolean
  pushAfterBuild: boolean
  /** What the previous version showed of each challenge, for ReceivedChallengeUpdate and deltas. */
  challengeChanges: ChallengeChanges
  pacer: PushPacer
  /** Submission times (epoch ms) of the solves folded in since the last push, for the solve→push metric. */
  unpushed: number[]
}

interface Cached {
  snapshot: ScoreboardSnapshot
  /** Local builds expire after a second, copies from Redis when a newer version is announced (or after 5 s). */
  expires: number
}

export interface ScoreboardDeps {
  orm: Orm
  redis: Redis | null
  realtime: ImmediatePublish
  log: Logger
  /** Where solve→push latencies go (lib/metrics.ts); absent in tools that run the engine alone. */
  metrics?: Pick<Metrics, 'solvePushed'>
}

export class ScoreboardService {
  private readonly owned = new Map<number, Owned>()
  private readonly cache = new Map<number, Cached>()
  private readonly loading = new Map<number, Promise<ScoreboardSnapshot | null>>()
  private pool: pg.Pool | null = null
  private ownership: Ownership | null = null
  private shared: SharedCopies | null = null
  private running = false

  constructor(private readonly deps: ScoreboardDeps) {}

  /** Connect, listen, take the running games this node can own, and watch for orphaned ones. */
  async start(): Promise<void> {
    this.running = true
    const pool = (this.pool = await nativePool(this.deps.orm))
    const db = await pool.query<{ id: string }>(`select current_database() || '@' || coalesce(inet_server_port(), 0)::text as id`)
    if (this.deps.redis) {
      this.shared = new SharedCopies(this.deps.redis, db.rows[0]!.id, this.deps.log)
      await this.shared.start((gameId, version) => this.onAnnounce(gameId, version))
    }
    this.ownership = new Ownership(
      { url: databaseUrl(this.deps.orm), pool, log: this.deps.log, channels: [SCOREBOARD_CHANNEL, SOLVE_CHANNEL] },
      {
        owns: (gameId) => this.owned.has(gameId),
        take: (gameId, push) => this.take(gameId, push),
        lost: () => this.dropOwnership(),
        onNotification: (channel, payload) => this.onNotification(channel, payload),
      },
    )
    await this.ownership.start()
  }

  /** Push what is pending, release every game and close the connections. */
  async stop(): Promise<void> {
    this.running = false
    await this.ownership?.stopTaking()
    for (const own of this.owned.values()) {
      await own.building?.catch(() => undefined)
      own.pacer.clear()
      own.pacer.flush()
      own.pacer.pushChallenges(true)
    }
    await this.ownership?.releaseAll()
    this.owned.clear()
    await this.ownership?.close()
    await this.shared?.stop()
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
    if (!own) return void this.ownership?.adopt(gameId)
    if (own.buffer) return void own.buffer.push(solve)
    if (!own.state) return
    const result = own.state.applySolve(solve)
    if (result === 'unknown') this.requestRebuild(own, true)
    else if (result === 'applied') {
      // Bounded: a push empties it at least every couple of seconds while solves arrive.
      if (own.unpushed.length < 10_000) own.unpushed.push(solve.time)
      own.pacer.schedule()
    }
  }

  /**
   * Fold in a costed hint unlock (committed). Like a solve: on the owner it updates the state and
   * schedules a push; elsewhere the owner hears of it through the unlock's NOTIFY.
   */
  applyHintUnlock(gameId: number, unlock: HintUnlockData): void {
    const own = this.owned.get(gameId)
    if (!own) return void this.ownership?.adopt(gameId)
    if (own.buffer) return void own.buffer.push(unlock)
    if (!own.state) return
    if (own.state.applyHintUnlock(unlock) === 'applied') own.pacer.schedule()
  }

  /**
   * Rebuild from the database now: on this node when it owns the game or can take it, otherwise
   * by asking the owner (NOTIFY). Resolves once a local rebuild is published.
   */
  async rebuild(gameId: number): Promise<void> {
    let own = this.owned.get(gameId)
    if (own) this.requestRebuild(own, true)
    else if (((await this.ownership?.acquire([gameId], true)) ?? []).length > 0) own = this.owned.get(gameId)
    if (!own) return requestScoreboardRebuild(this.deps, gameId)
    while (own.building) await own.building
    // Publish the rebuilt state at once, so the caller reads what it asked for.
    if (this.owned.get(gameId) === own && own.state?.changed) own.pacer.flushNow()
  }

  /* ------------------------------------------------------------------------------------------ */

  private async load(gameId: number): Promise<ScoreboardSnapshot | null> {
    this.ownership?.noteInterest(gameId)
    if (((await this.ownership?.acquire([gameId])) ?? []).length > 0) {
      const own = this.owned.get(gameId)!
      await own.building
      return this.owned.get(gameId)?.snapshot ?? null
    }
    const shared = await this.shared?.read(gameId)
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

  /** This node now holds the game's lock: start owning it with a rebuild. */
  private take(gameId: number, push: boolean): void {
    this.cache.delete(gameId)
    const challengeChanges = new ChallengeChanges()
    const paced: PacedGame = {
      gameId,
      challengeChanges,
      changed: () => own.state?.changed ?? false,
      live: () => this.owned.get(gameId) === own,
      running: () => this.running,
      nextVersion: () => {
        own.version += 1
        this.publish(own, true)
      },
    }
    const own: Owned = {
      gameId,
      state: null,
      snapshot: null,
      version: 0,
      building: null,
      buffer: null,
      rebuildAgain: false,
      pushAfterBuild: push,
      challengeChanges,
      pacer: new PushPacer(paced, this.deps.realtime),
      unpushed: [],
    }
    this.owned.set(gameId, own)
    this.requestRebuild(own, push)
  }

  private async release(gameId: number): Promise<void> {
    this.owned.get(gameId)?.pacer.clear()
    this.owned.delete(gameId)
    this.cache.delete(gameId)
    await this.ownership?.release(gameId)
  }

  /** The connection (and with it every lock) is gone: stop acting as owner. */
  private dropOwnership(): void {
    for (const own of this.owned.values()) {
      own.pacer.clear()
      if (own.snapshot) this.cache.set(own.gameId, { snapshot: own.snapshot, expires: Date.now() + LOCAL_COPY_TTL_MS })
    }
    this.owned.clear()
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
      const [data, sharedVersion] = await Promise.all([loadGameData(this.pool!, own.gameId), first && this.shared ? this.shared.version(own.gameId) : Promise.resolve(0)])
      if (this.owned.get(own.gameId) !== own) return
      if (!data) {
        own.buffer = null
        await this.release(own.gameId)
        await this.shared?.delete(own.gameId)
        return
      }
      const state = ScoreboardState.build(data)
      const buffered = own.buffer ?? []
      own.buffer = null
      for (const item of buffered) {
        if ('unlockId' in item) state.applyHintUnlock(item)
        else state.applySolve(item)
      }
      own.state = state
      if (first) {
        own.version = Math.max(sharedVersion + 1, Date.now())
        this.publish(own, own.pushAfterBuild)
      } else own.pacer.schedule()
      own.pushAfterBuild = false
    } catch (err) {
      own.buffer = null
      this.deps.log.error({ err, gameId: own.gameId }, 'scoreboard rebuild failed')
      if (own.snapshot === null) await this.release(own.gameId)
    }
  }

  /** Snapshot the state as the current version, store it, and (when `push`) tell the game room. */
  private publish(own: Owned, push: boolean): void {
    const now = Date.now()
    const base = own.snapshot?.version ?? null
    const built = own.state!.snapshot(now)
    const snapshot = new ScoreboardSnapshot(own.gameId, own.version, built.json, own.state!.game.start, built.model)
    own.snapshot = snapshot
    own.pacer.versioned(now)
    const changed = own.challengeChanges.next(built.challenges)
    this.shared?.write(snapshot)
    if (!push) return
    // A state that was just rebuilt has no previous version to differ from: watchers get the whole board.
    if (built.changedCells && base !== null) {
      own.pacer.pushBoard({
        gameId: own.gameId,
        version: snapshot.version,
        base,
        delta: { updateTimeUTC: snapshot.model.updateTimeUTC, challenges: changed, items: built.changedCells },
      })
    } else own.pacer.pushBoard({ gameId: own.gameId, version: snapshot.version, scoreboard: snapshot.model })
    // After the board that shows the solves: each team whose solve unlocked challenges hears which (docs/challenge-rules.md#prerequisites).
    for (const [participationId, challengeIds] of built.unlocked) {
      this.deps.realtime.publish('user', rooms.team(own.gameId, participationId), 'ReceivedChallengeUnlock', { gameId: own.gameId, challengeIds })
    }
    if (own.unpushed.length > 0) {
      const pushed = Date.now()
      for (const time of own.unpushed) this.deps.metrics?.solvePushed(time, pushed)
      own.unpushed.length = 0
    }
  }

  /** Another node published a newer version: drop the local copy. */
  private onAnnounce(gameId: number, version: number): void {
    if (this.owned.has(gameId)) return
    const cached = this.cache.get(gameId)
    if (cached && cached.snapshot.version < version) this.cache.delete(gameId)
  }

  private onNotification(channel: string, payload: string): void {
    if (channel === SCOREBOARD_CHANNEL) {
      const gameId = Number(payload)
      if (!Number.isInteger(gameId)) return
      const own = this.owned.get(gameId)
      if (own) this.requestRebuild(own, true)
      else {
        this.cache.delete(gameId)
        void this.ownership?.adopt(gameId)
      }
      return
    }
    if (channel === SOLVE_CHANNEL) {
      const message = parseSolveMessage(payload)
      if (!message) return
      for (const solve of message.solves) this.applySolve(message.gameId, solve)
      for (const unlock of message.unlocks) this.applyHintUnlock(message.gameId, unlock)
    }
  }
}
