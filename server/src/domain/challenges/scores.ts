/**
 * What an edit changes of a challenge's scoring as players see it (docs/realtime.md), and the bloods
 * that go with the current score (docs/scoring.md#dynamic-score). The push itself is built in `events.ts`.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Challenge } from '../../entities/Challenge.js'
import type { Game } from '../../entities/Game.js'

/** The scoring fields whose change alters what players see of a challenge. */
export type ScoringFields = Pick<Challenge, 'originalScore' | 'minScoreRate' | 'difficulty' | 'isEnabled'>

export const scoringSnapshot = (c: ScoringFields): ScoringFields => ({
  originalScore: c.originalScore,
  minScoreRate: c.minScoreRate,
  difficulty: c.difficulty,
  isEnabled: c.isEnabled,
})

export const scoringChanged = (a: ScoringFields, b: ScoringFields): boolean =>
  a.originalScore !== b.originalScore ||
  Number(a.minScoreRate) !== Number(b.minScoreRate) ||
  Number(a.difficulty) !== Number(b.difficulty) ||
  a.isEnabled !== b.isEnabled

/** One of the first three teams to solve a challenge, as stored. */
interface BloodRecord {
  id: number
  name: string
  avatarHash: string | null
  time: Date | string
}

/**
 * The first three accepted teams of a challenge by their earliest accepted submission before
 * the game end.
 */
export async function challengeBloods(em: EntityManager, game: Pick<Game, 'end'>, challengeId: number): Promise<BloodRecord[]> {
  const rows = await em.execute<{ id: number; name: string; avatar_hash: string | null; time: Date | string }[]>(
    `select t.id, t.name, t.avatar_hash, min(s.submit_time) as time
       from submissions s
       join participations p on p.id = s.participation_id
       join teams t on t.id = p.team_id
      where s.challenge_id = ? and s.status = 'Accepted' and s.submit_time <= ? and p.status = 'Accepted'
      group by t.id, t.name, t.avatar_hash
      order by time asc, t.id asc
      limit 3`,
    [challengeId, game.end],
  )
  return rows.map((r) => ({ id: r.id, name: r.name, avatarHash: r.avatar_hash, time: r.time }))
}
