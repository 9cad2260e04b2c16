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

const REPLAY_NOT_PUBLIC = '比赛回放未开放'

/** Whether the caller may replay this game now, and the latest moment it may see (null: any). */
function replayAccess(game: Pick<Game, 'end' | 'replayPublic' | 'freezeTime' | 'unfrozenAt'>, actor: Actor | null, now = Date.now()): { allowed: boolean; cap: number | null } {
  if (isStaff(actor)) return { allowed: true, cap: null }
  if (!game.replayPublic || game.end.getTime() > now || actor?.user.role === 'Banned') return { allowed: false, cap: null }
  const freeze = boardFreeze(game, now)
  // The frozen board holds the solves before the freeze (docs/scoring.md#freeze).
  return { allowed: true, cap: freeze ? freeze.getTime() - 1 : null }
}

/**
 * The board of `gameId` at `at` for the caller. A seek that cannot reuse a kept state costs about a
 * full rebuild, run on the event loop: the public's seeks are rate limited per caller (`Replay`,
 * http/rateLimit.ts; `partition` is the caller's user or address key), and every node runs one
 * seek at a time, each in its own turn of the loop, so that other requests are served between them.
 */
export async function replayBoard(scope: Scope, actor: Actor | null, partition: string, gameId: number, at: Date): Promise<Snapshot> {
  const game = await scope.em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const access = replayAccess(game, actor)
  if (!access.allowed) throw forbidden(REPLAY_NOT_PUBLIC)
  if (!isStaff(actor)) await scope.services.limits.consume('Replay', partition)
  const timeline = await replayTimeline(scope.services, gameId)
  if (!timeline) throw notFound('比赛未找到')
  const t = access.cap === null ? at.getTime() : Math.min(at.getTime(), access.cap)
  return oneAtATime(() => timeline.frameAt(t).snapshot)
}

const isStaff = (actor: Actor | null): boolean => !!actor && roleRank(actor.user.role) >= roleRank('Monitor')

let seeks: Promise<unknown> = Promise.resolve()
/** Run `work` after the seeks queued before it, in a turn of the event loop of its own. */
function oneAtATime<T>(work: () => T): Promise<T> {
  const run = seeks.then(() => new Promise<T>((resolve, reject) => setImmediate(() => {
    try {
      resolve(work())
    } catch (err) {
      reject(err)
    }
  })))
  seeks = run.catch(() => undefined)
  return run
}
