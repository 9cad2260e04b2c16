/**
 * The incremental scoreboard engine (server/src/domain/scoreboard/engine.ts) against hand-computed
 * values (docs/compatibility.md#scoreboard-shapes; docs/scoring.md#blood-bonus, #dynamic-score) and against its own full rebuild after random solve sequences.
 */
import { describe, expect, it } from 'vitest'
import { ChallengeTag, GamePermission } from '@flagwave/shared/enums'
import { DivisionPermissions, type ChallengeConfig } from '@flagwave/shared/divisions'
import { ScoreboardDelta, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardDelta } from '@flagwave/shared/scoreboardDelta'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'
import { encodeBloodBonus } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import { ChallengeChanges } from '../../server/src/domain/scoreboard/delta.js'
import { PUSH_INTERVAL_MS, pushSpacing } from '../../server/src/domain/scoreboard/pacing.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { ScoreboardEngine, type DivisionMeta, type GameData, type HintUnlockData, type SolveData } from '../../server/src/domain/scoreboard/engine.js'
import { challenge, solve, team } from '../support/engineData.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 8 * 3600_000
const NOW = END + 1000
const min = (m: number) => START + m * 60_000

const division = (id: number, name: string, defaultPermissions: number = GamePermission.All, challengeConfigs: ChallengeConfig[] = []): DivisionMeta => ({
  id,
  name,
  defaultPermissions,
  challengeConfigs,
})
function data(partial: Partial<GameData> & { holds?: Record<number, number[]> }): GameData {
  const challenges = partial.challenges ?? []
  const teams = partial.teams ?? []
  const instances = new Map<number, number[]>()
  for (const t of teams) instances.set(t.participationId, partial.holds?.[t.participationId] ?? challenges.map((c) => c.id))
  return {
    game: { id: 1, start: START, end: END, bloodBonus: DEFAULT_BLOOD_BONUS, divisions: [] },
    challenges,
    teams,
    instances: partial.instances ?? instances,
    solves: partial.solves ?? [],
    ...(partial.game ? { game: partial.game } : {}),
  }
}

const board = (state: ScoreboardState) => {
  const snap = state.snapshot(NOW)
  expect(JSON.parse(snap.json)).toEqual(snap.model)
  return ScoreboardModel.parse(snap.model)
}
const row = (model: ScoreboardModel, pid: number) => model.items.find((i) => i.id === pid + 1000)!

describe('score formula and blood bonus', () => {
  it('4 solvers of a 500-point challenge (r = 0.25, d = 5): base 330, bloods 346 / 340 / 333 (float32 factors, half to even)', () => {
    // ⌊500 · (0.25 + 0.75 · e^(−3/5))⌋ = ⌊330.80⌋ = 330; 330 · 1.05f = 346.49997f → 346; 330 · 1.03f = 339.89999f → 340; 330 · 1.01f = 333.29999f → 333
    const state = ScoreboardState.build(
      data({
        challenges: [challenge(1, { acceptedCount: 4 })],
        teams: [team(1), team(2), team(3), team(4)],
        solves: [solve(1, 1, min(10)), solve(2, 1, min(20)), solve(3, 1, min(30)), solve(4, 1, min(40))],
      }),
    )
    const model = board(state)
    expect(model.challenges.Misc![0]).toMatchObject({ id: 1, score: 330, solved: 4 })
    expect(model.items.map((i) => [i.id, i.score, i.challenges[0]!.type])).toEqual([
      [1001, 346, 'FirstBlood'],
      [1002, 340, 'SecondBlood'],
      [1003, 333, 'ThirdBlood'],
      [1004, 330, 'Normal'],
    ])
    expect(model.challenges.Misc![0]!.bloods.map((b) => b.id)).toEqual([1001, 1002, 1003])
    expect(model.challenges.Misc![0]!.bloods[0]).toEqual({ id: 1001, name: 'team1', avatar: null, submitTimeUTC: toWireDate(min(10)), submitTimeUtc: toWireDate(min(10)) })
  })

  it('a single solver keeps the original score; 432 · 1.05f = 453.59998f → 454 at two solvers', () => {
    const one = board(ScoreboardState.build(data({ challenges: [challenge(1, { acceptedCount: 1 })], teams: [team(1)], solves: [solve(1, 1, min(1))] })))
    expect(one.items[0]!.score).toBe(525)
    const two = board(
      ScoreboardState.build(data({ challenges: [challenge(1, { acceptedCount: 2 })], teams: [team(1), team(2)], solves: [solve(1, 1, min(1)), solve(2, 1, min(2))] })),
    )
    expect(two.challenges.Misc![0]!.score).toBe(432)
    expect(two.items.map((i) => i.score)).toEqual([454, 445]) // 432 · 1.03f = 444.96f → 445
  })

  it('uses the stored acceptedCount (teams off the board count too) and no multiplier when the bonus is 0', () => {
    const game = { id: 1, start: START, end: END, bloodBonus: 0, divisions: [] }
    const model = board(ScoreboardState.build({ ...data({ challenges: [challenge(1, { acceptedCount: 3 })], teams: [team(1)], solves: [solve(1, 1, min(5))] }), game }))
    expect(model.challenges.Misc![0]).toMatchObject({ score: 376, solved: 3 })
    expect(model.items[0]).toMatchObject({ score: 376, challenges: [{ id: 1, score: 376, type: 'FirstBlood' }] })
    const custom = { ...game, bloodBonus: encodeBloodBonus(500, 0, 0) }
    expect(board(ScoreboardState.build({ ...data({ challenges: [challenge(1)], teams: [team(1)], solves: [solve(1, 1, min(5))] }), game: custom })).items[0]!.score).toBe(750)
  })
})

