/**
 * Inputs of the scoreboard engine (server/src/domain/scoreboard/engine.ts) for unit tests: a
 * challenge, a team and a solve with plain defaults, each overridable.
 */
import type { ChallengeData, SolveData, TeamData } from '../../server/src/domain/scoreboard/engine.js'

export const challenge = (id: number, overrides: Partial<ChallengeData> = {}): ChallengeData => ({
  id,
  title: `C${id}`,
  tag: 'Misc',
  originalScore: 500,
  minScoreRate: 0.25,
  difficulty: 5,
  acceptedCount: 0,
  ...overrides,
})

export const team = (pid: number, overrides: Partial<TeamData> = {}): TeamData => ({
  participationId: pid,
  teamId: pid + 1000,
  name: `team${pid}`,
  bio: null,
  avatarHash: null,
  divisionId: null,
  ...overrides,
})

/** Submission ids count up across a test file, as the database's do. */
let sid = 0
export const solve = (pid: number, cid: number, time: number, overrides: Partial<SolveData> = {}): SolveData => ({
  participationId: pid,
  challengeId: cid,
  submissionId: ++sid,
  time,
  userName: `user${pid}`,
  ...overrides,
})
