/**
 * The submission checkers of a node (docs/scoring.md#submission-queue): `CHECKER_CONCURRENCY` loops settle batches of
 * the durable queue (domain/submissions/settle.ts). They are woken in-process by this node's
 * submissions and by LISTEN on `flagwave_submissions` for the other nodes' (a dedicated connection,
 * reconnected after errors, domain/submissions/queue.ts), and poll every 2 s as a
 * safety net, so a missed NOTIFY, a crash or a restart loses nothing. After each commit they
 * publish in the contract's order (docs/realtime.md#order; docs/scoring.md): monitor events → blood notice →
 * monitor submission → team result → scoreboard engine → the audit entry to admins (stored with
 * the settlement, so every settled submission has exactly one).
 */
import type pg from 'pg'
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { DedicatedConnection } from '../db/dedicatedConnection.js'
import { databaseUrl, nativePool } from '../db/pg.js'
import { SUBMISSION_CHANNEL } from '../domain/submissions/queue.js'
import { settleBatch, type Settled } from '../domain/submissions/settle.js'
import { publishSettled, publishSettledAudit } from '../domain/submissions/events.js'

/** Rows claimed per transaction. */
const CHECKER_BATCH = 50
/** Poll interval when no NOTIFY arrives. */
const CHECKER_POLL_MS = 2000

export async function startChecker(services: Services): Promise<Worker | null> {
  const concurrency = services.config.CHECKER_CONCURRENCY
  if (concurrency <= 0) return null
  const checker = new Checker(services, concurrency)
  await checker.start()
  return checker
}

class Checker implements Worker {
  readonly name = 'checker'
  private pool!: pg.Pool
  private listener!: DedicatedConnection
  private loops: Promise<void>[] = []
  private stopping = false
  /** Bumped by every wake-up, so a NOTIFY that arrives mid-batch is not slept through. */
  private generation = 0
  private waiters = new Set<() => void>()
  private unsubscribe: (() => void) | null = null

  constructor(
    private readonly services: Services,
    private readonly concurrency: number,
  ) {}

  async start(): Promise<void> {
    this.pool = await nativePool(this.services.orm)
    this.listener = new DedicatedConnection({
      url: databaseUrl(this.services.orm),
      name: 'checker',
      log: this.services.log,
      channels: [SUBMISSION_CHANNEL],
      // Another node's submissions; this node's own woke its checkers in-process already.
      onNotification: (_channel, payload) => {
        if (!this.services.submissions.isOwn(payload)) this.wake()
      },
      // (Re)connected: whatever was queued meanwhile is picked up now.
      onUp: () => this.wake(),
    })
    await this.listener.start()
    // Submissions made on this node wake its checkers without a round trip through PostgreSQL.
    this.unsubscribe = this.services.submissions.onSubmitted(() => this.wake())
    for (let i = 0; i < this.concurrency; i++) this.loops.push(this.loop())
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.unsubscribe?.()
    this.wake(true)
    await Promise.all(this.loops)
    await this.listener.stop()
  }

  /**
   * New rows may be queued: one idle loop claims them (waking every loop made the others run an
   * empty claiming transaction per submission). A loop mid-batch sees the generation move and
   * claims again; a batch that comes back full wakes one more loop, so a backlog spreads over all.
   */
  private wake(all = false): void {
    this.generation += 1
    this.release(all)
  }

  private release(all = false): void {
    for (const resolve of this.waiters) {
      resolve()
      if (!all) return
    }
  }

  private idle(since: number, ms: number): Promise<void> {
    if (this.generation !== since || this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiters.add(done)
    })
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const generation = this.generation
      let batch: Settled[]
      try {
        batch = await settleBatch(this.pool, CHECKER_BATCH)
      } catch (err) {
        this.services.log.error({ err }, 'submission checker batch failed')
        await this.idle(generation, 1000)
        continue
      }
      if (batch.length > 0) this.publish(batch)
      if (batch.length === CHECKER_BATCH) this.release()
      else await this.idle(generation, CHECKER_POLL_MS)
    }
  }

  private publish(batch: Settled[]): void {
    const { realtime, scoreboard } = this.services
    // The batch's pushes leave each socket in one write and reach the other nodes in one message (docs/realtime.md#relay).
    realtime.relayed('SettledBatch', () => {
      for (const s of batch) {
        this.services.metrics.settledSubmission(s.status)
        try {
          publishSettled(realtime, s)
          if (s.solve) scoreboard.applySolve(s.gameId, s.solve)
        } catch (err) {
          this.services.log.error({ err, submission: s.id }, 'publishing a settled submission failed')
        }
        // The audit entry was stored with the settlement; admins get it live like every other (docs/realtime.md#admin-hub-events).
        this.services.log.info({ audit: s.audit.message, user: s.audit.userName, status: s.audit.status }, 'audit')
        publishSettledAudit(realtime, s)
      }
    })
  }
}