describe('ranking', () => {
  it('orders by score, then earlier last submission, then team id; ranks are consecutive', () => {
    const model = board(
      ScoreboardState.build(
        data({
          challenges: [challenge(1, { originalScore: 100, acceptedCount: 2 }), challenge(2, { originalScore: 100, acceptedCount: 2 })],
          teams: [team(1), team(2), team(3), team(4)],
          // bonus 0 below keeps the two solvers of each challenge equal
          solves: [solve(1, 1, min(50)), solve(2, 2, min(40)), solve(2, 1, min(10)), solve(1, 2, min(30))],
          game: { id: 1, start: START, end: END, bloodBonus: 0, divisions: [] },
        }),
      ),
    )
    // both solved both (same score); team 1's last solve is at 50, team 2's at 40 → team 2 first; 3 and 4: no solve, by id
    expect(model.items.map((i) => [i.id, i.rank, i.score, i.solvedCount])).toEqual([
      [1002, 1, 172, 2],
      [1001, 2, 172, 2],
      [1003, 3, 0, 0],
      [1004, 4, 0, 0],
    ])
    expect(row(model, 1).lastSubmissionTime).toBe(toWireDate(min(50)))
    expect(row(model, 3).lastSubmissionTime).toBe(toWireDate(START))
  })

  it('ranks within divisions (organizations), with a top-10 timeline per division', () => {
    const teams = [team(1, { divisionId: 1 }), team(2, { divisionId: 2 }), team(3, { divisionId: 1 }), team(4), team(5, { divisionId: 2 })]
    const model = board(
      ScoreboardState.build(
        data({
          challenges: [challenge(1, { acceptedCount: 5 })],
          teams,
          solves: [solve(1, 1, min(1)), solve(2, 1, min(2)), solve(3, 1, min(3)), solve(4, 1, min(4)), solve(5, 1, min(5))],
          game: { id: 1, start: START, end: END, bloodBonus: DEFAULT_BLOOD_BONUS, divisions: ['A', 'B', 'C'].map((name, i) => division(i + 1, name)) },
        }),
      ),
    )
    expect(model.items.map((i) => [i.id, i.rank, i.organizationRank])).toEqual([
      [1001, 1, 1],
      [1002, 2, 1],
      [1003, 3, 2],
      [1004, 4, null],
      [1005, 5, 2],
    ])
    expect(Object.keys(model.timeLines)).toEqual(['all', 'A', 'B', 'C'])
    expect(model.timeLines.A!.map((t) => t.id)).toEqual([1001, 1003])
    expect(model.timeLines.C).toEqual([])
    expect(model.timeLines.all![0]).toEqual({ id: 1001, name: 'team1', items: [{ time: toWireDate(min(1)), score: row(model, 1).score }] })
    expect(model.items.map((i) => [i.organization, i.divisionId, i.divisionRank])).toEqual([
      ['A', 1, 1],
      ['B', 2, 1],
      ['A', 1, 2],
      [null, null, null],
      ['B', 2, 2],
    ])
    expect(model.timelines.map((t) => [t.divisionId, t.teams.map((x) => x.id)])).toEqual([
      [0, [1001, 1002, 1003, 1004, 1005]],
      [1, [1001, 1003]],
      [2, [1002, 1005]],
      [3, []],
    ])
  })

  it('keeps the overall timeline to the top 10 with cumulative points in time order', () => {
    const teams = Array.from({ length: 12 }, (_, i) => team(i + 1))
    const solves = teams.flatMap((t, i) => [solve(t.participationId, 1, min(60 + i)), solve(t.participationId, 2, min(10 + i))])
    const model = board(ScoreboardState.build(data({ challenges: [challenge(1, { acceptedCount: 12 }), challenge(2, { acceptedCount: 12, originalScore: 100 })], teams, solves })))
    expect(model.timeLines.all).toHaveLength(10)
    const first = model.timeLines.all![0]!
    const r = row(model, 1)
    expect(first.items.map((p) => p.time)).toEqual([toWireDate(min(10)), toWireDate(min(60))])
    expect(first.items[1]!.score).toBe(r.score)
    expect(first.items[0]!.score).toBe(r.challenges.find((c) => c.id === 2)!.score)
  })
})

