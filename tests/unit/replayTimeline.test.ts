/**
 * The replay timeline (server/src/domain/scoreboard/replay/timeline.ts, docs/scoring.md#replay):
 * a seek folded from a kept cursor (forward, or back by taking solves out) equals a fresh build at
 * that moment, whatever the order of the seeks and however far a cursor may fold, with divisions, non-board solvers, edits, disabled challenges and costed hint unlocks; the
 * last frame equals the engine's build over the current settings, every solve and every unlock.
 */
import { describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { ReplayTimeline } from '../../server/src/domain/scoreboard/replay/timeline.js'
import type { ReplayData, ReplaySolve } from '../../server/src/domain/scoreboard/replay/data.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 4 * 3600_000

/** A small deterministic generator, so a failure is reproducible from the seed. */
function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function randomData(seed: number): ReplayData {
  const r = rng(seed)
  const divisions = [
    { id: 1, name: 'A', defaultPermissions: GamePermission.All, challengeConfigs: [] },
    { id: 2, name: 'B', defaultPermissions: GamePermission.All & ~GamePermission.AffectDynamicScore & ~GamePermission.RankOverall, challengeConfigs: [] },
  ]
  const challenges = Array.from({ length: 6 }, (_, i) => ({
    id: i + 1,
    title: `C${i + 1}`,
    tag: 'Misc' as const,
    originalScore: 100 + 100 * i,
    minScoreRate: 0.2 + 0.1 * (i % 3),
    difficulty: 1 + (i % 4),
    isEnabled: i !== 5,
    // A deadline is shown on every board, replayed or live (docs/challenge-rules.md#deadline).
    deadline: i === 2 ? END - 3600_000 : null,
  }))
  const teams = Array.from({ length: 12 }, (_, i) => ({ participationId: i + 1, teamId: i + 101, name: `t${i}`, bio: null, avatarHash: null, divisionId: i % 3 === 0 ? 2 : i % 3 === 1 ? 1 : null }))
  const instances = new Map(teams.map((t) => [t.participationId, challenges.filter((c) => t.participationId % 5 !== c.id).map((c) => c.id)]))
  const solves: ReplaySolve[] = []
  let sid = 0
  // Participations 1–14: 13 and 14 are not on the board (another status) but count in the decay.
  for (let p = 1; p <= 14; p++)
    for (const c of challenges)
      if (r() < 0.5) solves.push({ participationId: p, challengeId: c.id, submissionId: ++sid, time: START + Math.floor(r() * (END - START)), userName: `u${p}`, divisionId: p <= 12 ? teams[p - 1]!.divisionId : null })
  solves.sort((a, b) => a.time - b.time || a.submissionId - b.submissionId)
  const edits = [
    { at: START + 3600_000, challengeId: 2, originalScore: 50, minScoreRate: 0.5, difficulty: 2, isEnabled: true, bloodBonus: null },
    { at: START + 5400_000, challengeId: 6, originalScore: 600, minScoreRate: 0.7, difficulty: 4, isEnabled: true, bloodBonus: null },
    { at: START + 7200_000, challengeId: null, originalScore: null, minScoreRate: null, difficulty: null, isEnabled: null, bloodBonus: 0 },
    { at: START + 9000_000, challengeId: 2, originalScore: 900, minScoreRate: 0.1, difficulty: 3, isEnabled: false, bloodBonus: null },
  ]
  // Costed hint unlocks (docs/challenge-rules.md#costed-hints), some by teams off the board and some after the end.
  const unlocks = Array.from({ length: 25 }, (_, i) => ({
    unlockId: i + 1,
    participationId: 1 + Math.floor(r() * 14),
    challengeId: 1 + Math.floor(r() * 6),
    time: START + Math.floor(r() * (END - START) * 1.05),
    cost: 5 + Math.floor(r() * 40),
  })).sort((a, b) => a.time - b.time || a.unlockId - b.unlockId)
  return { game: { id: 1, start: START, end: END, bloodBonus: 52459530, divisions, freezeTime: null, unfrozenAt: null, replayPublic: false }, challenges, teams, instances, solves, edits, unlocks }
}

describe('ReplayTimeline', () => {
  it.each([3, 2000])('moves cursors (a build costing a fixed %i solves folded in) to the same frames as fresh builds, in any order', (buildSolves) => {
    for (const seed of [1, 2, 3]) {
      const data = randomData(seed)
      const kept = new ReplayTimeline(data, buildSolves)
      const r = rng(seed + 100)
      let folded = 0
      let back = 0
      let previous = 0
      for (let i = 0; i < 60; i++) {
        // Mostly forward play with jumps back, across every epoch.
        const t = i % 7 === 0 ? START + Math.floor(r() * (END - START)) : START + Math.floor(((i % 30) / 30) * (END - START) + r() * 60_000)
        const frame = kept.frameAt(t)
        if (frame.folded) folded++
        if (frame.folded && i > 0 && t < previous) back++
        previous = t
        expect(JSON.parse(frame.snapshot.json), `seed ${seed} seek ${i}`).toEqual(JSON.parse(new ReplayTimeline(data).frameAt(t).snapshot.json))
      }
      // Builds only for a new epoch (five of them, four cursors) or the first seek: the rest moved a cursor, some of them back.
      expect(folded).toBeGreaterThan(40)
      expect(folded).toBeLessThan(60)
      expect(back).toBeGreaterThan(2)
    }
  })

  it('seeks back by taking the later solves and unlocks out of a cursor, not by a build', () => {
    const data = randomData(6)
    const t = new ReplayTimeline(data)
    // Both moments in the last epoch (after the last edit), the later one first.
    const late = END - 60_000
    const early = START + 9000_000 + 60_000
    expect(t.indexAt(late)).toBeGreaterThan(t.indexAt(early))
    expect(t.unlockIndexAt(late)).toBeGreaterThan(t.unlockIndexAt(early))
    expect(t.frameAt(late).folded).toBe(false)
    const back = t.frameAt(early)
    expect(back.folded).toBe(true)
    expect(t.keptStates()).toBe(1)
    expect(JSON.parse(back.snapshot.json)).toEqual(JSON.parse(new ReplayTimeline(data).frameAt(early).snapshot.json))
    // And forward again from there.
    expect(JSON.parse(t.frameAt(late).snapshot.json)).toEqual(JSON.parse(new ReplayTimeline(data).frameAt(late).snapshot.json))
  })

  it('builds instead of moving back when taking the solves out costs more than a build', () => {
    const data = randomData(7)
    // Both in the first epoch (before the first edit): a late moment, then one near the start.
    const late = START + 3600_000 - 1
    const early = START + 60_000
    const cheapBuilds = new ReplayTimeline(data, 0)
    expect((cheapBuilds.indexAt(late) - cheapBuilds.indexAt(early)) / 4).toBeGreaterThan((cheapBuilds.indexAt(early) + cheapBuilds.unlockIndexAt(early)) / 2)
    cheapBuilds.frameAt(late)
    expect(cheapBuilds.frameAt(early).folded).toBe(false)
    expect(cheapBuilds.keptStates()).toBe(2)
    const dearBuilds = new ReplayTimeline(data, 2000)
    dearBuilds.frameAt(late)
    expect(dearBuilds.frameAt(early).folded).toBe(true)
    expect(dearBuilds.keptStates()).toBe(1)
  })

  it('uses the settings in force at each moment', () => {
    const data = randomData(4)
    const t = new ReplayTimeline(data)
    const score = (at: number, id: number) => (JSON.parse(t.frameAt(at).snapshot.json) as { challenges: { Misc: { id: number }[] } }).challenges.Misc.find((c) => c.id === id)
    // Challenge 2: 50 points until the first edit, then disabled until the second, then its current 200 points at most.
    expect(score(START + 1, 2)).toMatchObject({ score: 50 })
    expect(score(START + 3600_000, 2)).toBeUndefined()
    expect(score(START + 9000_000, 2)).toBeDefined()
    expect((score(END, 2) as unknown as { score: number }).score).toBeLessThanOrEqual(200)
    expect((score(END, 2) as unknown as { score: number }).score).toBeGreaterThan(50)
    // Challenge 6 is disabled now but was enabled until its edit.
    expect(score(START + 1, 6)).toBeDefined()
    expect(score(START + 5400_000, 6)).toBeUndefined()
    expect(t.frameAt(START + 1).snapshot.model.bloodBonus).toBe(0)
    expect(t.frameAt(END).snapshot.model.bloodBonus).toBe(52459530)
  })

  it('ends on the engine board over every solve with the current settings', () => {
    const data = randomData(5)
    const counts = new Map<number, number>()
    for (const s of data.solves) if (s.divisionId !== 2) counts.set(s.challengeId, (counts.get(s.challengeId) ?? 0) + 1)
    const enabled = data.challenges.filter((c) => c.isEnabled)
    const live = ScoreboardState.build({
      game: data.game,
      challenges: enabled.map(({ isEnabled: _e, ...c }) => ({ ...c, acceptedCount: counts.get(c.id) ?? 0 })),
      teams: data.teams,
      instances: new Map([...data.instances].map(([p, cids]) => [p, cids.filter((id) => enabled.some((c) => c.id === id))])),
      solves: data.solves,
      unlocks: data.unlocks,
    })
    expect(live.snapshot(END + 5).model.items.some((item) => (item as { hintPenalty?: number }).hintPenalty)).toBe(true)
    expect(JSON.parse(new ReplayTimeline(data).frameAt(END + 5).snapshot.json)).toEqual(JSON.parse(live.snapshot(END + 5).json))
  })
})
