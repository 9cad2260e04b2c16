/**
 * The cells a staged reveal keeps pending (docs/scoring.md#staged-reveal): every (team, challenge)
 * with a submission of any status from the freeze on and before the end. Read only for the reveal's
 * plan; no other channel tells which cells a team tried after the freeze (docs/scoring.md#freeze).
 */
import type pg from 'pg'
import type { RevealAttempt } from './plan.js'

export async function loadAttemptsSince(pool: pg.Pool, gameId: number, freezeTime: number): Promise<RevealAttempt[]> {
  const { rows } = await pool.query<{ pid: number; cid: number }>(
    `select distinct s.participation_id as pid, s.challenge_id as cid
       from submissions s join games g on g.id = s.game_id
      where s.game_id = $1 and s.submit_time >= $2 and s.submit_time < g."end"`,
    [gameId, new Date(freezeTime)],
  )
  return rows.map((r) => ({ participationId: r.pid, challengeId: r.cid }))
}
