/**
 * The submission queue's wake-up (docs/scoring.md#submission-queue). A submission is one
 * autocommitted INSERT; this node's checkers are woken in-process at once, the other nodes' by a
 * `NOTIFY flagwave_submissions` sent afterwards, at most one every few milliseconds whatever the
 * rate. A NOTIFY inside each submitting transaction would take PostgreSQL's notification lock at
 * every commit and serialise them: pgbench on this kind of machine gives about 2,000 single-row
 * inserts per second, 160–200 with a NOTIFY in each.
 *
 * The NOTIFY carries this node's `origin`, so its own checkers (woken already) ignore it: woken
 * twice, they ran an empty claiming transaction for every submission.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'

export const SUBMISSION_CHANNEL = 'flagwave_submissions'

/**
 * The shortest time between two NOTIFYs of one node: short when no checker runs here (the other
 * nodes judge every submission of this one), longer when this node's own checkers settle its
 * submissions at once and the other nodes only share a backlog (they loop while batches are full).
 */
const NOTIFY_SPACING_MS = 5
const NOTIFY_SPACING_WITH_CHECKERS_MS = 50

export class SubmissionSignal {
  /** This node's NOTIFY payload. */
  readonly origin = randomUUID()
  private readonly local = new Set<() => void>()
  private lastSent = 0
  /** A NOTIFY is scheduled and not sent yet: it will cover every row committed before it. */
  private scheduled = false
  private sending = false
  /** A row committed while a NOTIFY was on its way: another one follows. */
  private again = false
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly notify: (origin: string) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  /** A checker of this node: called at once for every submission made here. Returns the unsubscribe. */
  onSubmitted(wake: () => void): () => void {
    this.local.add(wake)
    return () => this.local.delete(wake)
  }

  /** Whether a NOTIFY payload came from this node (its checkers were woken in-process already). */
  isOwn(payload: string): boolean {
    return payload === this.origin
  }

  /** A submission row has committed. */
  submitted(): void {
    for (const wake of this.local) wake()
    if (this.scheduled) return
    if (this.sending) this.again = true
    else this.schedule()
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.scheduled = false
  }

  private schedule(): void {
    this.scheduled = true
    const spacing = this.local.size > 0 ? NOTIFY_SPACING_WITH_CHECKERS_MS : NOTIFY_SPACING_MS
    this.timer = setTimeout(() => this.send(), Math.max(0, this.lastSent + spacing - Date.now()))
    this.timer.unref()
  }

  private send(): void {
    this.timer = null
    this.scheduled = false
    this.sending = true
    this.lastSent = Date.now()
    this.notify(this.origin)
      // Nothing is lost: the other nodes' checkers poll every 2 s.
      .catch((err: unknown) => this.log.warn({ err }, 'submission NOTIFY failed'))
      .finally(() => {
        this.sending = false
        if (this.again) {
          this.again = false
          this.schedule()
        }
      })
  }
}
