/**
 * Every submission the server gave an id for, until its verdict is known: by the team-room push
 * (`ReceivedSubmissionResult`) or, like the SPA after 1.5 s without a push, by polling the status
 * call every 500 ms. At the end nothing may be left unsettled ("lost"), every right flag must be
 * `Accepted` and every wrong one `WrongAnswer`.
 */
import type { Stats } from './stats.js'

export interface Entry {
  id: number
  challengeId: number
  /** The team's scoreboard row, when known. */
  rowId: number | null
  right: boolean
  sentAt: number
  status: string | null
  /** Who learnt the verdict first. */
  via: 'push' | 'poll' | null
  settled: Promise<string>
  resolve: (status: string) => void
}

export class Ledger {
  private readonly entries = new Map<number, Entry>()
  /** Verdicts pushed before the POST that queued them had answered (the push may beat the answer). */
  private readonly early = new Map<number, { status: string; at: number }>()

  constructor(private readonly stats: Stats) {}

  add(id: number, challengeId: number, rowId: number | null, right: boolean, sentAt: number): Entry {
    let resolve!: (status: string) => void
    const settled = new Promise<string>((r) => (resolve = r))
    const known = this.entries.get(id)
    if (known) {
      // The server handed out the same id twice: two submissions share one row.
      this.stats.count('submissions: id handed out twice')
      return known
    }
    const entry: Entry = { id, challengeId, rowId, right, sentAt, status: null, via: null, settled, resolve }
    this.entries.set(id, entry)
    const early = this.early.get(id)
    if (early) {
      this.early.delete(id)
      this.stats.count('submissions: verdict pushed before the POST answered')
      this.settle(id, early.status, 'push', early.at)
    }
    return entry
  }

  get(id: number): Entry | undefined {
    return this.entries.get(id)
  }

  /** A verdict for `id` (from any socket of the team, or a status poll); the first one counts. */
  settle(id: number, status: string, via: 'push' | 'poll', at = performance.now()): void {
    if (status === 'FlagSubmitted') return
    const entry = this.entries.get(id)
    if (!entry) {
      if (via === 'push' && !this.early.has(id)) this.early.set(id, { status, at })
      return
    }
    if (entry.status !== null) {
      if (entry.status !== status) this.stats.count('submissions: verdict changed after it was given')
      return
    }
    entry.status = status
    entry.via = via
    this.stats.latency(`submit → verdict (${entry.right ? 'right' : 'wrong'} flag, first by ${via})`, at - entry.sentAt)
    entry.resolve(status)
  }

  all(): Entry[] {
    return [...this.entries.values()]
  }

  summary(): { total: number; accepted: number; wrong: number; unsettled: number; mismatched: number; byPush: number; byPoll: number } {
    let accepted = 0
    let wrong = 0
    let unsettled = 0
    let mismatched = 0
    let byPush = 0
    let byPoll = 0
    for (const e of this.entries.values()) {
      if (e.status === null) unsettled++
      else if (e.status === 'Accepted') accepted++
      else wrong++
      if (e.status !== null && (e.status === 'Accepted') !== e.right) mismatched++
      if (e.via === 'push') byPush++
      if (e.via === 'poll') byPoll++
    }
    return { total: this.entries.size, accepted, wrong, unsettled, mismatched, byPush, byPoll }
  }
}
