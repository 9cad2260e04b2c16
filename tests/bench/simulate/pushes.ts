/**
 * Push latencies of the simulated event, measured between two points in this one process (one
 * clock): a notice posted by the admin → received by each player; a challenge opened → its
 * `NewChallenge` notice received; a right flag sent → the first scoreboard push that shows the
 * solve, on every player's socket and on the big screens.
 */
import type { Stats } from './stats.js'

interface Cell {
  id: number
  type: string
}
interface Row {
  id: number
  challenges: Cell[]
}
export interface BoardUpdate {
  version: number
  /** An announced version (a large board after a rebuild): read it over REST. */
  refetch?: true
  base?: number
  /** A difference; `added` are the challenges that joined the board (an opening). */
  delta?: { items: Row[]; added?: { challenge: { id: number; title: string } }[] }
  scoreboard?: { items: Row[] }
}

/** How long a solve is looked for in pushes (a socket that never shows it is not waited for). */
const SOLVE_WINDOW_MS = 60_000

/** One solve as a big screen first saw it (times are performance.now()). */
export interface ScreenSighting {
  rowId: number
  challengeId: number
  sentAt: number
  at: number
  version: number
  /** Shown first by a whole board (after a rebuild) rather than by a difference. */
  whole: boolean
}

export class SolveTracker {
  private readonly pending = new Map<string, { sentAt: number; seenBy: Set<string> }>()
  /** Every solve's first sighting on the first big screen, to explain the slow ones. */
  readonly screenSightings: ScreenSighting[] = []

  constructor(private readonly stats: Stats) {
    setInterval(() => {
      const limit = performance.now() - SOLVE_WINDOW_MS
      for (const [key, entry] of this.pending) if (entry.sentAt < limit) this.pending.delete(key)
    }, 5_000).unref()
  }

  /**
   * A right flag is being sent for this board row and challenge (the first one counts). Call it
   * before the POST: the push may arrive before the POST's answer. Returns a function that takes
   * it back (the POST failed).
   */
  sending(rowId: number, challengeId: number, sentAt: number): () => void {
    const key = `${rowId}:${challengeId}`
    if (this.pending.has(key)) return () => undefined
    const entry = { sentAt, seenBy: new Set<string>() }
    this.pending.set(key, entry)
    return () => {
      if (this.pending.get(key) === entry) this.pending.delete(key)
    }
  }

  /** A scoreboard push arrived at `receiver` (`player` or `screen` sockets, told apart by `kind`). */
  observe(update: BoardUpdate, receiver: string, kind: string): void {
    if (this.pending.size === 0) return
    const at = performance.now()
    const rows = update.delta?.items ?? update.scoreboard?.items ?? []
    if (update.scoreboard) {
      // A whole board: look only for the rows with a pending solve.
      const wanted = new Set([...this.pending.keys()].map((k) => Number(k.split(':')[0])))
      for (const row of rows) if (wanted.has(row.id)) this.cells(row, update, receiver, kind, at)
    } else for (const row of rows) this.cells(row, update, receiver, kind, at)
  }

  private cells(row: Row, update: BoardUpdate, receiver: string, kind: string, at: number): void {
    const whole = update.scoreboard !== undefined
    for (const cell of row.challenges) {
      if (cell.type === 'Unaccepted') continue
      const entry = this.pending.get(`${row.id}:${cell.id}`)
      if (!entry || entry.seenBy.has(receiver)) continue
      entry.seenBy.add(receiver)
      this.stats.latency(`solve → scoreboard push (${kind})`, at - entry.sentAt)
      if (whole) this.stats.count(`solves first shown by a whole board, not a difference (${kind})`)
      if (receiver === 'screen0') this.screenSightings.push({ rowId: row.id, challengeId: cell.id, sentAt: entry.sentAt, at, version: update.version, whole })
    }
  }
}

export interface NoticeReceipt {
  kind: string
  match: string
  /** Player sockets connected when it was posted, and how many of them received it. */
  connected: number
  receivers: number
}

export class NoticeTracker {
  private readonly posted: (NoticeReceipt & { type: string; at: number })[] = []

  constructor(private readonly stats: Stats) {}

  /**
   * The admin is about to cause a notice of `type` whose content contains `match`, while
   * `connected` player sockets listen; `kind` names the figure.
   */
  expect(type: string, match: string, kind: string, connected: number): void {
    this.posted.push({ type, match, at: performance.now(), kind, connected, receivers: 0 })
  }

  observe(notice: { type?: string; content?: string }): void {
    const content = notice.content ?? ''
    const entry = this.posted.find((p) => p.type === notice.type && content.includes(p.match))
    if (!entry) return
    entry.receivers++
    this.stats.latency(`${entry.kind} → player`, performance.now() - entry.at)
  }

  receipts(): NoticeReceipt[] {
    return this.posted.map(({ kind, match, connected, receivers }) => ({ kind, match, connected, receivers }))
  }
}