describe('what counts', () => {
  it('ignores solves at or after the end, in the rebuild and incrementally', () => {
    const d = data({ challenges: [challenge(1, { acceptedCount: 1 })], teams: [team(1), team(2)], solves: [solve(1, 1, min(5)), solve(2, 1, END)] })
    const state = ScoreboardState.build(d)
    expect(row(board(state), 2)).toMatchObject({ score: 0, solvedCount: 0, lastSubmissionTime: toWireDate(START) })
    expect(state.applySolve(solve(2, 1, END + 5, { acceptedCount: 2 }))).toBe('ignored')
    expect(row(board(state), 2).score).toBe(0)
    expect(board(state).challenges.Misc![0]!.solved).toBe(1)
  })

  it('lists only teams holding an instance of an enabled challenge, one item per instance, challenges in tag order', () => {
    const model = board(
      ScoreboardState.build(
        data({
          challenges: [challenge(3, { tag: 'Web' }), challenge(1, { tag: 'Pwn' }), challenge(2, { tag: 'Misc' }), challenge(4, { tag: 'Crypto' })],
          teams: [team(1), team(2), team(3)],
          holds: { 1: [3, 2, 1], 2: [1], 3: [] },
          solves: [solve(1, 3, min(1)), solve(3, 2, min(2))],
        }),
      ),
    )
    expect(model.items.map((i) => i.id)).toEqual([1001, 1002])
    expect(row(model, 1).challenges.map((c) => c.id)).toEqual([1, 2, 3])
    expect(row(model, 2).challenges).toEqual([{ id: 1, score: 0, type: 'Unaccepted', userName: null, time: null }])
    // challenge 4 is held by nobody; tags appear in enum order
    expect(Object.keys(model.challenges)).toEqual(['Misc', 'Pwn', 'Web'])
    expect(model.challenges.Web![0]!.bloods.map((b) => b.id)).toEqual([1001])
  })

  it('keeps the earliest solve per team and challenge, whatever the order of arrival', () => {
    const state = ScoreboardState.build(data({ challenges: [challenge(1)], teams: [team(1), team(2)] }))
    const late = solve(1, 1, min(30), { acceptedCount: 1 })
    const early = solve(1, 1, min(10), { acceptedCount: 1 })
    expect(state.applySolve(late)).toBe('applied')
    expect(state.applySolve(late)).toBe('ignored')
    expect(state.applySolve(early)).toBe('applied')
    expect(state.applySolve(late)).toBe('ignored')
    expect(row(board(state), 1).challenges[0]!.time).toBe(toWireDate(min(10)))
    expect(state.applySolve(solve(3, 1, min(5), { acceptedCount: 2, board: false }))).toBe('applied') // an off-board team moves the counter
    expect(board(state).challenges.Misc![0]).toMatchObject({ solved: 2, score: 432 })
    expect(state.applySolve(solve(4, 1, min(6), { acceptedCount: 3, board: true }))).toBe('unknown') // belongs on the board, unknown → rebuild
  })

  it('leaves earlier snapshots untouched', () => {
    const state = ScoreboardState.build(data({ challenges: [challenge(1)], teams: [team(1), team(2)] }))
    const before = state.snapshot(NOW)
    const copy = JSON.parse(before.json)
    state.applySolve(solve(2, 1, min(3), { acceptedCount: 1 }))
    const after = state.snapshot(NOW)
    expect(before.model).toEqual(copy)
    expect(after.model.items[0]!.id).toBe(1002)
    expect(state.changed).toBe(false)
  })
})

/** A small deterministic PRNG (mulberry32). */
/** A random game's meta and 5 to 44 teams, most of them in one of `divisions` when there are some. */
function randomTeams(rnd: () => number, divisions: DivisionMeta[], bloodBonus: number) {
  const game = { id: 1, start: START, end: END, bloodBonus, divisions }
  const may = new DivisionPermissions(divisions)
  const teams = Array.from({ length: 5 + Math.floor(rnd() * 40) }, (_, i) => team(i + 1, { divisionId: divisions.length > 0 && rnd() < 0.8 ? divisions[Math.floor(rnd() * divisions.length)]!.id : null }))
  const divisionOf = new Map(teams.map((t) => [t.participationId, t.divisionId]))
  return { game, may, teams, divisionOf }
}

