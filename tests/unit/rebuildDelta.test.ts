/**
 * A rebuild's version as a difference (server/src/domain/scoreboard/rebuildDelta.ts,
 * docs/realtime.md#scoreboard-versions-and-gap-repair): an opening — a challenge joining the board
 * unsolved — is a difference with `added` columns that the clients' `applyScoreboardDelta` folds
 * into exactly the rebuilt board, divisions that may not view it included; what a difference cannot
 * carry gives none, so the whole board (or its announcement) goes out as before.
 */
import { describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { ScoreboardDelta, type ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardDelta } from '@flagwave/shared/scoreboardDelta'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'
import { ScoreboardState, type BoardView } from '../../server/src/domain/scoreboard/board.js'
import type { ChallengeData, DivisionMeta, GameData, SolveData, TeamData } from '../../server/src/domain/scoreboard/engine.js'
import { rebuildDelta } from '../../server/src/domain/scoreboard/rebuildDelta.js'
import { challenge, solve, team } from '../support/engineData.js'

const START = Date.UTC(2026, 0, 1, 8)
const END = START + 8 * 3600_000
const NOW = START + 3600_000
const min = (m: number) => START + m * 60_000

/** Division 1 may not view challenge 9 (its teams get no cell for it); division 2 sees everything. */
const divisions: DivisionMeta[] = [
  { id: 1, name: 'Students', defaultPermissions: GamePermission.All, challengeConfigs: [{ challengeId: 9, permissions: GamePermission.All & ~GamePermission.ViewChallenge }] },
  { id: 2, name: 'Open', defaultPermissions: GamePermission.All, challengeConfigs: [] },
]
const teams = [team(1, { divisionId: 1 }), team(2, { divisionId: 2 }), team(3), team(4, { divisionId: 1 }), team(5, { divisionId: 2 })]
const base = [challenge(1), challenge(2, { tag: 'Web', acceptedCount: 2 }), challenge(3, { tag: 'Crypto', acceptedCount: 1 })]
const solves = [solve(1, 2, min(5)), solve(2, 2, min(6)), solve(3, 3, min(7)), solve(4, 1, min(8))]

function game(partial: { challenges?: ChallengeData[]; teams?: TeamData[]; solves?: SolveData[]; divisions?: DivisionMeta[] } = {}): GameData {
  const challenges = partial.challenges ?? base
  const list = partial.teams ?? teams
  return {
    game: { id: 1, start: START, end: END, bloodBonus: DEFAULT_BLOOD_BONUS, divisions: partial.divisions ?? divisions },
    challenges,
    teams: list,
    instances: new Map(list.map((t) => [t.participationId, challenges.map((c) => c.id)])),
    solves: partial.solves ?? solves,
  }
}

const VIEW: BoardView = { frozen: false, freezeTime: null, live: false }
const render = (data: GameData, now = NOW, view = VIEW): ScoreboardModel => ScoreboardState.build(data).snapshot(now, view).model

/** The difference, checked as a client folds it: valid on the wire and giving the rebuilt board. */
function folded(before: ScoreboardModel, after: ScoreboardModel): ScoreboardDelta {
  const delta = rebuildDelta(before, after)
  expect(delta).not.toBeNull()
  const wire = ScoreboardDelta.parse(JSON.parse(JSON.stringify(delta)))
  const next = applyScoreboardDelta(before, wire)
  expect(next).toEqual(after)
  // The same key order, so a client's board serialises as the server's does.
  expect(Object.keys(next.challenges)).toEqual(Object.keys(after.challenges))
  return wire
}

describe('an opening as a difference', () => {
  it('adds the new column to every row with an unsolved cell, in id order, and the challenge to its tag', () => {
    const before = render(game())
    const after = render(game({ challenges: [...base, challenge(4, { tag: 'Web' })] }), NOW + 100)
    const delta = folded(before, after)
    expect(delta.added).toEqual([{ challenge: expect.objectContaining({ id: 4, tag: 'Web', solved: 0, bloods: [] }), except: [] }])
    expect(delta.items).toEqual([])
    expect(delta.challenges).toEqual([])
    expect(after.items.every((row) => row.challenges.map((c) => c.id).join() === '1,2,3,4')).toBe(true)
    expect(after.challengeCount).toBe(before.challengeCount + 1)
  })

  it('leaves out the rows of a division that may not view it, and places a tag new to the board in tag order', () => {
    const before = render(game())
    const after = render(game({ challenges: [...base, challenge(9, { tag: 'Pwn' }), challenge(7, { tag: 'Reverse' })] }), NOW + 100)
    const delta = folded(before, after)
    const except = Object.fromEntries(delta.added!.map((a) => [a.challenge.id, a.except.sort()]))
    expect(except).toEqual({ 7: [], 9: [1001, 1004] })
    expect(Object.keys(after.challenges)).toEqual(['Misc', 'Crypto', 'Pwn', 'Web', 'Reverse'])
  })

  it('carries solves that arrived with the rebuild as changed cells and challenge values', () => {
    const before = render(game())
    const later = [...solves, solve(5, 2, min(20)), solve(5, 1, min(21))]
    const after = render(game({ challenges: [challenge(1, { acceptedCount: 1 }), challenge(2, { tag: 'Web', acceptedCount: 3 }), base[2]!, challenge(4)], solves: later }), NOW + 100)
    const delta = folded(before, after)
    expect(delta.items.map((i) => i.id)).toEqual([1005])
    expect(delta.challenges.map((c) => c.id).sort()).toEqual([1, 2])
  })

  it('is an empty difference when the rebuild shows the same board (an edit the board does not show)', () => {
    const before = render(game())
    const delta = folded(before, render(game(), NOW + 100))
    expect(delta).toMatchObject({ challenges: [], items: [] })
    expect(delta.added).toBeUndefined()
  })

  it('folds on the frozen board alike (the freeze view is the same on both sides)', () => {
    const frozen: BoardView = { frozen: true, freezeTime: min(30), live: false }
    const before = render(game(), min(30), frozen)
    const after = render(game({ challenges: [...base, challenge(4)] }), min(30), frozen)
    expect(folded(before, after).added).toHaveLength(1)
  })
})

describe('what a difference cannot carry', () => {
  const before = render(game())
  const cases: [string, () => ScoreboardModel][] = [
    ['a new challenge somebody solved already', () => render(game({ challenges: [...base, challenge(4, { acceptedCount: 1 })], solves: [...solves, solve(2, 4, min(9))] }))],
    ['a challenge that left the board', () => render(game({ challenges: base.slice(0, 2) }))],
    ['a renamed challenge', () => render(game({ challenges: [challenge(1, { title: 'Renamed' }), ...base.slice(1)] }))],
    ['a new row (a team accepted)', () => render(game({ teams: [...teams, team(6)] }))],
    ['a row gone (a team suspended)', () => render(game({ teams: teams.slice(1) }))],
    ['a renamed team', () => render(game({ teams: [team(1, { divisionId: 1, name: 'renamed' }), ...teams.slice(1)] }))],
    ['a division edit', () => render(game({ divisions: [divisions[0]!, { ...divisions[1]!, name: 'Everyone' }] }))],
    ['the freeze starting', () => render(game(), NOW, { frozen: true, freezeTime: min(30), live: false })],
    ['the live board while frozen (staff) after the public one', () => render(game(), NOW, { frozen: false, freezeTime: min(30), live: true })],
    ['a solve taken away (a submission deleted)', () => render(game({ solves: solves.slice(1) }))],
  ]
  it.each(cases)('%s: no difference', (_, after) => {
    expect(rebuildDelta(before, after())).toBeNull()
  })
})
