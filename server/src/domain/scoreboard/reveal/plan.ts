/**
 * The steps of a staged reveal (docs/scoring.md#staged-reveal), pure: from the frozen board — the
 * engine's board over the solves before the freeze — each step opens the pending cells (solves
 * after the freeze) of the lowest-placed team that has some, until none is left. The board after
 * step k is the engine's board over the solves before the freeze plus those of steps 1 … k, each
 * folded in by its true time (bloods fall as they really fell), the counters counting what is
 * revealed so far; a team's hint unlocks since the freeze open with its step. Solves of teams not
 * on the board (another status) only move counters: they, and the unlocks of teams without a step,
 * are folded in with the last step, which therefore ends on the live board. All boards use the current
 * settings (so the last one is the live board).
 */
import type { RevealPending, RevealStep } from '@flagwave/shared/schemas/replay'
import { ScoreboardEngine, type GameData, type SolveData, type TeamRecord } from '../engine.js'
import { ScoreboardState, type Snapshot } from '../board.js'
import type { ReplayTimeline } from '../replay/timeline.js'

interface PlannedStep extends RevealStep {
  /** Solve indices (time order) this step folds in. */
  solves: number[]
  /** Hint unlock indices (time order) this step folds in: the team's own since the freeze. */
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
  ) {
    this.settings = timeline.currentSettings()
    this.frozen = timeline.indexAt(freezeTime - 1)
    this.frozenUnlocks = timeline.unlockIndexAt(freezeTime - 1)
    const engine = ScoreboardEngine.build(this.initialData())
    const counts = this.initialCounts()
    const onBoard = new Map<number, TeamRecord>(engine.ranking().map((t) => [t.data.participationId, t]))
    const pending = new Map<number, number[]>()
    const rest: number[] = []
    for (let i = this.frozen; i < timeline.solveCount; i++) {
      const s = timeline.data.solves[i]!
      const team = onBoard.get(s.participationId)
      if (team && team.cids.includes(s.challengeId)) {
        let list = pending.get(s.participationId)
        if (!list) pending.set(s.participationId, (list = []))
        list.push(i)
      } else rest.push(i)
    }
    // A team's unlocks since the freeze open with its cells; the others' with the last step.
    const pendingUnlocks = new Map<number, number[]>()
    const restUnlocks: number[] = []
    for (let i = this.frozenUnlocks; i < timeline.data.unlocks.length; i++) {
      const pid = timeline.data.unlocks[i]!.participationId
      if (pending.has(pid)) pendingUnlocks.set(pid, [...(pendingUnlocks.get(pid) ?? []), i])
      else restUnlocks.push(i)
    }
    while (pending.size > 0) {
      const order = engine.ranking()
      let place = order.length - 1
      while (!pending.has(order[place]!.data.participationId)) place--
      const team = order[place]!
      const solves = pending.get(team.data.participationId)!
      pending.delete(team.data.participationId)
      const fromScore = team.score
      const unlocks = pendingUnlocks.get(team.data.participationId) ?? []
      for (const i of solves) engine.applySolve(this.counted(i, counts))
      for (const i of unlocks) engine.applyHintUnlock(timeline.data.unlocks[i]!)
      if (pending.size === 0) {
        for (const i of rest) engine.applySolve(this.counted(i, counts))
        for (const i of restUnlocks) engine.applyHintUnlock(timeline.data.unlocks[i]!)
      }
      const after = engine.ranking()
      const challenges = [...new Set(solves.map((i) => timeline.data.solves[i]!.challengeId))].sort((a, b) => a - b)
      this.steps.push({
        teamId: team.data.teamId,
        name: team.data.name,
        fromPlace: place + 1,
        toPlace: after.indexOf(team) + 1,
        fromScore,
        toScore: team.score,
        challenges,
        bloods: challenges.filter((id) => team.solves.get(id)?.blood != null),
        solves: pending.size === 0 ? [...solves, ...rest] : solves,
        unlocks: pending.size === 0 ? [...unlocks, ...restUnlocks] : unlocks,
      })
    }
    if (this.steps.length === 0 && (rest.length > 0 || restUnlocks.length > 0)) {
      this.steps.push({ teamId: null, name: null, fromPlace: 0, toPlace: 0, fromScore: 0, toScore: 0, challenges: [], bloods: [], solves: rest, unlocks: restUnlocks })
    }
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

  /** Teams' cells still hidden after `step` steps. */
  pendingAfter(step: number): RevealPending[] {
    return this.steps.slice(step).flatMap((s) => (s.teamId === null ? [] : [{ teamId: s.teamId, challenges: s.challenges }]))
  }

  /** The public form of a step. */
  static present({ solves: _s, unlocks: _u, ...step }: PlannedStep): RevealStep {
    return step
  }
}