function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A watcher of the state's versions, as the service pushes them: the first whole, later ones as
 * deltas folded into the previous board; each `next()` checks the fold against the engine's own
 * rendering member for member.
 */
function pushedBoards(state: ScoreboardState) {
  const changes = new ChallengeChanges()
  const first = state.snapshot(NOW)
  expect(first.changedCells).toBeNull()
  changes.next(first.challenges)
  let held = first.model
  let at = NOW
  return {
    /** The next version, rendered at `now` (by default a little later each time, as pushes go). */
    next(now = (at += 100)) {
      const snap = state.snapshot(now)
      const delta = ScoreboardDelta.parse({ updateTimeUTC: snap.model.updateTimeUTC, challenges: changes.next(snap.challenges), items: snap.changedCells })
      held = applyScoreboardDelta(held, delta)
      expect(held).toEqual(snap.model)
      return snap
    },
  }
}

describe('divisions', () => {
  const P = GamePermission
  const game = (divisions: DivisionMeta[]) => ({ id: 1, start: START, end: END, bloodBonus: DEFAULT_BLOOD_BONUS, divisions })

  it('hides cells the division may not view, scores 0 without GetScore and passes bloods over teams without GetBlood', () => {
    const noScore = division(1, 'NoScore', P.All & ~P.GetScore)
    const noBlood = division(2, 'NoBlood', P.All & ~P.GetBlood)
    const blind = division(3, 'Blind', P.All, [{ challengeId: 2, permissions: P.All & ~P.ViewChallenge }])
    const model = board(
      ScoreboardState.build({
        ...data({
          challenges: [challenge(1, { acceptedCount: 3 }), challenge(2)],
          teams: [team(1, { divisionId: 1 }), team(2, { divisionId: 2 }), team(3, { divisionId: 3 })],
          solves: [solve(1, 1, min(1)), solve(2, 1, min(2)), solve(3, 1, min(3))],
        }),
        game: game([noScore, noBlood, blind]),
      }),
    )
    // 500 at n = 3 is 376 (r = 0.25, d = 5); team 1 takes the first blood but scores 0, team 2 takes none.
    expect(row(model, 1).challenges[0]).toMatchObject({ id: 1, score: 0, type: 'FirstBlood' })
    expect(row(model, 2).challenges[0]).toMatchObject({ id: 1, type: 'Normal', score: 376 })
    expect(row(model, 3).challenges.map((c) => [c.id, c.type])).toEqual([[1, 'SecondBlood']])
    expect(model.challenges.Misc![0]!.bloods.map((b) => b.id)).toEqual([1001, 1003])
    // Challenge 2 is held by teams that may view it (divisions 1 and 2): still on the board.
    expect(model.challenges.Misc!.map((c) => c.id)).toEqual([1, 2])
    expect(model.divisions.map((d) => [d.id, d.name, d.defaultPermissions])).toEqual([
      [1, 'NoScore', P.All & ~P.GetScore],
      [2, 'NoBlood', P.All & ~P.GetBlood],
      [3, 'Blind', P.All],
    ])
    expect(model.divisions[2]!.challengeConfigs).toEqual({ '2': { challengeId: 2, permissions: P.All & ~P.ViewChallenge } })
  })

  it('ranks overall only the teams of divisions ranked overall (0 for the others); the overall timeline is theirs', () => {
    const open = division(1, 'Open')
    const guests = division(2, 'Guests', P.All & ~P.RankOverall)
    const model = board(
      ScoreboardState.build({
        ...data({
          challenges: [challenge(1, { acceptedCount: 3 })],
          teams: [team(1, { divisionId: 2 }), team(2, { divisionId: 1 }), team(3, { divisionId: 1 })],
          solves: [solve(1, 1, min(1)), solve(2, 1, min(2)), solve(3, 1, min(3))],
        }),
        game: game([open, guests]),
      }),
    )
    expect(model.items.map((i) => [i.id, i.rank, i.divisionId, i.divisionRank, i.organizationRank])).toEqual([
      [1001, 0, 2, 1, 1],
      [1002, 1, 1, 1, 1],
      [1003, 2, 1, 2, 2],
    ])
    expect(model.timeLines.all!.map((t) => t.id)).toEqual([1002, 1003])
    expect(model.timelines.find((t) => t.divisionId === 2)!.teams.map((t) => t.id)).toEqual([1001])
  })

  it('moves the dynamic score only with solves whose division affects it (without the checker\'s counter)', () => {
    const silent = division(1, 'Silent', P.All & ~P.AffectDynamicScore)
    const state = ScoreboardState.build({ ...data({ challenges: [challenge(1)], teams: [team(1, { divisionId: 1 }), team(2)] }), game: game([silent]) })
    state.applySolve(solve(1, 1, min(1)))
    expect(board(state).challenges.Misc![0]).toMatchObject({ score: 500, solved: 0 })
    state.applySolve(solve(2, 1, min(2)))
    expect(board(state).challenges.Misc![0]).toMatchObject({ score: 500, solved: 1 })
  })

  it('ignores a solve of a challenge the team may not view (no cell, no rebuild)', () => {
    const blind = division(1, 'Blind', P.All & ~P.ViewChallenge)
    const state = ScoreboardState.build({ ...data({ challenges: [challenge(1)], teams: [team(1, { divisionId: 1 }), team(2)] }), game: game([blind]) })
    expect(state.applySolve(solve(1, 1, min(1), { board: true, acceptedCount: 0 }))).toBe('ignored')
    // Without a cell to show, the team is not on the board (as a team holding no instance).
    expect(board(state).items.map((i) => i.id)).toEqual([1002])
  })
})

