/**
 * The steps of a staged reveal (docs/scoring.md#staged-reveal), pure, as the ICPC resolver takes
 * them: from the frozen board — the engine's board over the solves before the freeze — the pending
 * cells are every cell a board team left unsolved at the freeze and submitted to after it, right or
 * wrong (so the audience cannot tell which will turn). Each step opens one cell: the next pending
 * cell (board column order) of the lowest-placed team that still has some; a cell with a solve
 * after the freeze turns solved, one whose attempts were all wrong resolves to "not solved". The
 * board after step k is the engine's board over the solves before the freeze plus those of the cells
 * opened in steps 1 … k, each folded in by its true time (bloods fall as they really fell), the
 * counters counting what is revealed so far. A team's hint unlocks since the freeze open with their
 * cell when it is pending, else with the team's first step. Solves of teams not on the board (another
 * status) only move counters: they, and the unlocks of teams without pending cells, are folded in
 * with the last step, which therefore ends on the live board. All boards use the current settings
 * (so the last one is the live board).
 */
import type { RevealPending, RevealStep } from '@flagwave/shared/schemas/replay'
import { ScoreboardEngine, type GameData, type SolveData, type TeamRecord } from '../engine.js'
import { ScoreboardState, type Snapshot } from '../board.js'
import type { ReplayTimeline } from '../replay/timeline.js'

/** A cell a team submitted to after the freeze (any status; reveal/attempts.ts). */
export interface RevealAttempt {
  participationId: number
  challengeId: number
}

interface PlannedStep extends RevealStep {
  /** Solve indices (time order) this step folds in. */
  solves: number[]
  /** Hint unlock indices (time order) this step folds in. */
  unlocks: number[]
}

/** A pending cell: its solve after the freeze (null: every attempt was wrong) and the unlocks that open with it. */
interface PendingCell {
  challengeId: number
  solve: number | null
  unlocks: number[]
}

export class RevealPlan {
  readonly steps: PlannedStep[] = []
  private readonly settings: Omit<GameData, 'solves'>
  /** Solves before the freeze: `[0, frozen)`. */
  private readonly frozen: number
  /** Hint unlocks before the freeze: `[0, frozenUnlocks)` (docs/challenge-rules.md#costed-hints). */
  private readonly frozenUnlocks: number
  private cursor: { step: number; state: ScoreboardState; counts: Map<number, number> } | null = null

  constructor(
    private readonly timeline: ReplayTimeline,
    readonly freezeTime: number,
    attempts: readonly RevealAttempt[],
  ) {
    this.settings = timeline.currentSettings()
    this.frozen = timeline.indexAt(freezeTime - 1)
    this.frozenUnlocks = timeline.unlockIndexAt(freezeTime - 1)
    const engine = ScoreboardEngine.build(this.initialData())
    const counts = this.initialCounts()
    const pending = this.pendingCells(engine, attempts)
    const rest: number[] = []
    for (let i = this.frozen; i < timeline.solveCount; i++) {
      const s = timeline.data.solves[i]!
      const cell = pending.get(s.participationId)?.find((c) => c.challengeId === s.challengeId)
      if (cell) cell.solve = i
      else rest.push(i)
    }
    // A team's unlocks since the freeze open with their pending cell, else with its first step; the others' with the last step.
    const firstUnlocks = new Map<number, number[]>()
    const restUnlocks: number[] = []
    for (let i = this.frozenUnlocks; i < timeline.data.unlocks.length; i++) {
      const u = timeline.data.unlocks[i]!
      const cells = pending.get(u.participationId)
      const cell = cells?.find((c) => c.challengeId === u.challengeId)
      if (cell) cell.unlocks.push(i)
      else if (cells) firstUnlocks.set(u.participationId, [...(firstUnlocks.get(u.participationId) ?? []), i])
      else restUnlocks.push(i)
    }
    while (pending.size > 0) {
      const order = engine.ranking()
      let place = order.length - 1
      while (!pending.has(order[place]!.data.participationId)) place--
      const team = order[place]!
      const pid = team.data.participationId
      const cells = pending.get(pid)!
      const cell = cells.shift()!
      if (cells.length === 0) pending.delete(pid)
      const fromScore = team.score
      const solves = cell.solve === null ? [] : [cell.solve]
      const unlocks = [...(firstUnlocks.get(pid) ?? []), ...cell.unlocks]
      firstUnlocks.delete(pid)
      for (const i of solves) engine.applySolve(this.counted(i, counts))
      for (const i of unlocks) engine.applyHintUnlock(timeline.data.unlocks[i]!)
      const last = pending.size === 0
      if (last) {
        for (const i of rest) engine.applySolve(this.counted(i, counts))
        for (const i of restUnlocks) engine.applyHintUnlock(timeline.data.unlocks[i]!)
      }
      const after = engine.ranking()
      const id = cell.challengeId
      this.steps.push({
        teamId: team.data.teamId,
        name: team.data.name,
        fromPlace: place + 1,
        toPlace: after.indexOf(team) + 1,
        fromScore,
        toScore: team.score,
        challenges: [id],
        solved: cell.solve === null ? [] : [id],
        bloods: team.solves.get(id)?.blood != null ? [id] : [],
        solves: last ? [...solves, ...rest] : solves,
        unlocks: last ? [...unlocks, ...restUnlocks] : unlocks,
      })
    }
    if (this.steps.length === 0 && (rest.length > 0 || restUnlocks.length > 0)) {
      this.steps.push({ teamId: null, name: null, fromPlace: 0, toPlace: 0, fromScore: 0, toScore: 0, challenges: [], solved: [], bloods: [], solves: rest, unlocks: restUnlocks })
    }
  }

