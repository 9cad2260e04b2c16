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
 * pacing.ts — the difference from the previous version, or after a rebuild the whole board, or
 * when that board is large only its announcement (`refetch`: watchers read it over REST, gzipped,
 * from the read cache; shared/src/events.ts) — followed by `ReceivedChallengeUpdate` when
 * challenges changed (delta.ts).
 * Every version is serialised once (snapshot.ts) and shared through Redis when there is one
 * (sharedCopy.ts), so any node can serve it; other nodes keep a local copy, dropped when the owner
 * announces a newer version. A node taking a game over continues its version sequence.
 */
import type pg from 'pg'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { rooms, type ScoreboardUpdate } from '@flagwave/shared/events'
import type { Orm } from '../../db/orm.js'
import type { ImmediatePublish } from '../../realtime/sink.js'
import type { Metrics } from '../../lib/metrics.js'
import { databaseUrl, nativePool } from '../../db/pg.js'
import { notFound } from '../../lib/errors.js'
import { SCOREBOARD_CHANNEL, requestScoreboardRebuild } from './hooks.js'
import type { GameData, HintUnlockData, SolveData } from './engine.js'
import { ScoreboardState, type BoardView } from './board.js'
import { loadBoardUntil, loadGameData, type LoadedGame } from './load.js'
import { boardFreeze, pendingFreeze, type FreezeFields } from '../games/freeze.js'
import { ChallengeChanges } from './delta.js'
import { ScoreboardSnapshot } from './snapshot.js'
import { SOLVE_CHANNEL, parseSolveMessage } from './solveChannel.js'
import { SharedCopies } from './sharedCopy.js'
import { gameOfTag } from '../../cache/invalidation.js'
import type { ReadCache } from '../../cache/readCache.js'
import { Ownership } from './ownership.js'
import { PushPacer, type PacedGame } from './pacing.js'
import { boardDigest, readFrozenVersion, writeFrozenVersion } from './frozenVersion.js'
import { rebuildDelta } from './rebuildDelta.js'

/** A non-owner's copy read from Redis is trusted this long without an announcement. */
const SHARED_COPY_TTL_MS = 5000
/** A non-owner's locally built copy (no Redis) is reused this long. */
const LOCAL_COPY_TTL_MS = 1000
/**
 * A whole board larger than this (bytes of JSON) is announced, not pushed (docs/realtime.md#scoreboard-versions-and-gap-repair):
 * writing it uncompressed to every watching socket costs the node sockets × board (a thousand
 * watchers of a 1 MB board: a gigabyte, seconds of the event loop), while each watcher reading it
 * over REST gets the ~20 KB gzipped copy the read cache computed once. Below it the board rides
 * along, saving the round trip.
 */
const WHOLE_PUSH_MAX_BYTES = 32 * 1024

/** A frozen board found on taking a game: its version, and whether a board built now is the same. */
interface PriorFrozen {
  version: number
  shows: (json: string) => boolean
}

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
  /** The game's freeze settings as of the last rebuild (docs/scoring.md#freeze). */
  freeze: FreezeFields
  /** While the public board is frozen: that board, built from the solves before the freeze. */
  frozen: { at: number; snapshot: ScoreboardSnapshot } | null
  /** Rebuilds when a pending freeze time is reached, so it takes effect by itself. */
  freezeTimer: NodeJS.Timeout | null
}

/** Timers cannot wait longer than this (about 24.8 days): a later freeze re-arms on expiry. */
const MAX_TIMER_MS = 2 ** 31 - 1

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
  /** Whole boards larger than this are announced instead (`SCOREBOARD_PUSH_MAX_BYTES`); WHOLE_PUSH_MAX_BYTES by default. */
  wholePushMaxBytes?: number
  /**
   * Whether a rebuild's version goes out as a difference when one describes it exactly (rebuildDelta.ts);
   * true by default. The bench's opening section turns it off to time the announcement beside it.
   */
  rebuildDifferences?: boolean
  /** The node's read cache: a committed game edit (a freeze now, an unfreeze) drops this node's copies of that game's board. */
  readCache?: Pick<ReadCache, 'onInvalidate'>
}

