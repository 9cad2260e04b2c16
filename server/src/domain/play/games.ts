/**
 * Reading games as a player or a visitor (docs/compatibility.md#group-game-reading-and-joining) and the shared game
 * lookups of the monitor endpoints (docs/compatibility.md#group-game-the-context-gate).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ParticipationStatus } from '@flagwave/shared/enums'
import { Game } from '../../entities/Game.js'
import { Participation } from '../../entities/Participation.js'
import type { Team } from '../../entities/Team.js'
import type { User } from '../../entities/User.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { isStarted, readGame, readRegistration } from './gate.js'
import { playerNotices, type NoticeRecord } from '../notices/notices.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import { wrap } from '@mikro-orm/core'

export const GAME_NOT_FOUND = '比赛未找到'
const GAME_NOT_STARTED = '比赛未开始'

/**
 * `GET /api/game`: the 10 most recent non-hidden games by start time, descending, from the read
 * cache: any change to a game drops it when it commits, so edits and posters show at once (the
 * reference's up-to-2-hour cache served older data).
 */
export async function recentGames(em: EntityManager): Promise<Game[]> {
  const list = await readCacheOf(em).read('games:recent', async () => {
    const games = await em.find(Game, { hidden: false }, { orderBy: { start: 'desc', id: 'desc' }, limit: 10 })
    return { value: games.map((g) => wrap(g).toPOJO()), tags: [tags.games] }
  })
  return list!.map((dto) => em.merge(Game, dto))
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
  const game = await readGame(em, gameId)
  if (!game) throw notFound(GAME_NOT_FOUND)
  const teamCount = (await readCacheOf(em).read(`games:${gameId}:teams`, async () => ({
    value: await em.count(Participation, { game: gameId }),
    tags: [tags.gameParticipations(gameId), tags.game(gameId)],
  })))!
  let caller: CallerRegistration | null = null
  if (user) {
    const registration = await readRegistration(em, gameId, user.id)
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
  const game = await readGame(em, gameId)
  if (!game) throw notFound(GAME_NOT_FOUND, notFoundBodyStatus)
  if (!isStarted(game)) throw badRequest(GAME_NOT_STARTED)
  return game
}

/**
 * `GET /api/game/{id}/notices`: admin (`Normal`) notices first, then the system notices, each
 * newest first. `count`/`skip` page the whole list.
 */
export async function gameNotices(em: EntityManager, gameId: number, count: number, skip: number): Promise<readonly NoticeRecord[]> {
  await startedGame(em, gameId)
  const from = Math.max(0, skip)
  return (await playerNotices(em, gameId)).slice(from, from + Math.max(0, count))
}
