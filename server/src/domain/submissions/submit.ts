/**
 * Flag submission (docs/compatibility.md#group-game-challenges-and-flags): the submission row is the durable queue entry
 * (docs/scoring.md#submission-queue); judging happens in the checkers (settle.ts), the caller polls the status.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { maskedStatus, type AnswerResult } from '@flagwave/shared/enums'
import { assertDivisionMay, gateRows } from '../play/gate.js'
import { Submission } from '../../entities/Submission.js'
import type { User } from '../../entities/User.js'
import { notFound } from '../../lib/errors.js'
import { nativePool } from '../../db/pg.js'
import { assertUnlocked } from '../challenges/prerequisites.js'
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
  // A challenge locked by its prerequisites takes no flag (docs/challenge-rules.md#prerequisites); no query without any.
  if ((challenge!.prerequisites ?? []).length > 0) await assertUnlocked(em, gameId, registration.participation.id, challenge!.id)
  // One autocommitted statement, the hot path of a contest; the checkers are woken after it
  // (queue.ts says why not by a NOTIFY inside it).
  const pool = await nativePool(em.getConnection())
  const { rows } = await pool.query<{ id: number }>(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
     values ($1, $2, $3, $4, $5, 'FlagSubmitted', $6, $7) returning id`,
    [gameId, challenge!.id, registration.participation.id, user.id, answer, new Date(), actor.ip],
  )
  scope.services.submissions.submitted()
  return rows[0]!.id
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
