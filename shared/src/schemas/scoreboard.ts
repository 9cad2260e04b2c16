/** Scoreboard shapes (docs/compatibility.md#scoreboard-shapes; computation rules in docs/scoring.md#dynamic-score and ../scoring.ts). */
import { z } from 'zod'
import { ChallengeTag, GamePermission, SubmissionType } from '../enums.js'
import { intOut, wireDateOut } from './fields.js'

export const Blood = z.object({
  id: intOut(),
  name: z.string(),
  avatar: z.string().nullable(),
  submitTimeUTC: wireDateOut().nullable(),
  /** Newer name (GZ::CTF 0.18), same value (docs/compatibility.md#newer-gzctf-versions). */
  submitTimeUtc: wireDateOut().nullable(),
})
export type Blood = z.infer<typeof Blood>

export const ChallengeInfo = z.object({
  id: intOut(),
  title: z.string(),
  tag: z.enum(ChallengeTag),
  score: intOut(),
  solved: intOut(),
  bloods: z.array(Blood),
  /** Newer members (GZ::CTF 0.25 `category` = `tag`; 1.0 `disableBloodBonus`; 1.7 `deadline`, none yet). */
  category: z.enum(ChallengeTag),
  disableBloodBonus: z.boolean(),
  deadline: wireDateOut().nullable(),
})
export type ChallengeInfo = z.infer<typeof ChallengeInfo>

export const ChallengeItem = z.object({
  id: intOut(),
  score: intOut(),
  type: z.enum(SubmissionType),
  userName: z.string().nullable(),
  time: wireDateOut().nullable(),
})
export type ChallengeItem = z.infer<typeof ChallengeItem>

export const ScoreboardItem = z.object({
  id: intOut(),
  name: z.string(),
  bio: z.string().nullable(),
  organization: z.string().nullable(),
  avatar: z.string().nullable(),
  score: intOut(),
  rank: intOut(),
  organizationRank: intOut().nullable(),
  solvedCount: intOut(),
  lastSubmissionTime: wireDateOut(),
  /** GZ::CTF 1.7's division members, null until divisions exist (in wire order: before the cells, which the board serialises apart). */
  divisionId: intOut().nullable(),
  divisionRank: intOut().nullable(),
  /** Flagwave: points the team paid for costed hints, already taken off `score` (docs/challenge-rules.md#costed-hints). */
  hintPenalty: intOut().optional(),
  challenges: z.array(ChallengeItem),
  /** `solvedChallenges` = `challenges` (GZ::CTF 0.23). */
  solvedChallenges: z.array(ChallengeItem),
})
export type ScoreboardItem = z.infer<typeof ScoreboardItem>

export const TimeLine = z.object({
  time: wireDateOut(),
  score: intOut(),
})
export type TimeLine = z.infer<typeof TimeLine>

export const TopTimeLine = z.object({
  id: intOut(),
  name: z.string(),
  items: z.array(TimeLine),
})
export type TopTimeLine = z.infer<typeof TopTimeLine>

/** `map<ChallengeTag, ChallengeInfo[]>`: only the tags that occur are present, in tag order. */
export const ChallengesByTag = z.partialRecord(z.enum(ChallengeTag), z.array(ChallengeInfo))
export type ChallengesByTag = z.infer<typeof ChallengesByTag>

/** GZ::CTF 1.7's timeline list: `divisionId` 0 is the overall board. */
const DivisionTimeLine = z.object({
  divisionId: intOut(),
  teams: z.array(TopTimeLine),
})

/** A division as the 1.7 scoreboard lists it (docs/scoring.md#divisions); `challengeConfigs` by challenge id. */
export const ScoreboardDivision = z.object({
  id: intOut(),
  name: z.string(),
  defaultPermissions: intOut().max(GamePermission.All),
  challengeConfigs: z.record(z.string(), z.object({ challengeId: intOut(), permissions: intOut() })),
})
export type ScoreboardDivision = z.infer<typeof ScoreboardDivision>

export const ScoreboardModel = z.object({
  updateTimeUTC: wireDateOut(),
  bloodBonus: intOut(),
  /** Key `"all"` plus one key per division (organization) name. */
  timeLines: z.record(z.string(), z.array(TopTimeLine)),
  items: z.array(ScoreboardItem),
  challenges: ChallengesByTag,
  /** Newer members (docs/compatibility.md#newer-gzctf-versions): same time, overall timeline, challenge count, divisions. */
  updateTimeUtc: wireDateOut(),
  timelines: z.array(DivisionTimeLine),
  challengeCount: intOut(),
  divisions: z.array(ScoreboardDivision),
  /**
   * Flagwave (docs/scoring.md#freeze): whether this is the frozen public board, the freeze time
   * (set, reached or not), and `live: true` on the live board staff read while the public one is frozen.
   */
  frozen: z.boolean().optional(),
  freezeTime: wireDateOut().nullable().optional(),
  live: z.boolean().optional(),
})
export type ScoreboardModel = z.infer<typeof ScoreboardModel>

/**
 * What a solve changes of a challenge (Flagwave's push, not a contract shape): its current score
 * and solve count, and its bloods only when they changed.
 */
export const ChallengeChange = z.object({
  id: intOut(),
  score: intOut(),
  solved: intOut(),
  bloods: z.array(Blood).optional(),
})
export type ChallengeChange = z.infer<typeof ChallengeChange>

/**
 * The difference between two consecutive versions of a board (Flagwave's push, docs/realtime.md#scoreboard-versions-and-gap-repair):
 * the challenges whose score, solve count or bloods changed, per team the cells whose
 * solve, blood type or solver changed, and the challenges that joined the board unsolved. Everything else — cell scores of re-scored challenges,
 * team totals, ranks, organization ranks, timelines — follows from these and the previous
 * version (`applyScoreboardDelta` in ../scoreboardDelta.ts), so a push stays a few kilobytes
 * however large the board is.
 */
export const ScoreboardDelta = z.object({
  updateTimeUTC: wireDateOut(),
  challenges: z.array(ChallengeChange),
  /** Per team the changed cells, and `hintPenalty` when the team's hint deductions changed. */
  items: z.array(z.object({ id: intOut(), challenges: z.array(ChallengeItem), hintPenalty: intOut().optional() })),
  /**
   * Challenges that joined the board (an opening) with no team's solve on it: each one's info, and
   * the rows that do not get its unsolved cell (a division that may not view it); every other row
   * gets one, in challenge id order. Absent when none joined.
   */
  added: z.array(z.object({ challenge: ChallengeInfo, except: z.array(intOut()) })).optional(),
})
export type ScoreboardDelta = z.infer<typeof ScoreboardDelta>
