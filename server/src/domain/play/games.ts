/**
 * Reading games as a player or a visitor (docs/compatibility.md#group-game-reading-and-joining) and the shared game
 * lookups of the monitor endpoints (docs/compatibility.md#group-game-the-context-gate).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import { Game } from '../../entities/Game.js'
import { GameNotice } from '../../entities/GameNotice.js'
import { Participation } from '../../entities/Participation.js'
import { Registration } from '../../entities/Registration.js'
import type { Team } from '../../entities/Team.js'
import type { User } from '../../entities/User.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { isStarted } from './gate.js'

export const GAME_NOT_FOUND = '比赛未找到'
const GAME_NOT_STARTED = '比赛未开始'

/**
 * `GET /api/game`: the 10 most recent non-hidden games by start time, descending. Read
 * uncached (one indexed query), so edits, posters and games written by any means show at once;
 * the reference's up-to-2-hour cache only ever served older data.
 */
export function recentGames(em: EntityManager): Promise<Game[]> {
  return em.find(Game, { hidden: false }, { orderBy: { start: 'desc', id: 'desc' }, limit: 10 })
}

/** The caller's own registration in a game, as the game detail shows it. */
interface CallerRegistration {
  status: ParticipationStatus
  teamName: string
  organization: string | null
}

/** A game with its team count and the caller's registration (null when anonymous or not registered). */
interface GameInfo {
  game: Game
  teamCount: number
  caller: CallerRegistration | null
}

/** `GET /api/game/{id}`: hidden games too; the caller's participation when signed in. */
export async function gameInfoFor(em: EntityManager, gameId: number, user: User | null): Promise<GameInfo> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound(GAME_NOT_FOUND)
  const teamCount = await em.count(Participation, { game: gameId })
  let caller: CallerRegistration | null = null
  if (user) {
    const registration = await em.findOne(Registration, { user: user.id, game: gameId }, { populate: ['participation', 'participation.team'] })
    if (registration) {
      const participation = registration.participation as Participation
      caller = { status: participation.status, teamName: (participation.team as Team).name, organization: participation.organization ?? null }
    }
  }
  return { game, teamCount, caller }
}

/**
 * The game of an anonymous or monitor read that refuses games not started yet: 404
 * `比赛未找到` (body status `notFoundBodyStatus`), then 400 `比赛未开始`.
 */
export async function startedGame(em: EntityManager, gameId: number, notFoundBodyStatus = 404): Promise<Game> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound(GAME_NOT_FOUND, notFoundBodyStatus)
  if (!isStarted(game)) throw badRequest(GAME_NOT_STARTED)
  return game
}

/**
 * `GET /api/game/{id}/notices`: admin (`Normal`) notices first, then the system notices, each
 * newest first. `count`/`skip` page the whole list.
 */
export async function gameNotices(
  em: EntityManager,
  gameId: number,
  count: number,
  skip: number,
): Promise<Pick<GameNotice, 'id' | 'type' | 'content' | 'publishTime'>[]> {
  await startedGame(em, gameId)
  const rows = await em.execute<{ id: number; type: GameNotice['type']; content: string; publish_time: Date }[]>(
    `select id, type, content, publish_time from notices where game_id = ?
      order by (type = 'Normal') desc, publish_time desc, id desc
      limit ? offset ?`,
    [gameId, Math.max(0, count), Math.max(0, skip)],
  )
  return rows.map((r) => ({ id: r.id, type: r.type, content: r.content, publishTime: new Date(r.publish_time) }))
}