  /**
   * The pending cells of the board teams, in board column order: those a team submitted to after
   * the freeze without having solved them before it.
   */
  private pendingCells(engine: ScoreboardEngine, attempts: readonly RevealAttempt[]): Map<number, PendingCell[]> {
    const column = new Map<number, number>()
    for (const list of engine.boardChallenges().values()) for (const c of list) column.set(c.data.id, column.size)
    const teams = new Map<number, TeamRecord>(engine.ranking().map((t) => [t.data.participationId, t]))
    const cells = new Map<number, Map<number, PendingCell>>()
    const note = (participationId: number, challengeId: number) => {
      const team = teams.get(participationId)
      if (!team || !column.has(challengeId) || !team.cids.includes(challengeId) || team.solves.has(challengeId)) return
      let byChallenge = cells.get(participationId)
      if (!byChallenge) cells.set(participationId, (byChallenge = new Map()))
      if (!byChallenge.has(challengeId)) byChallenge.set(challengeId, { challengeId, solve: null, unlocks: [] })
    }
    for (const a of attempts) note(a.participationId, a.challengeId)
    // A solve after the freeze is an attempt too (should the attempts have been read before it settled).
    for (let i = this.frozen; i < this.timeline.solveCount; i++) note(this.timeline.data.solves[i]!.participationId, this.timeline.data.solves[i]!.challengeId)
    const pending = new Map<number, PendingCell[]>()
    for (const [pid, byChallenge] of cells) pending.set(pid, [...byChallenge.values()].sort((a, b) => column.get(a.challengeId)! - column.get(b.challengeId)!))
    return pending
  }

  private initialCounts(): Map<number, number> {
    const counts = new Map<number, number>()
    for (let i = 0; i < this.frozen; i++) {
      const s = this.timeline.data.solves[i]!
      if (this.timeline.affects(s)) counts.set(s.challengeId, (counts.get(s.challengeId) ?? 0) + 1)
    }
    return counts
  }

  private initialData(): GameData {
    const counts = this.initialCounts()
    const solves: SolveData[] = []
    for (let i = 0; i < this.frozen; i++) solves.push(this.timeline.solveAt(i))
    return {
      ...this.settings,
      challenges: this.settings.challenges.map((c) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 })),
      solves,
      unlocks: this.timeline.data.unlocks.slice(0, this.frozenUnlocks),
    }
  }

  /** Solve `i` with the counter of its challenge once it is revealed (`counts` moves on). */
  private counted(i: number, counts: Map<number, number>): SolveData {
    const s = this.timeline.data.solves[i]!
    const n = (counts.get(s.challengeId) ?? 0) + (this.timeline.affects(s) ? 1 : 0)
    counts.set(s.challengeId, n)
    return { ...this.timeline.solveAt(i), acceptedCount: n }
  }

  /** The board after `step` steps (0: the frozen board). */
  boardAt(step: number, now = Date.now()): Snapshot {
    const k = Math.max(0, Math.min(step, this.steps.length))
    if (!this.cursor || this.cursor.step > k) this.cursor = { step: 0, state: ScoreboardState.build(this.initialData()), counts: this.initialCounts() }
    const cursor = this.cursor
    for (; cursor.step < k; cursor.step++) {
      const step = this.steps[cursor.step]!
      for (const i of step.solves) cursor.state.applySolve(this.counted(i, cursor.counts))
      for (const i of step.unlocks) cursor.state.applyHintUnlock(this.timeline.data.unlocks[i]!)
    }
    return cursor.state.snapshot(now)
  }

  /** Teams' cells still hidden after `step` steps, each team's in the order they will open. */
  pendingAfter(step: number): RevealPending[] {
    const byTeam = new Map<number, number[]>()
    for (const s of this.steps.slice(step)) {
      if (s.teamId === null) continue
      const list = byTeam.get(s.teamId)
      if (list) list.push(...s.challenges)
      else byTeam.set(s.teamId, [...s.challenges])
    }
    return [...byTeam].map(([teamId, challenges]) => ({ teamId, challenges }))
  }

  /** The public form of a step. */
  static present({ solves: _s, unlocks: _u, ...step }: PlannedStep): RevealStep {
    return step
  }
}
