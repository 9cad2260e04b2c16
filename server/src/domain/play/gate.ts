/**
 * The "context gate" shared by the player endpoints (docs/compatibility.md#group-game-the-context-gate): game exists, the caller
 * is registered, the participation is accepted, the game has started, and — where ended games
 * are refused — it has not ended (unless in practice mode). Checked in exactly this order.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { Game } from '../../entities/Game.js'
import { Registration } from '../../entities/Registration.js'
import { Participation } from '../../entities/Participation.js'
import { Challenge } from '../../entities/Challenge.js'
import type { User } from '../../entities/User.js'
import { badRequest, notFound } from '../../lib/errors.js'

export interface GameContext {
  game: Game
  participation: Participation
  registration: Registration
}

export interface GateOptions {
  /** Step 5: refuse after the end unless the game is in practice mode (all gated endpoints but write-ups). */
  refuseEnded: boolean
  /** Step 6 (flag submission): the game must have a challenge with this id (enabled or not). */
  challengeId?: number
  now?: Date
}

export const isStarted = (game: Pick<Game, 'start'>, now = new Date()) => now.getTime() >= game.start.getTime()
export const isEnded = (game: Pick<Game, 'end'>, now = new Date()) => now.getTime() > game.end.getTime()
export const isRunning = (game: Pick<Game, 'start' | 'end'>, now = new Date()) => isStarted(game, now) && !isEnded(game, now)

export async function gameContext(em: EntityManager, gameId: number, user: User, options: GateOptions): Promise<GameContext & { challenge?: Challenge }> {
  const now = options.now ?? new Date()
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const registration = await em.findOne(Registration, { game: gameId, user: user.id }, { populate: ['participation', 'participation.team'] })
  if (!registration) throw badRequest('您尚未参赛')
  const participation = registration.participation as Participation
  if (participation.status !== 'Accepted') throw badRequest('您的参赛申请尚未通过或被禁赛')
  if (!isStarted(game, now)) throw badRequest('比赛未开始')
  if (options.refuseEnded && !game.practiceMode && isEnded(game, now)) throw badRequest('比赛已结束')
  if (options.challengeId !== undefined) {
    const challenge = await em.findOne(Challenge, { id: options.challengeId, game: gameId })
    if (!challenge) throw notFound('题目未找到')
    return { game, participation, registration, challenge }
  }
  return { game, participation, registration }
}
