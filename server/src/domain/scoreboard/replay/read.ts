/**
 * `GET /api/game/{id}/scoreboard?at=…` (docs/scoring.md#replay): the board as it stood at a moment.
 * Monitors and admins may replay any game at any moment; everyone else only an ended game whose
 * organiser allows it (`replayPublic`), and while its board is frozen never past the freeze.
 */
import { roleRank } from '@flagwave/shared/enums'
import { Game } from '../../../entities/Game.js'
import { forbidden, notFound } from '../../../lib/errors.js'
import type { Actor } from '../../actor.js'
import type { Scope } from '../../scope.js'
import { boardFreeze } from '../../games/freeze.js'
import type { Snapshot } from '../board.js'
import { replayTimeline } from './cache.js'

export const REPLAY_NOT_PUBLIC = '比赛回放未开放'

/** Whether the caller may replay this game now, and the latest moment it may see (null: any). */
export function replayAccess(game: Pick<Game, 'end' | 'replayPublic' | 'freezeTime' | 'unfrozenAt'>, actor: Actor | null, now = Date.now()): { allowed: boolean; cap: number | null } {
  if (actor && roleRank(actor.user.role) >= roleRank('Monitor')) return { allowed: true, cap: null }
  if (!game.replayPublic || game.end.getTime() > now || actor?.user.role === 'Banned') return { allowed: false, cap: null }
  const freeze = boardFreeze(game, now)
  // The frozen board holds the solves before the freeze (docs/scoring.md#freeze).
  return { allowed: true, cap: freeze ? freeze.getTime() - 1 : null }
}

export async function replayBoard(scope: Scope, actor: Actor | null, gameId: number, at: Date): Promise<Snapshot> {
  const game = await scope.em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const access = replayAccess(game, actor)
  if (!access.allowed) throw forbidden(REPLAY_NOT_PUBLIC)
  const timeline = await replayTimeline(scope.services, gameId)
  if (!timeline) throw notFound('比赛未找到')
  const t = access.cap === null ? at.getTime() : Math.min(at.getTime(), access.cap)
  return timeline.frameAt(t).snapshot
}
