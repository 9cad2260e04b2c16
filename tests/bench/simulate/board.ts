/**
 * The scoreboard as a screen follows it (client/src/pages/games/useGameLive.ts `readAtLeast`;
 * docs/realtime.md#scoreboard-versions-and-gap-repair): the version read over REST, then each push —
 * a whole board sets the version, a difference applies only to its base version. A difference from
 * another base (a version was missed) or an announced version is read over REST until the answer
 * is at least that version, as the SPA does: a read joins one already in flight, which may answer
 * an older version (a difference that arrived while a large board was on its way), and is then
 * repeated after the SPA's waits. Without the repeat, a follower that read once per gap stayed one
 * difference behind for as long as differences kept coming, and read the whole board on each.
 */
import type { Browser } from './http.js'
import type { BoardUpdate } from './pushes.js'
import type { Stats } from './stats.js'

/** The SPA's waits between reads of a version not yet answered (useGameLive.ts ANNOUNCED_RETRY_MS). */
const READ_AGAIN_MS = [0, 200, 500, 1000, 2000, 4000]

export class ScoreboardFollower {
  private version: number | null = null
  private reading: Promise<void> | null = null
  /** The version a running `readAtLeast` reads for. */
  private wanted = 0

  constructor(
    private readonly browser: Browser,
    private readonly gameId: number,
    /** The statistics in force (the event's replace the sign-up's when it starts). */
    private readonly stats: () => Stats,
    /** Who follows, for the gap counter: `players`, `big screens`. */
    private readonly who: string,
  ) {}

  /** Read the board (joining a read already in flight, as the SPA's query does). */
  read(): Promise<void> {
    this.reading ??= this.fetch().finally(() => (this.reading = null))
    return this.reading
  }

  private async fetch(): Promise<void> {
    // Only the version is followed here: the body is received, not parsed (simulate/http.ts `discardBody`).
    const res = await this.browser.read(`/api/game/${this.gameId}/scoreboard`, 'GET /api/game/{id}/scoreboard', true)
    const version = Number(res.headers['x-scoreboard-version'])
    if (res.status === 200 && Number.isFinite(version)) this.version = Math.max(this.version ?? 0, version)
  }

  /** Follow a push; whether it was a difference applied to the version held (the SPA then folds it into the team's board). */
  fold(update: BoardUpdate): boolean {
    if (update.refetch) {
      this.readAtLeast(update.version)
      return false
    }
    if (update.scoreboard || this.version === null) {
      this.version = update.version
      return false
    }
    if (update.version <= this.version) return false
    if (update.base === this.version) {
      this.version = update.version
      return true
    }
    this.stats().count(`${this.who}: scoreboard gap → board read again`)
    this.readAtLeast(update.version)
    return false
  }

  /** Read until the answer is at least `version`, unless a loop for it (or later) runs already. */
  private readAtLeast(version: number): void {
    if (version <= this.wanted) return
    this.wanted = version
    const reached = () => (this.version ?? -1) >= version
    void (async () => {
      for (const wait of READ_AGAIN_MS) {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        if (reached()) return
        await this.read()
        if (reached()) return
      }
    })().catch(() => undefined)
  }
}
