/**
 * Flag submission (docs/compatibility.md#group-game-challenges-and-flags): the submission row is the durable queue entry
 * (docs/scoring.md#submission-queue); judging happens in the checkers (settle.ts), the caller polls the status.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { maskedStatus, type AnswerResult } from '@flagwave/shared/enums'
import { assertDivisionMay, gateRows } from '../play/gate.js'
import { Submission } from '../../entities/Submission.js'
import type { User } from '../../entities/User.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { assertBeforeDeadline, ATTEMPTS_EXHAUSTED, isPendingRelease } from '../challenges/rules.js'
import { nativePool } from '../../db/pg.js'
import { assertUnlocked } from '../challenges/prerequisites.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

/**
 * Queue `answer` (already trimmed by FlagSubmitModel) for the caller's team after the context gate
 * (steps 1–6, ended games refused unless in practice mode); wake the checkers. The row records the
 * caller's client address (`actor.ip`, never a header taken on trust). Returns the id.
 */
export async function submitFlag(scope: Scope, actor: Actor, gameId: number, challengeId: number, answer: string): Promise<number> {
  const { em } = scope
  const user = actor.user
  // The gate from the read cache as plain rows: ids and flags are all it needs, no entity is built.
  const { registration, challenge } = await gateRows(em, gameId, user.id, { refuseEnded: true, challengeId })
  await assertDivisionMay(em, gameId, registration.participation.division, challenge!.id, 'SubmitFlags')
  // A challenge waiting for its opening time does not exist for players yet (docs/challenge-rules.md).
  if (isPendingRelease(challenge!)) throw notFound('题目未找到')
  assertBeforeDeadline(challenge!, Date.now())
  // A challenge locked by its prerequisites takes no flag (docs/challenge-rules.md#prerequisites); no query without any.
  if ((challenge!.prerequisites ?? []).length > 0) await assertUnlocked(em, gameId, registration.participation.id, challenge!.id)
  const pool = await nativePool(em.getConnection())
  const values = [gameId, challenge!.id, registration.participation.id, user.id, answer, new Date(), actor.ip]
  const limit = challenge!.submissionLimit ?? 0
  const id = limit > 0 ? await insertWithinLimit(pool, values, limit) : await insertSubmission(pool, values)
  if (id === null) throw badRequest(ATTEMPTS_EXHAUSTED)
  // The team's attempts changed: its kept challenge detail goes here at once, and on the other
  // nodes when a checker settles the row, whose commit names the same tag (settle.ts).
  readCacheOf(em).invalidate([tags.instance(registration.participation.id, challenge!.id)])
  scope.services.submissions.submitted()
  return id
}

type Pool = Awaited<ReturnType<typeof nativePool>>
const INSERT = `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)`

/**
 * One autocommitted statement, the hot path of a contest; the checkers are woken after it
 * (queue.ts says why not by a NOTIFY inside it).
 */
async function insertSubmission(pool: Pool, values: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`${INSERT} values ($1, $2, $3, $4, $5, 'FlagSubmitted', $6, $7) returning id`, values)
  return rows[0]!.id
}

/**
 * A challenge with an attempt limit (docs/challenge-rules.md#attempt-limits): the row is inserted
 * only while the team has fewer than `limit` submissions to it, every status counted. The count
 * and the insert are one INSERT … SELECT … WHERE, after a transaction lock on (team, challenge):
 * the INSERT's snapshot is taken once the lock is held, so it counts every row a concurrent
 * submission of any node committed before it. Null: the limit is reached.
 */
async function insertWithinLimit(pool: Pool, values: unknown[], limit: number): Promise<number | null> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`attempts:${String(values[2])}:${String(values[1])}`])
    const { rows } = await client.query<{ id: number }>(
      `${INSERT} select $1, $2, $3, $4, $5, 'FlagSubmitted', $6, $7
       where (select count(*) from submissions where challenge_id = $2 and participation_id = $3) < $8 returning id`,
      [...values, limit],
    )
    await client.query('commit')
    return rows[0]?.id ?? null
  } catch (err) {
    await client.query('rollback').catch(() => undefined)
    throw err
  } finally {
    client.release()
  }
}

/** The caller's own submission of this game and challenge; CheatDetected reads as WrongAnswer. */
export async function submissionStatus(em: EntityManager, user: User, gameId: number, challengeId: number, submitId: number): Promise<AnswerResult> {
  // Polled every second or so by every waiting client: one indexed row, no entity to hydrate.
  const rows = await em.execute<{ status: Submission['status'] }[]>(
    'select status from submissions where id = ? and user_id = ? and game_id = ? and challenge_id = ?',
    [submitId, user.id, gameId, challengeId],
  )
  if (!rows[0]) throw notFound('提交未找到')
  return maskedStatus(rows[0].status)
}
