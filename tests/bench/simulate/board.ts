/**
 * The scoreboard as a screen follows it (client/src/live/reducers.ts; docs/realtime.md#scoreboard-versions-and-gap-repair):
 * the version read over REST, then each push — a whole board sets the version, a difference applies
 * only to its base version, and a difference from another base means a version was missed, so the
 * board is read again; an announced version is read over REST. A read joins one already in flight.
 */
import type { Browser } from './http.js'
import type { BoardUpdate } from './pushes.js'
import type { Stats } from './stats.js'

export class ScoreboardFollower {
  private version: number | null = null
  private reading: Promise<void> | null = null

  constructor(
    private readonly browser: Browser,
    private readonly gameId: number,
    private readonly stats: Stats,
    /** Who follows, for the gap counter: `players`, `big screens`. */
    private readonly who: string,
  ) {}

  /** Read the board (joining a read already in flight, as the SPA's query does). */
  read(): Promise<void> {
    this.reading ??= this.fetch().finally(() => (this.reading = null))
    return this.reading
  }

  private async fetch(): Promise<void> {
    const res = await this.browser.read(`/api/game/${this.gameId}/scoreboard`, 'GET /api/game/{id}/scoreboard')
    const version = Number(res.headers['x-scoreboard-version'])
    if (res.status === 200 && Number.isFinite(version)) this.version = Math.max(this.version ?? 0, version)
  }

  fold(update: BoardUpdate): void {
    if (update.refetch) {
      if (this.version === null || update.version > this.version) void this.read().catch(() => undefined)
      return
    }
    if (update.scoreboard || this.version === null) {
      this.version = update.version
      return
    }
    if (update.version <= this.version) return
    if (update.base === this.version) {
      this.version = update.version
      return
    }
    this.stats.count(`${this.who}: scoreboard gap → board read again`)
    void this.read().catch(() => undefined)
  }
}
