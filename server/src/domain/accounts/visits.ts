/**
 * Last visits (docs/compatibility.md#sessions-and-roles): a signed-in request records its user's
 * visit time and address at most once every 5 s. Written one statement per user, that was the most
 * frequent write of a running event — a simulated event of 400 players made 14,152 of them beside
 * 1,788 submissions, each an awaited round trip inside a request. They are collected here and
 * written together, one statement a second; the cached session shows the new visit at once.
 */
import type pg from 'pg'
import type { Logger } from 'pino'

/** How long a visit waits for others before they are written together. */
const FLUSH_DELAY_MS = 1000
/** Users per statement (a burst of arrivals is written in a few). */
const BATCH = 5000

interface Visit {
  at: Date
  ip: string
}

export class VisitRecorder {
  private pending = new Map<string, Visit>()
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly pool: () => Promise<pg.Pool>,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly delayMs = FLUSH_DELAY_MS,
  ) {}

  /** Note a visit; the latest of a user wins. */
  record(userId: string, at: Date, ip: string): void {
    this.pending.set(userId, { at, ip })
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs)
      this.timer.unref()
    }
  }

  /** Write what is pending now (also on shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const visits = [...this.pending]
    this.pending = new Map()
    if (visits.length === 0) return this.writing
    // One write at a time, in order, so an older batch never lands after a newer one.
    this.writing = this.writing.then(() => this.write(visits))
    return this.writing
  }

  private async write(visits: [string, Visit][]): Promise<void> {
    try {
      const pool = await this.pool()
      for (let i = 0; i < visits.length; i += BATCH) {
        const batch = visits.slice(i, i + BATCH)
        await pool.query(
          `update users u set last_visited = v.at, ip = v.ip
             from unnest($1::uuid[], $2::timestamptz[], $3::text[]) as v(id, at, ip)
            where u.id = v.id`,
          [batch.map(([id]) => id), batch.map(([, v]) => v.at), batch.map(([, v]) => v.ip)],
        )
      }
    } catch (err) {
      this.log.warn({ err, users: visits.length }, 'recording visits failed')
    }
  }
}
