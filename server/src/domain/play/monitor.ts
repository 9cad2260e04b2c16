/**
 * What monitors read about a running game (docs/compatibility.md#group-game-monitors): events, submissions and
 * cheat reports, each after the shared "game exists and has started" checks.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AnswerResult } from '@flagwave/shared/enums'
import { GameEvent } from '../../entities/GameEvent.js'
import { CheatInfo } from '../../entities/CheatInfo.js'
import { Submission } from '../../entities/Submission.js'
import { startedGame } from './games.js'

export interface Page {
  count: number
  skip: number
}

/** `GET /api/game/{id}/events`: newest first, user and team loaded; `hideContainer` drops container start/destroy events. */
export async function gameEvents(em: EntityManager, gameId: number, hideContainer: boolean, page: Page): Promise<GameEvent[]> {
  await startedGame(em, gameId)
  const where = hideContainer ? { game: gameId, type: { $nin: ['ContainerStart', 'ContainerDestroy'] as GameEvent['type'][] } } : { game: gameId }
  return em.find(GameEvent, where, {
    populate: ['user', 'team'],
    orderBy: { publishTime: 'desc', id: 'desc' },
    limit: Math.max(0, page.count),
    offset: Math.max(0, page.skip),
  })
}

/**
 * `GET /api/game/{id}/submissions`: newest first, optionally of one status. `count` ≤ 0 returns
 * every row and ignores `skip`, as in the reference. User, challenge and team loaded.
 */
export async function gameSubmissions(em: EntityManager, gameId: number, type: AnswerResult | null, page: Page): Promise<Submission[]> {
  await startedGame(em, gameId)
  return em.find(Submission, type ? { game: gameId, status: type } : { game: gameId }, {
    populate: ['user', 'challenge', 'participation', 'participation.team'],
    orderBy: { submitTime: 'desc', id: 'desc' },
    ...(page.count > 0 ? { limit: page.count, offset: Math.max(0, page.skip) } : {}),
  })
}

/** `GET /api/game/{id}/cheatinfo` (no particular order in the contract; oldest first here), everything presented loaded. */
export async function gameCheatInfo(em: EntityManager, gameId: number): Promise<CheatInfo[]> {
  await startedGame(em, gameId)
  return em.find(
    CheatInfo,
    { game: gameId },
    {
      populate: ['submission', 'submission.user', 'submission.challenge', 'submission.participation', 'submission.participation.team', 'submitTeam', 'submitTeam.team', 'submitTeam.division', 'sourceTeam', 'sourceTeam.team', 'sourceTeam.division'],
      orderBy: { id: 'asc' },
    },
  )
}
