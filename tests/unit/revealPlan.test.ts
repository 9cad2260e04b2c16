/**
 * The staged reveal's steps (server/src/domain/scoreboard/reveal/plan.ts, docs/scoring.md#staged-reveal)
 * on random games with divisions, solvers off the board and wrong attempts after the freeze: step 0
 * is the replayed board just before the freeze; the pending cells are every cell a board team tried
 * after the freeze (right or wrong) without having solved it before; each step opens the next pending
 * cell of the lowest-placed team that has some, a wrong-only cell resolving to not solved; every
 * intermediate board equals a fresh engine build over the pre-freeze solves plus the opened cells'
 * solves, and the last one is the replayed (= live) final board.
 */
import { describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { DivisionPermissions } from '@flagwave/shared/divisions'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { ReplayTimeline } from '../../server/src/domain/scoreboard/replay/timeline.js'
import { RevealPlan, type RevealAttempt } from '../../server/src/domain/scoreboard/reveal/plan.js'
import type { ReplayData, ReplaySolve } from '../../server/src/domain/scoreboard/replay/data.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 4 * 3600_000
const FREEZE = START + 3 * 3600_000

function rng(seed: number) {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

function randomData(seed: number): { data: ReplayData; attempts: RevealAttempt[] } {
  const r = rng(seed)
  const divisions = [
    { id: 1, name: 'A', defaultPermissions: GamePermission.All, challengeConfigs: [] },
    { id: 2, name: 'B', defaultPermissions: GamePermission.All & ~GamePermission.AffectDynamicScore & ~GamePermission.RankOverall, challengeConfigs: [] },
  ]
  const challenges = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, title: `C${i}`, tag: 'Misc' as const, originalScore: 100 * (i + 1), minScoreRate: 0.3, difficulty: 1 + i, isEnabled: true, deadline: i === 1 ? END : null }))
  const teams = Array.from({ length: 10 }, (_, i) => ({ participationId: i + 1, teamId: i + 101, name: `t${i}`, bio: null, avatarHash: null, divisionId: i % 3 === 0 ? 2 : i % 3 === 1 ? 1 : null }))
  const instances = new Map(teams.map((t) => [t.participationId, challenges.map((c) => c.id)]))
  const solves: ReplaySolve[] = []
  let sid = 0
  for (let p = 1; p <= 12; p++)
    for (const c of challenges)
      if (r() < 0.55) solves.push({ participationId: p, challengeId: c.id, submissionId: ++sid, time: START + Math.floor(r() * (END - START)), userName: `u${p}`, divisionId: p <= 10 ? teams[p - 1]!.divisionId : 1 })
  solves.sort((a, b) => a.time - b.time || a.submissionId - b.submissionId)
  // Costed hint unlocks before and after the freeze: a team's later ones open with its step (docs/challenge-rules.md#costed-hints).
  const unlocks = Array.from({ length: 16 }, (_, i) => ({
    unlockId: i + 1,
    participationId: 1 + Math.floor(r() * 12),
    challengeId: 1 + Math.floor(r() * 5),
    time: START + Math.floor(r() * (END - START)),
    cost: 10 + Math.floor(r() * 30),
  })).sort((a, b) => a.time - b.time || a.unlockId - b.unlockId)
  // Attempts after the freeze: every solve after it, and wrong answers on random cells (solved or not).
  const attempts: RevealAttempt[] = solves.filter((s) => s.time >= FREEZE).map((s) => ({ participationId: s.participationId, challengeId: s.challengeId }))
  for (let i = 0; i < 14; i++) attempts.push({ participationId: 1 + Math.floor(r() * 12), challengeId: 1 + Math.floor(r() * 5) })
  const data: ReplayData = { game: { id: 1, start: START, end: END, bloodBonus: 52459530, divisions, freezeTime: FREEZE, unfrozenAt: null, replayPublic: false }, challenges, teams, instances, solves, edits: [], unlocks }
  return { data, attempts }
}

const cell = (participationId: number, challengeId: number) => `${participationId}:${challengeId}`

/** The cells the reveal keeps pending: tried after the freeze by a board team (1 … 10), not solved before it. */
function pendingCells(data: ReplayData, attempts: RevealAttempt[]): Set<string> {
  const solvedBefore = new Set(data.solves.filter((s) => s.time < FREEZE).map((s) => cell(s.participationId, s.challengeId)))
  return new Set(attempts.filter((a) => a.participationId <= 10 && !solvedBefore.has(cell(a.participationId, a.challengeId))).map((a) => cell(a.participationId, a.challengeId)))
}

/**
 * A fresh engine board over the pre-freeze solves and unlocks plus those of the `opened` cells (all:
 * every one); a team's unlocks outside its pending cells come with its first opened cell.
 */
