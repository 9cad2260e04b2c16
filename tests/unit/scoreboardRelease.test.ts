/**
 * The scoreboard engine with the challenge rules (docs/challenge-rules.md): a challenge that opens
 * at its time joins the board through the rebuild its opening asks for (the engine lists enabled
 * challenges), and from then on incremental solves keep the board equal to a rebuild at the end;
 * its deadline travels to the board's `ChallengeInfo` unchanged. Random sequences, as the engine's
 * own property test (scoreboardEngine.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { ChallengeTag } from '@flagwave/shared/enums'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'
import { toWireDate } from '@flagwave/shared/format'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import type { ChallengeData, GameData, SolveData } from '../../server/src/domain/scoreboard/engine.js'
import { team } from '../support/engineData.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 8 * 3600_000
const NOW = END + 1000

function prng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('timed release and deadlines on the board', () => {
  for (let seed = 1; seed <= 25; seed++) {
    it(`random game with openings #${seed}`, () => {
      const rnd = prng(seed * 7919)
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!
      const challenges: (ChallengeData & { opensAt: number })[] = Array.from({ length: 3 + Math.floor(rnd() * 6) }, (_, i) => ({
        id: i + 1,
        title: `C${i + 1}`,
        tag: pick(ChallengeTag),
        originalScore: 100 + Math.floor(rnd() * 900),
        minScoreRate: Math.round(rnd() * 100) / 100,
        difficulty: 1 + Math.floor(rnd() * 20),
        acceptedCount: 0,
        deadline: rnd() < 0.5 ? START + Math.floor(rnd() * (END - START)) : null,
        // Some open at the start, the others at a time during the game.
        opensAt: rnd() < 0.4 ? START : START + Math.floor(rnd() * (END - START)),
      }))
      const teams = Array.from({ length: 3 + Math.floor(rnd() * 20) }, (_, i) => team(i + 1))
      const game = { id: 1, start: START, end: END, bloodBonus: seed % 3 === 0 ? 0 : DEFAULT_BLOOD_BONUS, divisions: [] }

      // Solves come only after a challenge opened (before, it cannot be submitted to), in time order.
      const solves: SolveData[] = []
      let sid = 0
      for (let n = 0; n < 30 + Math.floor(rnd() * 200); n++) {
        const c = pick(challenges)
        const time = c.opensAt + Math.floor(rnd() * (END - c.opensAt))
        solves.push({ participationId: pick(teams).participationId, challengeId: c.id, submissionId: ++sid, time, userName: 'u', board: true })
      }
      solves.sort((a, b) => a.time - b.time || a.submissionId - b.submissionId)

      // What the database holds at a moment: the challenges enabled by then, their instances, the solves so far, the counters.
      const counted = new Set<string>()
      const accepted = new Map<number, number>()
      const dataAt = (t: number, done: SolveData[]): GameData => {
        const open = challenges.filter((c) => c.opensAt <= t)
        return {
          game,
          challenges: open.map(({ opensAt: _o, ...c }) => ({ ...c, acceptedCount: accepted.get(c.id) ?? 0 })),
          teams,
          instances: new Map(teams.map((tm) => [tm.participationId, open.map((c) => c.id)])),
          solves: [...done],
        }
      }

      // The owner's engine: built at the start, rebuilt at every opening (the scheduler's request), fed the solves in between.
      const openings = [...new Set(challenges.map((c) => c.opensAt).filter((t) => t > START))].sort((a, b) => a - b)
      let state = ScoreboardState.build(dataAt(START, []))
      const done: SolveData[] = []
      let next = 0
      for (const s of solves) {
        while (next < openings.length && openings[next]! <= s.time) state = ScoreboardState.build(dataAt(openings[next++]!, done))
        const key = `${s.participationId}:${s.challengeId}`
        if (!counted.has(key)) {
          counted.add(key)
          accepted.set(s.challengeId, (accepted.get(s.challengeId) ?? 0) + 1)
        }
        expect(state.applySolve({ ...s, acceptedCount: accepted.get(s.challengeId) })).not.toBe('unknown')
        done.push(s)
      }
      while (next < openings.length) state = ScoreboardState.build(dataAt(openings[next++]!, done))

      const live = state.snapshot(NOW)
      const rebuilt = ScoreboardState.build(dataAt(END, done)).snapshot(NOW)
      expect(live.model).toEqual(rebuilt.model)
      expect(live.json).toBe(rebuilt.json)
      const model = ScoreboardModel.parse(live.model)
      // Every challenge is listed (all opened by the end), each with its deadline.
      const infos = Object.values(model.challenges).flat()
      expect(infos.map((c) => c.id).sort((a, b) => a - b)).toEqual(challenges.map((c) => c.id))
      for (const c of challenges) expect(infos.find((i) => i.id === c.id)!.deadline).toBe(c.deadline ? toWireDate(c.deadline) : null)
    })
  }

  it('a challenge not opened yet is not on the board, and is after its opening', () => {
    const c1: ChallengeData = { id: 1, title: 'Open', tag: 'Misc', originalScore: 500, minScoreRate: 0.25, difficulty: 5, acceptedCount: 0 }
    const c2: ChallengeData = { ...c1, id: 2, title: 'Later', deadline: END }
    const base = { game: { id: 1, start: START, end: END, bloodBonus: DEFAULT_BLOOD_BONUS, divisions: [] }, teams: [team(1)], solves: [] }
    const before = ScoreboardState.build({ ...base, challenges: [c1], instances: new Map([[1, [1]]]) }).snapshot(NOW).model
    expect(Object.values(before.challenges).flat().map((c) => c.id)).toEqual([1])
    const after = ScoreboardState.build({ ...base, challenges: [c1, c2], instances: new Map([[1, [1, 2]]]) }).snapshot(NOW).model
    expect(Object.values(after.challenges).flat().map((c) => [c.id, c.deadline])).toEqual([
      [1, null],
      [2, toWireDate(END)],
    ])
    expect(after.challengeCount).toBe(2)
  })
})
