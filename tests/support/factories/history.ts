/**
 * A game's history as it happened, for the replay and staged-reveal tests (docs/scoring.md#replay):
 * three challenges with distinct scoring, players holding them, accepted solves written at given
 * minutes with the counters the checkers would have left, and wrong answers.
 */
import type pg from 'pg'
import type { Game } from '../../../server/src/entities/Game.js'
import type { Challenge } from '../../../server/src/entities/Challenge.js'
import type { TestServer } from '../server.js'
import { createChallenge } from './games.js'
import { createInstances, createPlayer, type Player } from './play.js'

const MINUTE = 60_000

/** web (dynamic, 500), crypto (dynamic, 300) and misc (static, 100). */
export async function threeChallenges(server: TestServer, game: Game): Promise<{ web: Challenge; crypto: Challenge; misc: Challenge }> {
  return {
    web: await createChallenge(server, game, { title: 'web', tag: 'Web', originalScore: 500, minScoreRate: 0.25, difficulty: 2 }),
    crypto: await createChallenge(server, game, { title: 'crypto', tag: 'Crypto', originalScore: 300, minScoreRate: 0.5, difficulty: 1 }),
    misc: await createChallenge(server, game, { title: 'misc', tag: 'Misc', originalScore: 100, minScoreRate: 1, difficulty: 5 }),
  }
}

/** Accepted players of the game (named, or five), each holding every one of `challenges`. */
export async function playersHolding(server: TestServer, game: Game, challenges: Challenge[], names?: string[]): Promise<Player[]> {
  const players: Player[] = []
  for (const teamName of names ?? [undefined, undefined, undefined, undefined, undefined]) players.push(await createPlayer(server, game, teamName ? { teamName } : {}))
  await createInstances(server, players.map((p) => p.participation), challenges)
  return players
}

/** A submission of `p` to `c` at `t0 + minutes`, settled then. */
async function pastSubmission(pool: pg.Pool, game: Game, t0: number, [p, c, minutes]: [Player, Challenge, number], status: 'Accepted' | 'WrongAnswer', answer: string): Promise<void> {
  await pool.query(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, settled_at) values ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [game.id, c.id, p.participation.id, p.user.id, answer, status, new Date(t0 + minutes * MINUTE)],
  )
}

/** Accepted first solves at `t0 + minutes`, then each challenge's counter as the checkers count it. */
export async function pastSolves(pool: pg.Pool, game: Game, t0: number, list: [Player, Challenge, number][]): Promise<void> {
  for (const entry of list) await pastSubmission(pool, game, t0, entry, 'Accepted', 'flag{test}')
  await pool.query(
    `update challenges c set accepted_count = (select count(distinct s.participation_id) from submissions s where s.challenge_id = c.id and s.status = 'Accepted') where c.game_id = $1`,
    [game.id],
  )
}

/** Wrong answers at `t0 + minutes` (after a freeze they keep their cells pending in the reveal, docs/scoring.md#staged-reveal). */
export async function pastWrongAnswers(pool: pg.Pool, game: Game, t0: number, list: [Player, Challenge, number][]): Promise<void> {
  for (const entry of list) await pastSubmission(pool, game, t0, entry, 'WrongAnswer', 'flag{wrong}')
}
