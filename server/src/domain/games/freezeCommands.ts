/**
 * The organiser's "freeze now" and "unfreeze now" (docs/scoring.md#freeze), and the unfreeze the
 * staged reveal ends with. Both lock the game row, change it through the rules of freeze.ts, and
 * then rebuild the scoreboard so the answer already reflects the change. Unfreezing also releases
 * what the freeze held back: blood notices (pushed now) and solve/blood webhooks (due now).
 */
import { LockMode } from '@mikro-orm/core'
import { Game } from '../../entities/Game.js'
import { GameNotice } from '../../entities/GameNotice.js'
import { notFound } from '../../lib/errors.js'
import { nativePool } from '../../db/pg.js'
import { noticeRooms } from '../notices/events.js'
import { presentNotice } from '../../presenters/notices.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { boardFreeze, pendingFreeze, setFreezeTime } from './freeze.js'
import { noticeHeld } from './freezeHold.js'

/** Lock the game row and apply `change`; returns the game and whether anything changed. */
async function changeFreeze(scope: Scope, gameId: number, change: (game: Game) => boolean): Promise<{ game: Game; changed: boolean }> {
  return scope.em.transactional(async (tem) => {
    const game = await tem.findOne(Game, { id: gameId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    if (!game) throw notFound('比赛未找到')
    const changed = change(game)
    await tem.flush()
    return { game, changed }
  })
}

/** `POST /api/edit/games/{id}/freeze`: freeze the public board now (an already frozen board stays as it is). */
export async function freezeGame(scope: Scope, actor: Actor, gameId: number): Promise<Game> {
  const { game, changed } = await changeFreeze(scope, gameId, (g) => {
    if (boardFreeze(g)) return false
    setFreezeTime(g, new Date())
    return true
  })
  if (changed) {
    await scope.services.scoreboard.rebuild(gameId)
    await scope.services.audit.success(actor, `冻结了比赛 #${gameId} 的积分榜`)
  }
  return game
}

/**
 * `POST /api/edit/games/{id}/unfreeze`, and the end of the staged reveal: lift the freeze (reached
 * or pending) now, publish the live board to everyone and release the held notices and webhooks.
 * Nothing to lift changes nothing.
 */
export async function unfreezeGame(scope: Scope, actor: Actor, gameId: number): Promise<Game> {
  let heldFrom: Date | null = null
  const { game, changed } = await changeFreeze(scope, gameId, (g) => {
    if (!pendingFreeze(g)) return false
    heldFrom = boardFreeze(g)
    g.unfrozenAt = new Date()
    return true
  })
  if (!changed) return game
  await scope.services.scoreboard.rebuild(gameId)
  if (heldFrom) await releaseHeld(scope, gameId, heldFrom)
  await scope.services.audit.success(actor, `解冻了比赛 #${gameId} 的积分榜`)
  return game
}

/** The freeze (from `from`) is lifted: held solve/blood webhooks are due now, held blood notices are pushed (oldest first). */
export async function releaseHeld(scope: Scope, gameId: number, from: Date): Promise<void> {
  const pool = await nativePool(scope.em.getConnection())
  await pool.query(
    `update webhook_deliveries set next_attempt_at = now()
      where game_id = $1 and status = 'Pending' and event in ('solve', 'blood') and next_attempt_at > now()`,
    [gameId],
  )
  const frozen = { freezeTime: from, unfrozenAt: null }
  const notices = await scope.em.find(GameNotice, { game: gameId, publishTime: { $gte: from } }, { orderBy: { publishTime: 'asc', id: 'asc' } })
  for (const notice of notices) {
    if (!noticeHeld(frozen, notice, Date.now())) continue
    const model = presentNotice(notice)
    for (const room of await noticeRooms(pool, gameId, notice.challenge?.id ?? null)) scope.events.publish('user', room, 'ReceivedGameNotice', model)
  }
}
