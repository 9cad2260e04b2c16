/**
 * Scoreboard pieces (CONTRACT §4.9) as the engine (domain/scoreboard/engine.ts) renders them.
 * Times are epoch milliseconds in the engine and wire dates here.
 */
import type { Blood, ChallengeItem, TimeLine, TopTimeLine } from '@flagwave/shared/schemas/scoreboard'
import { BLOOD_TYPES, type BloodRank } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import { avatarUrl } from '../lib/assetUrls.js'

export interface TeamLike {
  teamId: number
  name: string
  avatarHash: string | null
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
    time: toWireDate(solve.time),
  }
}

export function presentBlood(team: TeamLike, time: number): Blood {
  return { id: team.teamId, name: team.name, avatar: avatarUrl(team.avatarHash), submitTimeUTC: toWireDate(time) }
}

/** A team's cumulative score after each solve, in time order (`solves` already sorted). */
export function presentTimeline(team: TeamLike, solves: readonly SolveLike[]): TopTimeLine {
  let total = 0
  const items: TimeLine[] = solves.map((s) => ({ time: toWireDate(s.time), score: (total += s.points) }))
  return { id: team.teamId, name: team.name, items }
}
