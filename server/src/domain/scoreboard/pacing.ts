/**
 * How often one game's scoreboard is pushed (docs/realtime.md#pacing). At most one
 * `ReceivedScoreboardUpdate` per 100 ms, followed in the same write by `ReceivedChallengeUpdate`
 * when challenge scores, solve counts or bloods changed. Each push costs a write (a system call)
 * per watching socket, so with thousands of watchers pushes are spaced by what their fan-out
 * actually cost on this node: they may take at most 60 % of its event loop. A push is held back
 * while many watchers are still receiving the previous one.
 */
import { rooms, type ScoreboardUpdate } from '@flagwave/shared/events'
import type { ImmediatePublish } from '../../realtime/sink.js'
import type { ChallengeChanges } from './delta.js'

/** Minimum spacing of two pushes of one game (docs/realtime.md#pacing); see `pushSpacing()` for large audiences. */
export const PUSH_INTERVAL_MS = 100
/**
 * The share of a node's event loop one game's pushes may take. A push is written to every
 * watching socket synchronously (a few µs each on loopback here, realtime/fanOut.ts), so its
 * measured duration over this share is the spacing that leaves the rest of the loop to requests,
 * checkers and timers. (Measured, not configured: the cost of a write differs tenfold between
 * loopback and a NIC.)
 */
const FANOUT_SHARE = 0.6
/** Whatever the fan-out, a board is pushed at least this often while it changes. */
const MAX_PUSH_INTERVAL_MS = 2000
/** How soon a push held back by busy sockets is tried again. */
const BACKLOG_RETRY_MS = 25

/** The game a pacer pushes for. */
export interface PacedGame {
  readonly gameId: number
  /** Whether the state changed since the last version. */
  changed(): boolean
  /** Whether this node still paces the game (a timer may fire after the game was released). */
  live(): boolean
  /** Whether the node is running; a stopping node sends what is pending at once. */
  running(): boolean
  /** Make the next version and push it (`pushBoard`). */
  nextVersion(): void
  /**
   * Whether the game room of the user hub hears the live board: not while the public board is
   * frozen (docs/scoring.md#freeze); the monitor hub's game room (staff) hears it then instead.
   */
  livePublic(): boolean
  /** What ReceivedChallengeUpdate has not told yet. */
  readonly challengeChanges: ChallengeChanges
}

export class PushPacer {
  private lastPush = 0
  private timer: NodeJS.Timeout | null = null
  /** How long the last push (board and challenge update) took to write to this node's sockets (ms). */
  private fanOutMs = 0

  constructor(
    private readonly game: PacedGame,
    private readonly realtime: ImmediatePublish,
  ) {}

  /** Push the changes once the spacing since the last push allows. */
  schedule(): void {
    if (this.timer || !this.game.running()) return
    const wait = Math.max(0, this.lastPush + pushSpacing(this.fanOutMs, FANOUT_SHARE) - Date.now())
    this.timer = setTimeout(() => {
      this.timer = null
      if (this.game.live()) this.flush()
    }, wait)
  }

  /** Push the changes now (a rebuild the caller waits for), instead of when they are due. */
  flushNow(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.flush()
  }

  /** Push what changed, unless nothing did or many watchers are still receiving the previous board. */
  flush(): void {
    if (!this.game.changed()) return
    if (this.realtime.backlogged('user', rooms.game(this.game.gameId))) {
      // Many watchers are still receiving the previous board: send the newest one when they are done.
      this.lastPush = Date.now() - PUSH_INTERVAL_MS + BACKLOG_RETRY_MS
      this.schedule()
      return
    }
    this.game.nextVersion()
  }

  /** A version was made at `now`: the next push is spaced from it. */
  versioned(now: number): void {
    this.lastPush = now
  }

  /**
   * Send a board to the game room and, when challenge values changed, the challenge update after it
   * in the same write to each socket (one system call per socket for both), measuring the fan-out.
   */
  pushBoard(update: ScoreboardUpdate): void {
    const room = rooms.game(this.game.gameId)
    const toPublic = this.game.livePublic()
    this.fanOutMs = timed(() =>
      this.realtime.together(() => {
        if (toPublic) this.realtime.publish('user', room, 'ReceivedScoreboardUpdate', update)
        else this.realtime.publish('monitor', room, 'ReceivedScoreboardUpdate', update)
        this.pushChallenges()
      }),
    )
  }

  /** Tell the game room the challenges' new scores, if any changed since the last update. */
  pushChallenges(): void {
    const changes = this.game.challengeChanges
    if (!changes.hasUnsent) return
    const gameId = this.game.gameId
    const update = { gameId, challenges: changes.takeUnsent() }
    // Frozen: per-team challenge values would tell post-freeze solves, so only staff hear them.
    if (this.game.livePublic()) this.realtime.publish('user', rooms.game(gameId), 'ReceivedChallengeUpdate', update)
    else this.realtime.publish('monitor', rooms.game(gameId), 'ReceivedChallengeUpdate', update)
  }

  /** Forget the pending push (the game is released). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}

/** How long `write` took (ms): a broadcast writes to this node's sockets before it returns. */
function timed(write: () => void): number {
  const start = performance.now()
  write()
  return performance.now() - start
}

/** The spacing of pushes whose fan-out took `fanOutMs` and may take `share` of the event loop. */
export function pushSpacing(fanOutMs: number, share: number): number {
  return Math.min(MAX_PUSH_INTERVAL_MS, Math.max(PUSH_INTERVAL_MS, fanOutMs / share))
}
