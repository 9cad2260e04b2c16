/**
 * The board of a game at any moment (docs/scoring.md#replay), pure and in memory: the engine's
 * board over the solves and hint unlocks up to that moment, with the challenge settings in force then.
 *
 * - The recorded edits cut the game into epochs with constant settings; the board at `t` is the
 *   engine's full build (engine.ts) over the settings of `t`'s epoch and the solves up to `t`, each
 *   challenge counting the solves so far (as the checkers count: solvers of any status whose
 *   division affects the dynamic score). So the last frame — current settings, every solve — is
 *   the live board.
 * - Seeking: a few cursors (a built state, its epoch and how many solves and unlocks it holds) are
 *   kept; a seek takes the nearest cursor of the same epoch, before or after it, and moves it there
 *   in one batch — forward by folding in the solves since (`foldSolves`), back by taking the later
 *   ones out (`unfoldSolves`), each touched challenge re-scored once — then a snapshot that
 *   re-renders only what changed; it builds a new state when that is cheaper (`BUILD_SOLVES`). Forward
 *   play therefore costs only the solves in between, and so does a jump near any kept cursor.
 * - The states render the JSON only (`StateOptions.jsonOnly`): the route sends nothing else.
 */
import { DivisionPermissions } from '@flagwave/shared/divisions'
import { ScoreboardEngine, type ChallengeData, type GameData, type GameMeta, type SolveData, type UnfoldSolve } from '../engine.js'
import { ScoreboardState, type Snapshot } from '../board.js'
import type { ReplayData, ReplaySolve } from './data.js'

/** Cursors kept per game (each a board state with its rendered rows). */
const CURSORS = 4
/**
 * When a seek moves a cursor rather than builds, by what each costs on the large benchmark set: a
 * snapshot's render of what changed (the same floor either way — the whole JSON is written), plus
 * about 4 µs per solve folded in, a quarter of that per solve taken out (its cell turns to the shared
 * unsolved one), or about 2.5 µs per solve a build holds (its teams' cells are computed once per
 * epoch, `ScoreboardEngine.layout`). So a seek moves the nearest cursor of its epoch when the
 * solves it folds in, plus a quarter of those it takes out, are at most `BUILD_SOLVES` plus half the
 * moment's solves, and builds otherwise — a jump far forward from early on; back, about never.
 * Beyond the render a build's own fixed part is small, but each build allocates a whole state
 * that the collector walks afterwards; 2,000 to 8,000 measured alike on the benchmark (random
 * jumps' p95 within noise), hence the middle.
 */
const BUILD_SOLVES = 5_000

interface Cursor {
  epoch: number
  /** Solves folded in: `solves[0 … n)`. */
  n: number
  /** Hint unlocks folded in: `unlocks[0 … u)` (a deduction: folded in any order, docs/challenge-rules.md#costed-hints). */
  u: number
  state: ScoreboardState
  used: number
}

export interface ReplayFrame {
  snapshot: Snapshot
  /** How many solves the frame holds, and whether it was moved from a cursor, forward or back (for the benchmark). */
  solves: number
  folded: boolean
}

export class ReplayTimeline {
  /** Distinct edit times, ascending: epoch k runs from `boundaries[k-1]` (or forever) up to `boundaries[k]`. */
  private readonly boundaries: number[]
  private readonly times: Float64Array
  private readonly unlockTimes: Float64Array
  /** The challenge's counter right after solve i. */
  private readonly countAfter: Int32Array
  /** The challenge's counter right before solve i. */
  private readonly countBefore: Int32Array
  private readonly permissions: DivisionPermissions
  private readonly settingsCache = new Map<number, Omit<GameData, 'solves'>>()
  private cursors: Cursor[] = []
  private clock = 0

