/**
 * What a client holds after a pushed scoreboard update (`applyScoreboardUpdate`, used by the SPA's
 * scoreboard store): a delta from the version it holds is folded in, a delta from any other
 * version is a gap (the page refetches and keeps what it shows), an older push is dropped, and a
 * whole board always replaces the held one.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { ScoreboardUpdate } from '@flagwave/shared/events'
import { applyScoreboardUpdate, type HeldScoreboard } from '@flagwave/shared/scoreboardDelta'

const GAME = 7
const START = '2026-01-01T08:00:00+00:00'

const board = (score: number): ScoreboardModel => ({
  updateTimeUTC: START,
  bloodBonus: 0,
  timeLines: { all: [] },
  items: [
    {
      id: 1,
      name: 'one',
      bio: null,
      organization: null,
      avatar: null,
      score,
      rank: 1,
      organizationRank: null,
      solvedCount: score > 0 ? 1 : 0,
      lastSubmissionTime: START,
      challenges: [{ id: 10, score, type: score > 0 ? 'Normal' : 'Unaccepted', userName: null, time: score > 0 ? START : null }],
      solvedChallenges: [{ id: 10, score, type: score > 0 ? 'Normal' : 'Unaccepted', userName: null, time: score > 0 ? START : null }],
      divisionId: null,
      divisionRank: null,
    },
  ],
  challenges: { Misc: [{ id: 10, title: 'c', tag: 'Misc', score: 100, solved: 0, bloods: [], category: 'Misc', disableBloodBonus: false, deadline: null }] },
  updateTimeUtc: START,
  timelines: [{ divisionId: 0, teams: [] }],
  challengeCount: 1,
  divisions: [],
})

const solveDelta = (version: number, base: number): ScoreboardUpdate => ({
  gameId: GAME,
  version,
  base,
  delta: {
    updateTimeUTC: '2026-01-01T08:05:00+00:00',
    challenges: [{ id: 10, score: 100, solved: 1, bloods: [{ id: 1, name: 'one', avatar: null, submitTimeUTC: '2026-01-01T08:04:00+00:00', submitTimeUtc: '2026-01-01T08:04:00+00:00' }] }],
    items: [{ id: 1, challenges: [{ id: 10, score: 100, type: 'FirstBlood', userName: 'u', time: '2026-01-01T08:04:00+00:00' }] }],
  },
})

let held: HeldScoreboard
/** Apply an update as the store does and return its outcome. */
const push = (update: ScoreboardUpdate) => {
  const { outcome, ...next } = applyScoreboardUpdate(held, update)
  held = next
  return outcome
}

beforeEach(() => {
  held = { version: 5, scoreboard: board(0) }
})

describe('applyScoreboardUpdate', () => {
  it('folds a delta from the version it holds', () => {
    expect(push(solveDelta(6, 5))).toBe('applied')
    expect(held.version).toBe(6)
    const row = held.scoreboard!.items[0]!
    expect(row).toMatchObject({ score: 100, solvedCount: 1, lastSubmissionTime: '2026-01-01T08:04:00+00:00' })
    expect(held.scoreboard!.challenges.Misc![0]).toMatchObject({ solved: 1, bloods: [{ id: 1 }] })
  })

  it('reports a gap for a delta from another version and keeps the board it shows', () => {
    const shown = held.scoreboard
    expect(push(solveDelta(8, 7))).toBe('gap')
    expect(held.version).toBe(5)
    expect(held.scoreboard).toBe(shown)
  })

  it('drops an update older than the board it holds', () => {
    expect(push(solveDelta(5, 4))).toBe('stale')
    expect(push({ gameId: GAME, version: 4, scoreboard: board(50) })).toBe('stale')
    expect(held.scoreboard!.items[0]!.score).toBe(0)
  })

  it('takes a whole board, reporting a skipped version as a gap', () => {
    expect(push({ gameId: GAME, version: 6, scoreboard: board(50) })).toBe('applied')
    expect(push({ gameId: GAME, version: 9, scoreboard: board(70) })).toBe('gap')
    expect(held.version).toBe(9)
    expect(held.scoreboard!.items[0]!.score).toBe(70)
  })

  it('keeps the board it shows on an announced version (to be read over REST), and ignores an old announcement', () => {
    const shown = held.scoreboard
    expect(push({ gameId: GAME, version: 6, refetch: true })).toBe('fetch')
    expect(held).toEqual({ version: 5, scoreboard: shown })
    expect(push({ gameId: GAME, version: 5, refetch: true })).toBe('stale')
    held = { ...held, version: -1 }
    expect(push({ gameId: GAME, version: 3, refetch: true })).toBe('fetch')
    expect(held.scoreboard).toBe(shown)
  })

  it('with an unknown version (after reconnecting) takes only a whole board', () => {
    held = { ...held, version: -1 }
    expect(push(solveDelta(6, 5))).toBe('gap')
    expect(push({ gameId: GAME, version: 3, scoreboard: board(30) })).toBe('applied')
  })
})
