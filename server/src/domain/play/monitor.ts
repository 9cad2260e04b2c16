/**
 * What monitors read about a running game (CONTRACT §3.5.7–3.5.9): events, submissions and
 * cheat reports, each after the shared "game exists and has started" checks.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AnswerResult } from '@flagwave/shared/enums'
import type { GameEvent as GameEventModel } from '@flagwave/shared/schemas/games'
import type { CheatInfoModel, Submission as SubmissionModel } from '@flagwave/shared/schemas/play'
import { GameEvent } from '../../entities/GameEvent.js'
import { CheatInfo } from '../../entities/CheatInfo.js'
import { Submission } from '../../entities/Submission.js'
import { presentGameEvent } from '../../presenters/events.js'
import { presentCheatInfoModel, presentSubmission } from '../../presenters/submissions.js'
import { startedGame } from './games.js'

export interface Page {
  count: number
  skip: number
}

/** `GET /api/game/{id}/events`: newest first; `hideContainer` drops container start/destroy events. */
export async function gameEvents(em: EntityManager, gameId: number, hideContainer: boolean, page: Page): Promise<GameEventModel[]> {
  await startedGame(em, gameId)
  const where = hideContainer ? { game: gameId, type: { $nin: ['ContainerStart', 'ContainerDestroy'] as GameEvent['type'][] } } : { game: gameId }
  const events = await em.find(GameEvent, where, {
    populate: ['user', 'team'],
    orderBy: { publishTime: 'desc', id: 'desc' },
    limit: Math.max(0, page.count),
    offset: Math.max(0, page.skip),
  })
  return events.map(presentGameEvent)
}

/**
 * `GET /api/game/{id}/submissions`: newest first, optionally of one status. `count` ≤ 0 returns
 * every row and ignores `skip`, as in the reference.
 */
export async function gameSubmissions(em: EntityManager, gameId: number, type: AnswerResult | null, page: Page): Promise<SubmissionModel[]> {
  await startedGame(em, gameId)
  const submissions = await em.find(Submission, type ? { game: gameId, status: type } : { game: gameId }, {
    populate: ['user', 'challenge', 'participation', 'participation.team'],
    orderBy: { submitTime: 'desc', id: 'desc' },
    ...(page.count > 0 ? { limit: page.count, offset: Math.max(0, page.skip) } : {}),
  })
  return submissions.map(presentSubmission)
}

/** `GET /api/game/{id}/cheatinfo` (no particular order in the contract; oldest first here). */
export async function gameCheatInfo(em: EntityManager, gameId: number): Promise<CheatInfoModel[]> {
  await startedGame(em, gameId)
  const cheats = await em.find(
    CheatInfo,
    { game: gameId },
    {
      populate: ['submission', 'submission.user', 'submission.challenge', 'submission.participation', 'submission.participation.team', 'submitTeam', 'submitTeam.team', 'sourceTeam', 'sourceTeam.team'],
      orderBy: { id: 'asc' },
    },
  )
  return cheats.map(presentCheatInfoModel)
}
