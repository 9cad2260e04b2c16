/**
 * Which games' engines this node owns. One node owns a game at a time by holding a session-level
 * advisory lock on a dedicated connection (which also LISTENs for the scoreboard's channels).
 * When the owner dies its lock goes with its connection, and another node takes the game over
 * within a couple of seconds: every node looks now and then for games asked for recently whose
 * lock is free, and after (re)connecting takes the running games, so their boards are ready
 * before the first request.
 */
import type pg from 'pg'
import type { Logger } from 'pino'
import { DedicatedConnection } from '../../db/dedicatedConnection.js'

/** How often a node looks for games without a living owner. */
const TAKEOVER_INTERVAL_MS = 2000
/** Games asked for are watched for takeover this long. */
const INTEREST_MS = 10 * 60_000
/** Advisory-lock namespace (first key of the two-int form). */
const LOCK_CLASS = 0x46570001

/** What ownership asks of the node's scoreboard. */
export interface Owner {
  owns(gameId: number): boolean
  /** The game's lock is now held by this node: start owning it (`push`: push its first version). */
  take(gameId: number, push: boolean): void
  /** The connection, and with it every lock, is gone: stop acting as owner. */
  lost(): void
  onNotification(channel: string, payload: string): void
}

export interface OwnershipOptions {
  url: string
  pool: pg.Pool
  log: Logger
  /** Channels the dedicated connection LISTENs on. */
  channels: string[]
}

export class Ownership {
  private control: DedicatedConnection | null = null
  /** Game → until when another node is known to own it. */
  private readonly elsewhere = new Map<number, number>()
  private readonly interest = new Map<number, number>()
  private takeover: NodeJS.Timeout | null = null
  private running = false
  private sweeping: Promise<void> | null = null

  constructor(
    private readonly options: OwnershipOptions,
    private readonly owner: Owner,
  ) {}

  /** Connect, listen, take the running games this node can own, and watch for orphaned ones. */
  async start(): Promise<void> {
    this.running = true
    this.control = new DedicatedConnection({
      url: this.options.url,
      name: 'scoreboard',
      log: this.options.log,
      channels: this.options.channels,
      onNotification: (channel, payload) => this.owner.onNotification(channel, payload),
      onDown: () => this.owner.lost(),
      onUp: () => this.sweep(true),
    })
    await this.control.start()
    this.takeover = setInterval(() => void this.sweep(false), TAKEOVER_INTERVAL_MS)
    this.takeover.unref()
  }

  /** Take no more games (the first step of stopping). */
  async stopTaking(): Promise<void> {
    this.running = false
    if (this.takeover) clearInterval(this.takeover)
    await this.sweeping?.catch(() => undefined)
  }

  /** Release every lock at once, so another node can take the games over without waiting. */
  async releaseAll(): Promise<void> {
    if (this.control?.connected) await this.control.query('select pg_advisory_unlock_all()').catch(() => undefined)
  }

  async close(): Promise<void> {
    await this.control?.stop()
  }

  /** A game was asked for: watch it for takeover for a while. */
  noteInterest(gameId: number): void {
    this.interest.set(gameId, Date.now())
  }

  /** Try to take the given games; the acquired ones are handed to the owner. Returns them. */
  async acquire(gameIds: number[], push = false): Promise<number[]> {
    const wanted = gameIds.filter((id) => !this.owner.owns(id))
    if (!this.running || !this.control?.connected || wanted.length === 0) return []
    let rows: { g: number; ok: boolean }[]
    try {
      rows = (await this.control.query<{ g: number; ok: boolean }>(`select g, pg_try_advisory_lock($1, g) as ok from unnest($2::int[]) as g`, [LOCK_CLASS, wanted])).rows
    } catch (err) {
      this.options.log.warn({ err }, 'scoreboard lock attempt failed')
      return []
    }
    const got: number[] = []
    for (const { g, ok } of rows) {
      if (!ok) {
        this.elsewhere.set(g, Date.now() + TAKEOVER_INTERVAL_MS)
        continue
      }
      if (this.owner.owns(g)) {
        // Raced with another acquisition of ours: drop the extra lock count.
        await this.control.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, g]).catch(() => undefined)
        continue
      }
      this.elsewhere.delete(g)
      this.owner.take(g, push)
      got.push(g)
    }
    return got
  }

  /** Take over a game that seems to have no owner (a solve or rebuild request for it arrived). */
  async adopt(gameId: number): Promise<void> {
    if (this.owner.owns(gameId) || (this.elsewhere.get(gameId) ?? 0) > Date.now()) return
    await this.acquire([gameId], true)
  }

  /** Let go of one game's lock. */
  async release(gameId: number): Promise<void> {
    if (this.control?.connected) await this.control.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, gameId]).catch(() => undefined)
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
          const live = await this.options.pool.query<{ id: number }>(`select id from games where start <= now() + interval '5 minutes' and "end" >= now()`)
          for (const row of live.rows) candidates.add(row.id)
        }
        // A takeover pushes (clients may have missed updates while the game had no owner).
        await this.acquire([...candidates], !withRunning)
      } catch (err) {
        this.options.log.warn({ err }, 'scoreboard takeover sweep failed')
      } finally {
        this.sweeping = null
      }
    })()
    return this.sweeping
  }
}