export class ScoreboardService {
  private readonly owned = new Map<number, Owned>()
  private readonly cache = new Map<number, Cached>()
  private readonly loading = new Map<number, Promise<ScoreboardSnapshot | null>>()
  private stopWatchingGames: (() => void) | undefined
  /** Game edits heard per game, so a copy loaded across one is not kept (`load`). */
  private readonly edits = new Map<number, number>()
  /** Non-owner local builds of frozen games' live boards (staff reads). */
  private readonly liveCache = new Map<number, Cached>()
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
    // A copy (another node's board read from Redis, or built here) may predate a game edit that
    // changes what it must show — a freeze now — for its whole lifetime: the edit's commit drops it.
    this.stopWatchingGames = this.deps.readCache?.onInvalidate((tags) => {
      for (const tag of tags) {
        const gameId = gameOfTag(tag)
        if (gameId !== null && !this.owned.has(gameId)) {
          this.cache.delete(gameId)
          this.liveCache.delete(gameId)
          this.edits.set(gameId, (this.edits.get(gameId) ?? 0) + 1)
        }
      }
    })
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
    this.stopWatchingGames?.()
    await this.ownership?.stopTaking()
    for (const own of this.owned.values()) {
      await own.building?.catch(() => undefined)
      own.pacer.clear()
      if (own.freezeTimer) clearTimeout(own.freezeTimer)
      own.pacer.flush()
      own.pacer.pushChallenges()
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

  /**
   * The public snapshot this node holds in memory right now (owned, or a copy still fresh), without
   * loading anything; null also when a freeze time has passed it (docs/scoring.md#freeze).
   */
  inMemory(gameId: number): ScoreboardSnapshot | null {
    const now = Date.now()
    const own = this.owned.get(gameId)
    if (own) {
      const shown = publicOf(own)
      return shown?.servable(now) ? shown : null
    }
    const cached = this.cache.get(gameId)
    return cached && cached.expires > now && cached.snapshot.servable(now) ? cached.snapshot : null
  }

  /**
   * The current versioned public snapshot of a game — the frozen board while it is frozen — or
   * null when the game does not exist.
   */
  async snapshot(gameId: number): Promise<ScoreboardSnapshot | null> {
    const own = this.owned.get(gameId)
    if (own) {
      const shown = publicOf(own)
      if (shown?.servable()) return shown
      // A freeze time passed and its rebuild is not done yet: wait for the frozen board.
      if (shown && !own.building) this.requestRebuild(own, true)
      while (own.building) await own.building
      const after = this.owned.get(gameId)
      if (after) return publicOf(after)
    }
    const cached = this.cache.get(gameId)
    if (cached && cached.expires > Date.now() && cached.snapshot.servable()) return cached.snapshot
    let pending = this.loading.get(gameId)
    if (!pending) {
      pending = this.load(gameId).finally(() => this.loading.delete(gameId))
      this.loading.set(gameId, pending)
    }
    return pending
  }

  /** The live board held in memory right now (owned, or a fresh local build of a frozen game), without loading anything. */
  liveInMemory(gameId: number): ScoreboardSnapshot | null {
    const own = this.owned.get(gameId)
    if (own) return own.snapshot
    const shown = this.inMemory(gameId)
    if (shown && !shown.model.frozen) return shown
    const cached = this.liveCache.get(gameId)
    return cached && cached.expires > Date.now() ? cached.snapshot : null
  }

  /**
   * The live board for staff (docs/scoring.md#freeze): the public snapshot when the game is not
   * frozen, else the owner's live state, or on another node a short-lived local build.
   */
  async liveSnapshot(gameId: number): Promise<ScoreboardSnapshot | null> {
    const shown = await this.snapshot(gameId)
    if (!shown || !shown.model.frozen) return shown
    const own = this.owned.get(gameId)
    if (own?.snapshot) return own.snapshot
    const cached = this.liveCache.get(gameId)
    if (cached && cached.expires > Date.now()) return cached.snapshot
    const data = await loadGameData(this.pool!, gameId)
    if (!data) return null
    const snapshot = localSnapshot(data, 'live')
    this.liveCache.set(gameId, { snapshot, expires: Date.now() + LOCAL_COPY_TTL_MS })
    return snapshot
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
    // A solve from before the freeze settled late changes the frozen board too: rebuild both (rare).
    if (own.frozen && solve.time < own.frozen.at) return this.requestRebuild(own, true)
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
      // The public board: the frozen one while frozen (the live one is `liveSnapshot`'s).
      const after = this.owned.get(gameId)
      return after ? publicOf(after) : null
    }
    const edits = this.edits.get(gameId)
    const keep = (copy: Cached) => {
      if (this.edits.get(gameId) === edits) this.cache.set(gameId, copy)
    }
    const shared = await this.shared?.read(gameId)
    if (shared?.servable()) {
      // Dropped early when the owner announces a newer version; re-read now and then in case an announcement was missed.
      keep({ snapshot: shared, expires: Date.now() + SHARED_COPY_TTL_MS })
      return shared
    }
    // No copy anywhere (no Redis, or it lost the key), or one a freeze time has passed: build a short-lived local one.
    const snapshot = await buildPublicBoard(this.pool!, gameId)
    if (!snapshot) return null
    keep({ snapshot, expires: Date.now() + LOCAL_COPY_TTL_MS })
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
      livePublic: () => !frozenNow(own),
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
      freeze: { freezeTime: null, unfrozenAt: null },
      frozen: null,
      freezeTimer: null,
    }
    this.owned.set(gameId, own)
    this.requestRebuild(own, push)
  }

  private async release(gameId: number): Promise<void> {
    const own = this.owned.get(gameId)
    own?.pacer.clear()
    if (own?.freezeTimer) clearTimeout(own.freezeTimer)
    this.owned.delete(gameId)
    this.cache.delete(gameId)
    await this.ownership?.release(gameId)
  }

  /** The connection (and with it every lock) is gone: stop acting as owner. */
  private dropOwnership(): void {
    for (const own of this.owned.values()) {
      own.pacer.clear()
      if (own.freezeTimer) clearTimeout(own.freezeTimer)
      const shown = publicOf(own)
      if (shown) this.cache.set(own.gameId, { snapshot: shown, expires: Date.now() + LOCAL_COPY_TTL_MS })
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
      // The frozen board first (docs/scoring.md#freeze): built from the same read, before the live one is shown.
      const at = boardFreeze(data.freeze)
      const frozenData = at ? await loadBoardUntil(this.pool!, data, at.getTime()) : null
      // A node taking a frozen game over, or restarted, keeps the frozen version it finds, if it shows the same board.
      const prior = first && at ? await this.priorFrozen(own.gameId, at.getTime()) : null
      if (this.owned.get(own.gameId) !== own) return
      const state = ScoreboardState.build(data)
      const buffered = own.buffer ?? []
      own.buffer = null
      for (const item of buffered) {
        if ('unlockId' in item) state.applyHintUnlock(item)
        else state.applySolve(item)
      }
      // A pre-freeze solve or unlock that committed after the read is not on the frozen board yet: read again.
      if (at && buffered.some((item) => item.time < at.getTime())) own.rebuildAgain = true
      const wasFrozen = own.frozen !== null
      own.state = state
      own.freeze = data.freeze
      if (first) own.version = Math.max(sharedVersion + 1, (prior?.version ?? 0) + 1, Date.now())
      this.freezeBoard(own, frozenData && at ? { data: frozenData, at: at.getTime() } : null, own.pushAfterBuild || !first, prior)
      this.armFreezeTimer(own)
      if (first) this.publish(own, own.pushAfterBuild)
      else if (wasFrozen && !own.frozen) {
        // Unfrozen: the public room gets the live board whole, and every challenge's values.
        own.pacer.clear()
        own.version += 1
        this.publish(own, true)
        this.pushAllChallenges(own)
      } else own.pacer.schedule()
      own.pushAfterBuild = false
    } catch (err) {
      own.buffer = null
      this.deps.log.error({ err, gameId: own.gameId }, 'scoreboard rebuild failed')
      if (own.snapshot === null) await this.release(own.gameId)
    }
  }

  /**
   * Keep (or drop) the frozen public board: a new version only when what it shows changed, so
   * its ETag and version stand still through the freeze; pushed whole to the public game room.
   */
  private freezeBoard(own: Owned, frozen: { data: GameData; at: number } | null, push: boolean, prior: PriorFrozen | null = null): void {
    if (!frozen) {
      own.frozen = null
      return
    }
    const built = ScoreboardState.build(frozen.data).snapshot(frozen.at, { frozen: true, freezeTime: frozen.at, live: false })
    if (own.frozen?.at === frozen.at && own.frozen.snapshot.json === built.json) return
    const previous = own.frozen?.at === frozen.at ? own.frozen.snapshot : null
    if (!own.frozen && prior?.shows(built.json) && prior.version < own.version) {
      own.frozen = { at: frozen.at, snapshot: new ScoreboardSnapshot(own.gameId, prior.version, built.json, frozen.data.game.start, built.model) }
      return
    }
    own.version += 1
    const snapshot = new ScoreboardSnapshot(own.gameId, own.version, built.json, frozen.data.game.start, built.model)
    // The live board's next version comes after it (a first build publishes `own.version` as it is).
    own.version += 1
    own.frozen = { at: frozen.at, snapshot }
    this.shared?.write(snapshot)
    writeFrozenVersion(this.pool!, own.gameId, frozen.at, { version: snapshot.version, digest: boardDigest(built.json) }).catch((err: unknown) =>
      this.deps.log.warn({ err, gameId: own.gameId }, 'recording the frozen board version failed'),
    )
    if (!push) return
    // The public room holds the previous frozen board: a difference between the two frozen boards
    // (an opening behind the freeze) tells nothing the frozen board does not show.
    const delta = previous && this.deps.rebuildDifferences !== false ? rebuildDelta(previous.model, built.model) : null
    const update: ScoreboardUpdate = delta ? { gameId: own.gameId, version: snapshot.version, base: previous!.version, delta } : this.whole(snapshot)
    this.deps.realtime.publish('user', rooms.game(own.gameId), 'ReceivedScoreboardUpdate', update)
  }

  /** The frozen board a previous owner made: Redis' copy, else the version recorded in the database. */
  private async priorFrozen(gameId: number, at: number): Promise<PriorFrozen | null> {
    const copy = (await this.shared?.read(gameId)) ?? null
    if (copy?.model.frozen) return { version: copy.version, shows: (json) => json === copy.json }
    const recorded = await readFrozenVersion(this.pool!, gameId, at)
    return recorded && { version: recorded.version, shows: (json) => boardDigest(json) === recorded.digest }
  }

  /** A pending freeze takes effect by itself: rebuild when its time comes (docs/scoring.md#freeze). */
  private armFreezeTimer(own: Owned): void {
    if (own.freezeTimer) clearTimeout(own.freezeTimer)
    own.freezeTimer = null
    const pending = pendingFreeze(own.freeze)
    if (!pending || own.frozen || !this.running) return
    const wait = pending.getTime() - Date.now()
    own.freezeTimer = setTimeout(
      () => {
        own.freezeTimer = null
        if (this.owned.get(own.gameId) !== own) return
        if (Date.now() >= pending.getTime()) this.requestRebuild(own, true)
        else this.armFreezeTimer(own)
      },
      Math.min(MAX_TIMER_MS, Math.max(0, wait)),
    )
    own.freezeTimer.unref?.()
  }

  /** After an unfreeze: every challenge's current values to the public game room. */
  private pushAllChallenges(own: Owned): void {
    const challenges = Object.values(own.snapshot!.model.challenges).flatMap((list) => (list ?? []).map((c) => ({ id: c.id, score: c.score, solved: c.solved, bloods: c.bloods })))
    if (challenges.length > 0) this.deps.realtime.publish('user', rooms.game(own.gameId), 'ReceivedChallengeUpdate', { gameId: own.gameId, challenges })
  }

  /** Snapshot the state as the current version, store it, and (when `push`) tell the game room. */
  private publish(own: Owned, push: boolean): void {
    const now = Date.now()
    const previous = own.snapshot
    const base = previous?.version ?? null
    const pending = pendingFreeze(own.freeze)
    const view: BoardView = { frozen: false, freezeTime: pending?.getTime() ?? null, live: own.frozen !== null }
    const built = own.state!.snapshot(now, view)
    // A live board stops being the public one when a pending freeze time comes.
    const validUntil = own.frozen || !pending ? Infinity : pending.getTime()
    const snapshot = new ScoreboardSnapshot(own.gameId, own.version, built.json, own.state!.game.start, built.model, validUntil)
    own.snapshot = snapshot
    own.pacer.versioned(now)
    const changed = own.challengeChanges.next(built.challenges)
    // Redis holds the public board for other nodes: the frozen one while frozen.
    if (!own.frozen) this.shared?.write(snapshot)
    if (!push) return
    if (built.changedCells && base !== null) {
      own.pacer.pushBoard({
        gameId: own.gameId,
        version: snapshot.version,
        base,
        delta: { updateTimeUTC: snapshot.model.updateTimeUTC, challenges: changed, items: built.changedCells },
      })
    } else {
      // A state that was just rebuilt has no cell changes of its own: the difference from the previous
      // version when one gives this one exactly (an opening's new column), else the whole board.
      const delta = previous && this.deps.rebuildDifferences !== false ? rebuildDelta(previous.model, snapshot.model) : null
      own.pacer.pushBoard(delta && base !== null ? { gameId: own.gameId, version: snapshot.version, base, delta } : this.whole(snapshot))
    }
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

  /**
   * How watchers hear of a version they cannot get as a difference: the whole board when it is
   * small, else its announcement — the gzipped copy the watchers' reads will want is started now,
   * once, off the event loop (the reads that come before it is ready wait for the same one).
   */
  private whole(snapshot: ScoreboardSnapshot): ScoreboardUpdate {
    if (Buffer.byteLength(snapshot.json) <= (this.deps.wholePushMaxBytes ?? WHOLE_PUSH_MAX_BYTES)) {
      return { gameId: snapshot.gameId, version: snapshot.version, scoreboard: snapshot.model }
    }
    snapshot.gzippedNow()
    return { gameId: snapshot.gameId, version: snapshot.version, refetch: true }
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

/** The board the public sees of an owned game: the frozen one while frozen, else the live one. */
function publicOf(own: Owned): ScoreboardSnapshot | null {
  return own.frozen?.snapshot ?? own.snapshot
}

/** Whether the public must not hear the live board now: frozen, or a freeze time passed before its rebuild. */
function frozenNow(own: Owned): boolean {
  return own.frozen !== null || boardFreeze(own.freeze) !== null
}

/** A non-owner's short-lived local build: the public live board, the frozen one, or the staff live one. */
function localSnapshot(data: LoadedGame | GameData, kind: 'public' | 'frozen' | 'live', at?: number): ScoreboardSnapshot {
  const freeze = 'freeze' in data ? data.freeze : null
  const pending = freeze ? pendingFreeze(freeze) : null
  const view: BoardView =
    kind === 'frozen' ? { frozen: true, freezeTime: at!, live: false } : { frozen: false, freezeTime: pending?.getTime() ?? null, live: kind === 'live' }
  const built = ScoreboardState.build(data).snapshot(kind === 'frozen' ? at : Date.now(), view)
  const validUntil = kind === 'public' && pending ? pending.getTime() : Infinity
  // A frozen board's version is its freeze time, so it stands still between local builds.
  return new ScoreboardSnapshot(data.game.id, kind === 'frozen' ? at! : Date.now(), built.json, data.game.start, built.model, validUntil)
}

/**
 * The public board of a game built from the database alone (tools without a running engine, e.g.
 * the archive CLI): the frozen board while the game is frozen. Null when there is no such game.
 */
export async function buildPublicBoard(pool: pg.Pool, gameId: number): Promise<ScoreboardSnapshot | null> {
  const data = await loadGameData(pool, gameId)
  if (!data) return null
  const at = boardFreeze(data.freeze)
  return at ? localSnapshot(await loadBoardUntil(pool, data, at.getTime()), 'frozen', at.getTime()) : localSnapshot(data, 'public')
}