  constructor(
    readonly data: ReplayData,
    /** A build's fixed cost in solves folded in (smaller in tests, so that small games build too). */
    private readonly buildSolves = BUILD_SOLVES,
  ) {
    this.boundaries = [...new Set(data.edits.map((e) => e.at))].sort((a, b) => a - b)
    this.permissions = new DivisionPermissions(data.game.divisions)
    this.times = Float64Array.from(data.solves, (s) => s.time)
    this.unlockTimes = Float64Array.from(data.unlocks, (u) => u.time)
    this.countAfter = new Int32Array(data.solves.length)
    this.countBefore = new Int32Array(data.solves.length)
    const counts = new Map<number, number>()
    data.solves.forEach((s, i) => {
      const before = counts.get(s.challengeId) ?? 0
      const n = before + (this.affects(s) ? 1 : 0)
      counts.set(s.challengeId, n)
      this.countBefore[i] = before
      this.countAfter[i] = n
    })
  }

  get solveCount(): number {
    return this.data.solves.length
  }

  /** Whether the solve moves its challenge's counter (its division affects the dynamic score). */
  affects(s: ReplaySolve): boolean {
    return this.permissions.may(s.divisionId, 'AffectDynamicScore', s.challengeId)
  }

  /** The epoch of moment `t`: how many edits happened at or before it. */
  epochOf(t: number): number {
    let lo = 0
    let hi = this.boundaries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.boundaries[mid]! <= t) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** How many solves happened at or before `t`. */
  indexAt(t: number): number {
    return countUpTo(this.times, t)
  }

  /** How many hint unlocks happened at or before `t`. */
  unlockIndexAt(t: number): number {
    return countUpTo(this.unlockTimes, t)
  }

  /** The game, challenges and instances in force during `epoch` (without solves, counters at 0). */
  settings(epoch: number): Omit<GameData, 'solves'> {
    let cached = this.settingsCache.get(epoch)
    if (cached) return cached
    // The values in force during the epoch are those of the first edit after it began, else the current ones.
    const from = epoch === 0 ? -Infinity : this.boundaries[epoch - 1]!
    const later = this.data.edits.filter((e) => e.at > from)
    const firstOf = <T>(pick: (e: (typeof later)[number]) => T | null, challengeId: number | null): T | null => {
      for (const e of later) if (e.challengeId === challengeId && pick(e) !== null) return pick(e)
      return null
    }
    const game: GameMeta = { ...this.data.game, bloodBonus: firstOf((e) => e.bloodBonus, null) ?? this.data.game.bloodBonus }
    const challenges: ChallengeData[] = []
    for (const c of this.data.challenges) {
      const enabled = firstOf((e) => e.isEnabled, c.id) ?? c.isEnabled
      if (!enabled) continue
      challenges.push({
        id: c.id,
        title: c.title,
        tag: c.tag,
        originalScore: firstOf((e) => e.originalScore, c.id) ?? c.originalScore,
        minScoreRate: firstOf((e) => e.minScoreRate, c.id) ?? c.minScoreRate,
        difficulty: firstOf((e) => e.difficulty, c.id) ?? c.difficulty,
        acceptedCount: 0,
        deadline: c.deadline,
      })
    }
    const enabled = new Set(challenges.map((c) => c.id))
    const instances = new Map<number, number[]>()
    for (const [pid, cids] of this.data.instances) instances.set(pid, cids.filter((id) => enabled.has(id)))
    // The teams' cells, computed once per epoch for every build of it.
    const layout = ScoreboardEngine.layout({ game, challenges, teams: this.data.teams, instances })
    cached = { game, challenges, teams: this.data.teams, instances, layout }
    this.settingsCache.set(epoch, cached)
    return cached
  }

  /** Solve `i` as the engine folds it in, with the counter it left. */
  private solveData(i: number): SolveData {
    const s = this.data.solves[i]!
    return { participationId: s.participationId, challengeId: s.challengeId, submissionId: s.submissionId, time: s.time, userName: s.userName, acceptedCount: this.countAfter[i]! }
  }