function expected(data: ReplayData, pending: Set<string>, opened: Set<string>, all: boolean): unknown {
  const may = new DivisionPermissions(data.game.divisions)
  const started = new Set([...opened].map((c) => Number(c.split(':')[0])))
  const solves = data.solves.filter((s) => s.time < FREEZE || all || opened.has(cell(s.participationId, s.challengeId)))
  const counts = new Map<number, number>()
  for (const s of solves) if (may.may(s.divisionId, 'AffectDynamicScore', s.challengeId)) counts.set(s.challengeId, (counts.get(s.challengeId) ?? 0) + 1)
  const unlockOpened = (u: { participationId: number; challengeId: number }) => {
    const c = cell(u.participationId, u.challengeId)
    return pending.has(c) ? opened.has(c) : started.has(u.participationId)
  }
  const state = ScoreboardState.build({
    game: data.game,
    challenges: data.challenges.map(({ isEnabled: _e, ...c }) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 })),
    teams: data.teams,
    instances: data.instances,
    solves,
    unlocks: data.unlocks.filter((u) => u.time < FREEZE || all || unlockOpened(u)),
  })
  return withoutTime(state.snapshot(END).json)
}

/** A board's JSON without its update time (the moment it was rendered for). */
function withoutTime(json: string): unknown {
  const { updateTimeUTC: _t, updateTimeUtc: _u, ...rest } = JSON.parse(json) as Record<string, unknown>
  return rest
}

describe('RevealPlan', () => {
  it.each([1, 2, 3, 4, 5])('reveals seed %i cell by cell from the bottom up to the final board', (seed) => {
    const { data, attempts } = randomData(seed)
    const timeline = new ReplayTimeline(data)
    const plan = new RevealPlan(timeline, FREEZE, attempts)
    const board = (step: number) => withoutTime(plan.boardAt(step, END).json)
    expect(board(0)).toEqual(withoutTime(timeline.frameAt(FREEZE - 1).snapshot.json))
    const pending = pendingCells(data, attempts)
    // Every pending cell is one step, wrong-only ones included, and the frozen board lists them all.
    expect(plan.steps).toHaveLength(pending.size)
    expect(new Set(plan.pendingAfter(0).flatMap((p) => p.challenges.map((c) => cell(p.teamId - 100, c))))).toEqual(pending)
    const solvedAfter = new Set(data.solves.filter((s) => s.time >= FREEZE).map((s) => cell(s.participationId, s.challengeId)))
    const wrongOnly = [...pending].filter((c) => !solvedAfter.has(c))
    expect(wrongOnly.length, `seed ${seed} has wrong-only cells`).toBeGreaterThan(0)
    const opened = new Set<string>()
    for (let step = 1; step <= plan.steps.length; step++) {
      const before = board(step - 1) as { items: { id: number; score: number; challenges: { id: number; type: string }[] }[] }
      const hidden = plan.pendingAfter(step - 1)
      const pendingIds = new Set(hidden.map((p) => p.teamId))
      const lowest = before.items.map((row, i) => [row.id, i + 1] as const).filter(([id]) => pendingIds.has(id)).at(-1)!
      const s = plan.steps[step - 1]!
      expect(s.teamId).toBe(lowest[0])
      expect(s.fromPlace).toBe(lowest[1])
      // The team's next pending cell opens, alone.
      expect(s.challenges).toEqual([hidden.find((p) => p.teamId === s.teamId)!.challenges[0]])
      const opening = cell(s.teamId! - 100, s.challenges[0]!)
      opened.add(opening)
      expect(s.solved).toEqual(solvedAfter.has(opening) ? s.challenges : [])
      const last = step === plan.steps.length
      const after = board(step) as typeof before
      expect(after, `seed ${seed} step ${step}`).toEqual(expected(data, pending, opened, last))
      if (!solvedAfter.has(opening)) {
        // A wrong-only cell resolves to not solved.
        const row = after.items.find((r) => r.id === s.teamId)!
        expect(row.challenges.find((c) => c.id === s.challenges[0])!.type).toBe('Unaccepted')
        expect(s.bloods).toEqual([])
      }
    }
    // Back to any step gives the same board again.
    const first = plan.steps[0]!
    expect(board(1)).toEqual(expected(data, pending, new Set([cell(first.teamId! - 100, first.challenges[0]!)]), plan.steps.length === 1))
    // The last step stands on the final board, as the replay of the whole game shows it.
    expect(board(plan.steps.length)).toEqual(withoutTime(timeline.frameAt(END).snapshot.json))
    expect(plan.pendingAfter(plan.steps.length)).toEqual([])
  })
})
