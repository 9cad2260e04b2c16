/**
 * `ReceivedChallengeUpdate` payloads (DESIGN §5): the current score, solve count and bloods of
 * challenges whose scoring changed through an edit. Bloods are the first three accepted teams by
 * their earliest accepted submission before the game end (CONTRACT §7.6).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ChallengeUpdate } from '@flagwave/shared/events'
import type { Blood } from '@flagwave/shared/schemas/scoreboard'
import { toWireDate } from '@flagwave/shared/format'
import type { Challenge } from '../../entities/Challenge.js'
import type { Game } from '../../entities/Game.js'
import { avatarUrl } from '../files/files.js'
import { currentScore } from '../../presenters/challenges.js'

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

export async function challengeBloods(em: EntityManager, game: Pick<Game, 'end'>, challengeId: number): Promise<Blood[]> {
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
  return rows.map((r) => ({ id: r.id, name: r.name, avatar: avatarUrl(r.avatar_hash), submitTimeUTC: toWireDate(r.time) }))
}

export async function challengeUpdateOf(em: EntityManager, game: Pick<Game, 'id' | 'end'>, challenges: Challenge[]): Promise<ChallengeUpdate> {
  const items: ChallengeUpdate['challenges'] = []
  for (const c of challenges) {
    items.push({ id: c.id, score: currentScore(c), solved: c.acceptedCount, bloods: await challengeBloods(em, game, c.id) })
  }
  return { gameId: game.id, challenges: items }
}
