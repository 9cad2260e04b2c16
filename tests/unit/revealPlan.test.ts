/**
 * The staged reveal's steps (server/src/domain/scoreboard/reveal/plan.ts, docs/scoring.md#staged-reveal)
 * on random games with divisions and solvers off the board: step 0 is the replayed board just
 * before the freeze, each step opens the pending cells of the lowest-placed team that has some,
 * every intermediate board equals a fresh engine build over the pre-freeze solves plus the
 * revealed teams' solves, and the last one is the replayed (= live) final board.
 */
import { describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { DivisionPermissions } from '@flagwave/shared/divisions'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { ReplayTimeline } from '../../server/src/domain/scoreboard/replay/timeline.js'
import { RevealPlan } from '../../server/src/domain/scoreboard/reveal/plan.js'
import type { ReplayData, ReplaySolve } from '../../server/src/domain/scoreboard/replay/data.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 4 * 3600_000
const FREEZE = START + 3 * 3600_000

function rng(seed: number) {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

function randomData(seed: number): ReplayData {
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
  return { game: { id: 1, start: START, end: END, bloodBonus: 52459530, divisions, freezeTime: FREEZE, unfrozenAt: null, replayPublic: false }, challenges, teams, instances, solves, edits: [], unlocks }
}

/** A fresh engine board over the pre-freeze solves and unlocks and those of `revealed` participations (all: every one). */
function expected(data: ReplayData, revealed: Set<number>, all: boolean): unknown {
  const may = new DivisionPermissions(data.game.divisions)
  const solves = data.solves.filter((s) => s.time < FREEZE || all || revealed.has(s.participationId))
  const counts = new Map<number, number>()
  for (const s of solves) if (may.may(s.divisionId, 'AffectDynamicScore', s.challengeId)) counts.set(s.challengeId, (counts.get(s.challengeId) ?? 0) + 1)
  const state = ScoreboardState.build({
    game: data.game,
    challenges: data.challenges.map(({ isEnabled: _e, ...c }) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 })),
    teams: data.teams,
    instances: data.instances,
    solves,
    unlocks: data.unlocks.filter((u) => u.time < FREEZE || all || revealed.has(u.participationId)),
  })
  return withoutTime(state.snapshot(END).json)
}

/** A board's JSON without its update time (the moment it was rendered for). */
function withoutTime(json: string): unknown {
  const { updateTimeUTC: _t, updateTimeUtc: _u, ...rest } = JSON.parse(json) as Record<string, unknown>
  return rest
}

describe('RevealPlan', () => {
  it.each([1, 2, 3, 4, 5])('reveals seed %i from the bottom up to the final board', (seed) => {
    const data = randomData(seed)
    const timeline = new ReplayTimeline(data)
    const plan = new RevealPlan(timeline, FREEZE)
    const board = (step: number) => withoutTime(plan.boardAt(step, END).json)
    expect(board(0)).toEqual(withoutTime(timeline.frameAt(FREEZE - 1).snapshot.json))
    const teamsAfter = new Set(data.solves.filter((s) => s.time >= FREEZE && s.participationId <= 10).map((s) => s.participationId))
    expect(plan.steps).toHaveLength(teamsAfter.size)
    const revealed = new Set<number>()
    for (let step = 1; step <= plan.steps.length; step++) {
      const before = board(step - 1) as { items: { id: number }[] }
      const pendingIds = new Set(plan.pendingAfter(step - 1).map((p) => p.teamId))
      const lowest = before.items.map((row, i) => [row.id, i + 1] as const).filter(([id]) => pendingIds.has(id)).at(-1)!
      const s = plan.steps[step - 1]!
      expect(s.teamId).toBe(lowest[0])
      expect(s.fromPlace).toBe(lowest[1])
      revealed.add(s.teamId! - 100)
      const last = step === plan.steps.length
      expect(board(step), `seed ${seed} step ${step}`).toEqual(expected(data, revealed, last))
    }
    // Back to any step gives the same board again.
    expect(board(1)).toEqual(expected(data, new Set([plan.steps[0]!.teamId! - 100]), plan.steps.length === 1))
    // The last step stands on the final board, as the replay of the whole game shows it.
    expect(board(plan.steps.length)).toEqual(withoutTime(timeline.frameAt(END).snapshot.json))
  })
})
