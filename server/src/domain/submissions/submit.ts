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
import { assertBeforeDeadline, isPendingRelease } from '../challenges/rules.js'
import { nativePool } from '../../db/pg.js'
import { assertUnlocked } from '../challenges/prerequisites.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { accepted, acceptSubmission } from './accept.js'

/**
 * Queue `answer` (already trimmed by FlagSubmitModel) for the caller's team after the context gate
 * (steps 1–6, ended games refused unless in practice mode) and the challenge rules; wake the
 * checkers. The rules are decided on the read cache's rows, then checked again inside the one
 * INSERT (accept.ts), so a write another node just committed cannot be outrun. The row records the
 * caller's client address (`actor.ip`, never a header taken on trust). Returns the id.
 */
export async function submitFlag(scope: Scope, actor: Actor, gameId: number, challengeId: number, answer: string): Promise<number> {
  const { em } = scope
  const user = actor.user
  const time = new Date()
  // The gate from the read cache as plain rows: ids and flags are all it needs, no entity is built.
  const { registration, challenge } = await gateRows(em, gameId, user.id, { refuseEnded: true, challengeId, now: time })
  await assertDivisionMay(em, gameId, registration.participation.division, challenge!.id, 'SubmitFlags')
  // A challenge waiting for its opening time does not exist for players yet (docs/challenge-rules.md).
  if (isPendingRelease(challenge!)) throw notFound('题目未找到')
  assertBeforeDeadline(challenge!, time.getTime())
  // A challenge locked by its prerequisites takes no flag (docs/challenge-rules.md#prerequisites); no query without any.
  if ((challenge!.prerequisites ?? []).length > 0) await assertUnlocked(em, gameId, registration.participation.id, challenge!.id)
  const pool = await nativePool(em.getConnection())
  const submission = { gameId, challengeId: challenge!.id, participationId: registration.participation.id, userId: user.id, answer, time, ip: actor.ip }
  const id = await acceptSubmission(pool, submission, (challenge!.submissionLimit ?? 0) > 0)
  accepted(scope.services, submission)
  return id
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