describe('costed hints', () => {
  it('takes an unlock off the team once, whether or not it solves, and pushes the new total in the delta', () => {
    const state = ScoreboardState.build(data({ challenges: [challenge(1), challenge(2)], teams: [team(1), team(2)] }))
    const watcher = pushedBoards(state)
    const u: HintUnlockData = { unlockId: 7, participationId: 1, challengeId: 2, time: min(5), cost: 50 }
    expect(state.applyHintUnlock(u)).toBe('applied')
    expect(state.applyHintUnlock(u)).toBe('ignored')
    let snap = watcher.next()
    expect(snap.changedCells).toEqual([{ id: 1001, challenges: [], hintPenalty: 50 }])
    expect(row(snap.model, 1)).toMatchObject({ score: -50, hintPenalty: 50, solvedCount: 0 })
    state.applySolve(solve(1, 1, min(10)))
    snap = watcher.next()
    expect(row(snap.model, 1)).toMatchObject({ score: 525 - 50, hintPenalty: 50, rank: 1 }) // first blood: 500 · 1.05
    // After the end, or for a challenge the team has no cell for: nothing.
    expect(state.applyHintUnlock({ ...u, unlockId: 8, time: END })).toBe('ignored')
    expect(state.applyHintUnlock({ ...u, unlockId: 9, participationId: 99 })).toBe('ignored')
    const rebuilt = ScoreboardState.build({ ...data({ challenges: [challenge(1, { acceptedCount: 1 }), challenge(2)], teams: [team(1), team(2)] }), solves: [solve(1, 1, min(10))], unlocks: [u] })
    expect(rebuilt.snapshot(NOW).model.items).toEqual(state.snapshot(NOW).model.items)
  })
})

describe('prerequisites', () => {
  it("reports the challenges a team's new solve unlocked (every enabled prerequisite solved)", () => {
    const state = ScoreboardState.build(data({ challenges: [challenge(1), challenge(2), challenge(3, { prerequisites: [1, 2, 99] })], teams: [team(1), team(2)] }))
    state.snapshot(NOW)
    state.applySolve(solve(1, 1, min(1)))
    expect(state.snapshot(NOW).unlocked).toEqual(new Map())
    state.applySolve(solve(1, 2, min(2)))
    state.applySolve(solve(2, 2, min(3)))
    expect(state.snapshot(NOW).unlocked).toEqual(new Map([[1, [3]]]))
  })
})

