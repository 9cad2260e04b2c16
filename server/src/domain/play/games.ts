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
import { isStarted, readGame, readRegistration, referenceId } from './gate.js'
import { playerNotices, type NoticeRecord } from '../notices/notices.js'
import { noticeViewOf, visibleNotices } from '../notices/visibility.js'
import { readCacheOf, tags } from '../../cache/invalidation.js'
import { divisionOf, gameDivisions, type DivisionRecord } from '../divisions/divisions.js'

import { unheldNotices } from '../games/freezeHold.js'

export const GAME_NOT_FOUND = '比赛未找到'
const GAME_NOT_STARTED = '比赛未开始'

/** A game as the game lists show it (BasicGameInfoModel), a plain copy kept by the read cache. */
type ListedGame = Pick<Game, 'id' | 'title' | 'summary' | 'posterHash' | 'teamMemberCountLimit' | 'start' | 'end'>

/** One page of the non-hidden games, newest start first, and how many there are in all. */
export interface GamePage {
  games: readonly ListedGame[]
  total: number
}

/** Pages further in than this are read from the database each time, so that no query can fill the cache. */
const CACHED_PAGE_END = 500

/**
 * The non-hidden games by start time, descending, `count` of them from `skip`: `GET /api/game`
 * (the 10 most recent without paging, the `{data, length, total}` page of GZ::CTF 1.2 with it)
 * and `GET /api/game/recent`. From the read cache: any change to a game drops every page when it
 * commits, so edits and posters show at once (the reference's up-to-2-hour cache served older
 * data). The page is shared between requests (do not change it); the presenter keeps its JSON.
 */
export async function listGames(em: EntityManager, skip: number, count: number): Promise<GamePage> {
  const load = async (): Promise<GamePage> => {
    const [games, total] = await em.findAndCount(Game, { hidden: false }, { orderBy: { start: 'desc', id: 'desc' }, limit: count, offset: skip })
    return {
      games: games.map(({ id, title, summary, posterHash, teamMemberCountLimit, start, end }) => ({ id, title, summary, posterHash, teamMemberCountLimit, start, end })),
      total,
    }
  }
  if (skip + count > CACHED_PAGE_END) return load()
  return (await readCacheOf(em).read(`games:list:${skip}:${count}`, async () => ({ value: await load(), tags: [tags.games] })))!
}

/** The caller's own registration in a game, as the game detail shows it. */
interface CallerRegistration {
  status: ParticipationStatus
  teamName: string
  division: DivisionRecord | null
}

/** A game with its team count and the caller's registration (null when anonymous or not registered). */
interface GameInfo {
  game: Game
  divisions: readonly DivisionRecord[]
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
  const divisions = await gameDivisions(em, gameId)
  let caller: CallerRegistration | null = null
  if (user) {
    const registration = await readRegistration(em, gameId, user.id)
    if (registration) {
      const participation = registration.participation as Participation
      caller = { status: participation.status, teamName: (participation.team as Team).name, division: divisionOf(divisions, participation) }
    }
  }
  return { game, divisions, teamCount, caller }
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
 * newest first, without those about challenges the reader's division may not view
 * (notices/visibility.ts); a cached list, shared between requests (the presenter pages it).
 */
export async function gameNotices(em: EntityManager, gameId: number, user: User | null): Promise<readonly NoticeRecord[]> {
  const game = await startedGame(em, gameId)
  const registration = user ? await readRegistration(em, gameId, user.id) : null
  const division = registration ? referenceId((registration.participation as Participation).division) ?? null : undefined
  const list = await visibleNotices(em, gameId, noticeViewOf(user?.role ?? null, division), await playerNotices(em, gameId))
  // Bloods from the freeze on wait for the unfreeze (docs/scoring.md#freeze).
  return unheldNotices(game, list)
}
