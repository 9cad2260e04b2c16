/**
 * Scoreboard pieces (docs/compatibility.md#scoreboard-shapes) as the board (domain/scoreboard/board.ts) renders the engine's
 * records. Times are epoch milliseconds in the engine and wire dates here.
 */
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { Blood, ChallengeInfo, ChallengeItem, ScoreboardDivision, ScoreboardItem, TimeLine, TopTimeLine } from '@flagwave/shared/schemas/scoreboard'
import type { DivisionRules } from '@flagwave/shared/divisions'
import { BLOOD_TYPES, type BloodRank } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import { avatarUrl } from '../lib/assetUrls.js'

/**
 * Epoch milliseconds as a wire date, remembered: a board renders the same solve times over and over
 * (every re-rendered row, every replayed frame, docs/scoring.md#replay). Bounded by starting afresh.
 */
const wireTimes = new Map<number, string>()
const WIRE_TIMES_KEPT = 200_000
function wireTime(ms: number): string {
  let text = wireTimes.get(ms)
  if (text === undefined) {
    if (wireTimes.size >= WIRE_TIMES_KEPT) wireTimes.clear()
    wireTimes.set(ms, (text = toWireDate(ms)))
  }
  return text
}

export interface TeamLike {
  teamId: number
  name: string
  avatarHash: string | null
}

export interface RowTeamLike extends TeamLike {
  bio: string | null
  divisionId: number | null
}

export interface RowLike {
  score: number
  rank: number
  divisionRank: number | null
  solved: number
  /** Points paid for costed hints (docs/challenge-rules.md#costed-hints). */
  hintPenalty?: number
  /** The latest counted solve, epoch milliseconds. */
  last: number
}

export interface DivisionLike extends DivisionRules {
  name: string
}

export interface ChallengeLike {
  id: number
  title: string
  tag: ChallengeTag
  /** Epoch milliseconds (docs/challenge-rules.md#deadline). */
  deadline?: number | null
}

export interface SolveLike {
  time: number
  points: number
  blood: BloodRank | null
  userName: string | null
}

/** One cell of a team's row: its points for the challenge, blood type, solver and time. */
export function presentChallengeItem(challengeId: number, solve: SolveLike | undefined): ChallengeItem {
  if (!solve) return { id: challengeId, score: 0, type: 'Unaccepted', userName: null, time: null }
  return {
    id: challengeId,
    score: solve.points,
    type: solve.blood === null ? 'Normal' : BLOOD_TYPES[solve.blood],
    userName: solve.userName,
    time: wireTime(solve.time),
  }
}

/**
 * A team's row without its cells (the board serialises the cells apart, once per change). Its
 * division is v0.17.6's organization (`divisionName`) and GZ::CTF 1.7's `divisionId`; both ranks
 * within it are the same (docs/scoring.md#divisions).
 */
export function presentRowHead(team: RowTeamLike, divisionName: string | null, row: RowLike): Omit<ScoreboardItem, 'challenges' | 'solvedChallenges'> {
  return {
    id: team.teamId,
    name: team.name,
    bio: team.bio ?? null,
    organization: divisionName,
    avatar: avatarUrl(team.avatarHash),
    score: row.score,
    rank: row.rank,
    organizationRank: row.divisionRank,
    solvedCount: row.solved,
    lastSubmissionTime: wireTime(row.last),
    divisionId: team.divisionId,
    divisionRank: row.divisionRank,
    hintPenalty: row.hintPenalty ?? 0,
  }
}

/** A division as the 1.7 scoreboard lists it: no invite code, overrides by challenge id. */
export function presentScoreboardDivision(division: DivisionLike): ScoreboardDivision {
  return {
    id: division.id,
    name: division.name,
    defaultPermissions: division.defaultPermissions,
    challengeConfigs: Object.fromEntries(division.challengeConfigs.map((c) => [String(c.challengeId), { challengeId: c.challengeId, permissions: c.permissions }])),
  }
}

/** A challenge as the board lists it, with its first three solvers. */
export function presentChallengeInfo(challenge: ChallengeLike, score: number, solved: number, bloods: readonly { team: TeamLike; time: number }[]): ChallengeInfo {
  return {
    id: challenge.id,
    title: challenge.title,
    tag: challenge.tag,
    score,
    solved,
    bloods: bloods.map((b) => presentBlood(b.team, b.time)),
    category: challenge.tag,
    // No per-challenge blood bonus switch yet: its neutral value.
    disableBloodBonus: false,
    deadline: challenge.deadline ? toWireDate(challenge.deadline) : null,
  }
}

export function presentBlood(team: TeamLike, time: number | Date | string): Blood {
  const at = toWireDate(time)
  return { id: team.teamId, name: team.name, avatar: avatarUrl(team.avatarHash), submitTimeUTC: at, submitTimeUtc: at }
}

/** A team's cumulative score after each solve, in time order (`solves` already sorted). */
export function presentTimeline(team: TeamLike, solves: readonly SolveLike[]): TopTimeLine {
  let total = 0
  const items: TimeLine[] = solves.map((s) => ({ time: wireTime(s.time), score: (total += s.points) }))
  return { id: team.teamId, name: team.name, items }
}