describe('incremental = rebuild', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`random solve sequence #${seed}`, () => {
      const rnd = prng(seed)
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!
      const challenges = Array.from({ length: 2 + Math.floor(rnd() * 8) }, (_, i) =>
        challenge(i + 1, { tag: pick(ChallengeTag), originalScore: 100 + Math.floor(rnd() * 900), minScoreRate: Math.round(rnd() * 100) / 100, difficulty: 1 + Math.floor(rnd() * 20) }),
      )
      // Even seeds: up to four divisions with random permissions (most flags kept) and per-challenge overrides.
      const permissions = () => [1, 2, 4, 256, 512, 1024, 2048, 4096].reduce((flags, flag) => (rnd() < 0.75 ? flags | flag : flags), 0)
      const divisions =
        seed % 2 === 0
          ? Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) =>
              division(
                i + 1,
                `D${i + 1}`,
                seed % 4 === 0 ? permissions() : GamePermission.All,
                challenges.filter(() => rnd() < 0.3).map((c) => ({ challengeId: c.id, permissions: permissions() })),
              ),
            )
          : []
      const { game, may, teams, divisionOf } = randomTeams(rnd, divisions, seed % 5 === 0 ? 0 : DEFAULT_BLOOD_BONUS)
      // Off-board participations (suspended, pending): they hold instances and solve, which moves the counters.
      const offBoard = [9001, 9002, 9003]
      const holds = new Map<number, number[]>()
      for (const t of [...teams.map((t) => t.participationId), ...offBoard]) holds.set(t, challenges.filter(() => rnd() < 0.8).map((c) => c.id))

      // Costed hint unlocks (docs/challenge-rules.md#costed-hints): board and off-board teams, some after the end, some delivered twice.
      const unlocks: HintUnlockData[] = []
      for (let n = 0; n < Math.floor(rnd() * 60); n++) {
        const pid = rnd() < 0.1 ? pick(offBoard) : pick(teams).participationId
        const time = rnd() < 0.05 ? END + Math.floor(rnd() * 1000) : START + Math.floor(rnd() * (END - START))
        unlocks.push({ unlockId: n + 1, participationId: pid, challengeId: pick(challenges).id, time, cost: Math.floor(rnd() * 200) })
      }
      // Accepted submissions (some repeated, some after the end), settled in a shuffled order.
      const events: SolveData[] = []
      for (let n = 0; n < 40 + Math.floor(rnd() * 300); n++) {
        const pid = rnd() < 0.1 ? pick(offBoard) : pick(teams).participationId
        const held = holds.get(pid)!
        if (held.length === 0) continue
        const time = rnd() < 0.05 ? END + Math.floor(rnd() * 1000) : START + Math.floor(rnd() * (END - START))
        events.push(solve(pid, pick(held), rnd() < 0.1 && events.length > 0 ? events[events.length - 1]!.time : time, { board: !offBoard.includes(pid) }))
      }
      const order = [...events]
      for (let i = order.length - 1; i > 0; i--) {
        if (rnd() < 0.3) {
          const j = Math.max(0, i - 1 - Math.floor(rnd() * 5))
          ;[order[i], order[j]] = [order[j]!, order[i]!]
        }
      }

      const initial: GameData = { game, challenges: challenges.map((c) => ({ ...c })), teams, instances: holds, solves: [] }
      const incremental = ScoreboardState.build(initial)
      // What a watcher holds: the first version whole, then every later one folded from its delta.
      const watcher = pushedBoards(incremental)
      // The checker: the first accepted answer of a pair before the end increments the counter; every accepted answer before the end is fed.
      const counted = new Set<string>()
      const accepted = new Map<number, number>()
      const appliedUnlocks = new Map<number, HintUnlockData>()
      events.length = 0
      for (const s of order) {
        if (s.time >= END) continue
        const key = `${s.participationId}:${s.challengeId}`
        if (!counted.has(key)) {
          counted.add(key)
          // Only solves of divisions that affect the dynamic score move the counter (off-board teams have none).
          if (may.may(divisionOf.get(s.participationId) ?? null, 'AffectDynamicScore', s.challengeId)) accepted.set(s.challengeId, (accepted.get(s.challengeId) ?? 0) + 1)
        }
        const result = incremental.applySolve({ ...s, acceptedCount: accepted.get(s.challengeId) })
        expect(result).not.toBe('unknown')
        events.push(s)
        // Unlocks arrive between solves, in any order, sometimes twice (the NOTIFY and the local call).
        while (unlocks.length > 0 && rnd() < 0.3) {
          const u = unlocks[Math.floor(rnd() * unlocks.length)]!
          expect(incremental.applyHintUnlock(u)).not.toBe('unknown')
          appliedUnlocks.set(u.unlockId, u)
          if (rnd() < 0.2) watcher.next()
        }
        if (rnd() < 0.2) watcher.next() // snapshots in between must not disturb the state
      }
      const rebuilt = ScoreboardState.build({
        ...initial,
        challenges: challenges.map((c) => ({ ...c, acceptedCount: accepted.get(c.id) ?? 0 })),
        solves: [...events].reverse(),
        unlocks: [...appliedUnlocks.values()],
      })
      const a = watcher.next(NOW + 1_000_000)
      const b = rebuilt.snapshot(NOW + 1_000_000)
      expect(a.model).toEqual(b.model)
      expect(a.json).toBe(b.json)
      ScoreboardModel.parse(a.model)
    })
  }
})