  /** A new state over `solves[0 … n)` and `unlocks[0 … u)` with the settings of `epoch`. */
  private build(epoch: number, n: number, u: number): ScoreboardState {
    const settings = this.settings(epoch)
    const counts = new Map<number, number>()
    for (let i = 0; i < n; i++) counts.set(this.data.solves[i]!.challengeId, this.countAfter[i]!)
    const solves: SolveData[] = new Array(n)
    for (let i = 0; i < n; i++) solves[i] = this.solveData(i)
    return ScoreboardState.build(
      {
        ...settings,
        challenges: settings.challenges.map((c) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 })),
        solves,
        unlocks: this.data.unlocks.slice(0, u),
      },
      // The replay route sends the JSON only.
      { jsonOnly: true },
    )
  }

  /** The board as it stood at `t` (epoch milliseconds), its update time `t`. */
  frameAt(t: number): ReplayFrame {
    const epoch = this.epochOf(t)
    const n = this.indexAt(t)
    const u = this.unlockIndexAt(t)
    let best: Cursor | null = null
    let cheapest = Infinity
    for (const c of this.cursors) {
      const cost = moveCost(c.n, n) + moveCost(c.u, u)
      if (c.epoch === epoch && cost <= this.buildSolves + (n + u) / 2 && cost < cheapest) {
        best = c
        cheapest = cost
      }
    }
    let folded = false
    if (best) {
      this.move(best, n, u)
      folded = true
    } else {
      best = { epoch, n, u, state: this.build(epoch, n, u), used: 0 }
      if (this.cursors.length >= CURSORS) {
        // Replace the least recently used cursor.
        this.cursors.sort((a, b) => b.used - a.used)
        this.cursors.pop()
      }
      this.cursors.push(best)
    }
    best.used = ++this.clock
    return { snapshot: best.state.snapshot(t), solves: n, folded }
  }

  /** Fold a cursor forward or back to `solves[0 … n)` and `unlocks[0 … u)`, each challenge re-scored once. */
  private move(cursor: Cursor, n: number, u: number): void {
    const { state } = cursor
    if (n > cursor.n) {
      const batch: SolveData[] = new Array(n - cursor.n)
      for (let i = cursor.n; i < n; i++) batch[i - cursor.n] = this.solveData(i)
      state.foldSolves(batch)
    } else if (n < cursor.n) {
      const batch: UnfoldSolve[] = new Array(cursor.n - n)
      for (let i = cursor.n - 1; i >= n; i--) {
        const s = this.data.solves[i]!
        batch[cursor.n - 1 - i] = { participationId: s.participationId, challengeId: s.challengeId, submissionId: s.submissionId, time: s.time, countBefore: this.countBefore[i]! }
      }
      state.unfoldSolves(batch)
    }
    for (let i = cursor.u; i < u; i++) state.applyHintUnlock(this.data.unlocks[i]!)
    for (let i = cursor.u - 1; i >= u; i--) state.unfoldHintUnlock(this.data.unlocks[i]!)
    cursor.n = n
    cursor.u = u
  }

  /** How many states the timeline keeps (the benchmark reports their memory). */
  keptStates(): number {
    return this.cursors.length
  }

  /** The settings in force now (the last epoch). */
  currentSettings(): Omit<GameData, 'solves'> {
    return this.settings(this.boundaries.length)
  }

  /** Solve `i` (time order) without its counter. */
  solveAt(i: number): SolveData {
    const s = this.data.solves[i]!
    return { participationId: s.participationId, challengeId: s.challengeId, submissionId: s.submissionId, time: s.time, userName: s.userName }
  }
}

/** What moving a cursor from `from` to `to` solves (or unlocks) costs, in solves folded in (see `BUILD_SOLVES`). */
function moveCost(from: number, to: number): number {
  return to >= from ? to - from : (from - to) / 4
}

/** How many of the ascending `times` are at or before `t`. */
function countUpTo(times: Float64Array, t: number): number {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (times[mid]! <= t) lo = mid + 1
    else hi = mid
  }
  return lo
}