describe('push spacing', () => {
  it('is 100 ms for a small audience, grows with the measured fan-out over its share, and is capped at 2 s', () => {
    expect(pushSpacing(0.3, 0.6)).toBe(PUSH_INTERVAL_MS)
    expect(pushSpacing(78, 0.6)).toBeCloseTo(130)
    expect(pushSpacing(78, 0.1)).toBeCloseTo(780)
    expect(pushSpacing(5_000, 0.6)).toBe(2000)
  })
})

/**
 * A replay's batches (docs/scoring.md#replay): `foldSolves` equals `applySolve` of each solve in
 * turn, and `unfoldSolves` / `unfoldHintUnlock` back to any point equal a fresh build over what
 * is left, on random games with divisions, off-board solvers and costed hints; a JSON-only state
 * (a replay's) renders the same JSON as a full one all along.
 */
describe('batch fold = one-by-one fold, unfold = rebuild', () => {
  function randomGame(seed: number) {
    const rnd = prng(seed)
    const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!
    // Up to 25 challenges: rows of more than one chunk of cells in a JSON-only state.
    const challenges = Array.from({ length: 2 + Math.floor(rnd() * 24) }, (_, i) =>
      challenge(i + 1, { originalScore: 100 + Math.floor(rnd() * 900), minScoreRate: Math.round(rnd() * 100) / 100, difficulty: 1 + Math.floor(rnd() * 20) }),
    )
    const divisions =
      seed % 2 === 0
        ? [
            division(1, 'A'),
            division(2, 'B', GamePermission.All & ~GamePermission.AffectDynamicScore & ~GamePermission.GetBlood),
            // C may not view challenge 1: no cell for it.
            division(3, 'C', GamePermission.All & ~GamePermission.GetScore & ~GamePermission.RankOverall, [{ challengeId: 1, permissions: GamePermission.All & ~GamePermission.ViewChallenge }]),
          ]
        : []
    const { game, may, teams, divisionOf } = randomTeams(rnd, divisions, seed % 3 === 0 ? 0 : DEFAULT_BLOOD_BONUS)
    const offBoard = [9001, 9002]
    const holds = new Map<number, number[]>()
    for (const t of [...teams.map((t) => t.participationId), ...offBoard]) holds.set(t, challenges.filter(() => rnd() < 0.8).map((c) => c.id))
    // A replay's solves: each pair's first, in time order (ties on the same millisecond too), with the counter after it.
    const solves: SolveData[] = []
    const seen = new Set<string>()
    const counts = new Map<number, number>()
    let time = START
    for (let n = 0; n < 40 + Math.floor(rnd() * 300); n++) {
      const pid = rnd() < 0.1 ? pick(offBoard) : pick(teams).participationId
      const held = holds.get(pid)!
      if (held.length === 0) continue
      const cid = pick(held)
      if (seen.has(`${pid}:${cid}`)) continue
      seen.add(`${pid}:${cid}`)
      if (rnd() < 0.8) time += Math.floor(rnd() * 60_000)
      const affects = may.may(divisionOf.get(pid) ?? null, 'AffectDynamicScore', cid)
      const before = counts.get(cid) ?? 0
      counts.set(cid, before + (affects ? 1 : 0))
      solves.push(solve(pid, cid, time, { acceptedCount: counts.get(cid), board: !offBoard.includes(pid) }))
    }
    const countBefore = solves.map((s) => s.acceptedCount! - (may.may(divisionOf.get(s.participationId) ?? null, 'AffectDynamicScore', s.challengeId) ? 1 : 0))
    const unlocks: HintUnlockData[] = Array.from({ length: Math.floor(rnd() * 80) }, (_, n) => ({
      unlockId: n + 1,
      participationId: rnd() < 0.1 ? pick(offBoard) : pick(teams).participationId,
      challengeId: pick(challenges).id,
      time: START + Math.floor(rnd() * (END - START)),
      cost: Math.floor(rnd() * 100),
    }))
    const initial: GameData = { game, challenges, teams, instances: holds, solves: [] }
    /** A fresh build over the first `n` solves and the first `u` unlocks. */
    const buildAt = (n: number, u: number) => {
      const at = new Map<number, number>()
      for (const s of solves.slice(0, n)) at.set(s.challengeId, s.acceptedCount!)
      return ScoreboardState.build({ ...initial, challenges: challenges.map((c) => ({ ...c, acceptedCount: at.get(c.id) ?? 0 })), solves: solves.slice(0, n), unlocks: unlocks.slice(0, u) })
    }
    return { rnd, initial, solves, countBefore, unlocks, buildAt }
  }

  for (let seed = 1; seed <= 30; seed++) {
    it(`random game #${seed}`, () => {
      const { rnd, initial, solves, countBefore, unlocks, buildAt } = randomGame(seed)
      const batched = ScoreboardState.build(initial)
      const single = ScoreboardState.build(initial)
      // A replay's state renders the JSON only, its rows changed in place: the same JSON throughout.
      const lean = ScoreboardState.build(initial, { jsonOnly: true })
      batched.snapshot(NOW)
      single.snapshot(NOW)
      lean.snapshot(NOW)
      let n = 0
      let u = 0
      let stamp = NOW
      while (n < solves.length || u < unlocks.length) {
        // Forward in batches of random sizes, rendered in between (the rows kept must not go stale).
        // Some steps fold hint unlocks only.
        const next = rnd() < 0.2 ? n : Math.min(solves.length, n + 1 + Math.floor(rnd() * 40))
        batched.foldSolves(solves.slice(n, next))
        lean.foldSolves(solves.slice(n, next))
        for (const s of solves.slice(n, next)) single.applySolve(s)
        const nextUnlock = Math.min(unlocks.length, u + Math.floor(rnd() * 4))
        for (const h of unlocks.slice(u, nextUnlock)) {
          batched.applyHintUnlock(h)
          lean.applyHintUnlock(h)
          single.applyHintUnlock(h)
        }
        n = next
        u = nextUnlock
        stamp += 1000
        const a = batched.snapshot(stamp)
        const b = single.snapshot(stamp)
        expect(a.model, `seed ${seed} at ${n}`).toEqual(b.model)
        expect(a.json).toBe(b.json)
        expect(a.json).toBe(buildAt(n, u).snapshot(stamp).json)
        const l = lean.snapshot(stamp)
        expect(l.json).toBe(a.json)
        expect(l.changedCells).toBeNull()
        // Now and then back to an earlier point and forward again: the same boards as fresh builds.
        if (rnd() < 0.4) {
          const back = Math.floor(rnd() * n)
          const backUnlock = Math.floor(rnd() * (u + 1))
          for (const state of [batched, lean]) {
            state.unfoldSolves(solves.slice(back, n).reverse().map((s, i) => ({ ...s, countBefore: countBefore[n - 1 - i]! })))
            for (let i = u - 1; i >= backUnlock; i--) state.unfoldHintUnlock(unlocks[i]!)
          }
          stamp += 1000
          const c = batched.snapshot(stamp)
          expect(c.json, `seed ${seed} back to ${back}`).toBe(buildAt(back, backUnlock).snapshot(stamp).json)
          ScoreboardModel.parse(c.model)
          const cl = lean.snapshot(stamp)
          expect(cl.json).toBe(c.json)
          // Its model is read from its JSON.
          expect(cl.model).toEqual(c.model)
          for (const state of [batched, lean]) {
            state.foldSolves(solves.slice(back, n))
            for (const h of unlocks.slice(backUnlock, u)) state.applyHintUnlock(h)
          }
        }
      }
    })
  }

  it('a build over the layout computed beforehand equals one that computes it (cells, hidden cells)', () => {
    for (const seed of [2, 4, 6, 8]) {
      const { initial, solves } = randomGame(seed)
      const data = { ...initial, solves }
      const counted = ScoreboardState.build({ ...data, challenges: data.challenges.map((c) => ({ ...c, acceptedCount: 3 })) })
      const laid = ScoreboardState.build({ ...data, challenges: data.challenges.map((c) => ({ ...c, acceptedCount: 3 })), layout: ScoreboardEngine.layout(data) })
      expect(laid.snapshot(NOW).json).toBe(counted.snapshot(NOW).json)
      // A team of C holding challenge 1 has no cell for it: its solve is ignored, not unknown.
      const c = initial.teams.find((t) => t.divisionId === 3 && initial.instances.get(t.participationId)!.includes(1))
      expect(c).toBeDefined()
      if (c) expect(laid.applySolve(solve(c.participationId, 1, min(5), { board: true }))).toBe('ignored')
    }
  })

  it('an unfold of a solve the state never counted (after the end) changes nothing', () => {
    const state = ScoreboardState.build(data({ challenges: [challenge(1)], teams: [team(1), team(2)], solves: [solve(1, 1, min(10), { acceptedCount: 1 })] }))
    const before = state.snapshot(NOW).json
    state.unfoldSolves([{ participationId: 2, challengeId: 1, submissionId: 999, time: END + 1, countBefore: 0 }])
    expect(state.snapshot(NOW).json).toBe(before)
  })
})
