/**
 * `ReceivedChallengeUpdate` pushes of committed edits: the current score, solve count and bloods
 * of challenges whose scoring changed, to the game room.
 */
import { rooms, type ChallengeUpdate } from '@flagwave/shared/events'
import type { Challenge } from '../../entities/Challenge.js'
import type { Game } from '../../entities/Game.js'
import { currentScore } from '../../presenters/challenges.js'
import { presentBlood } from '../../presenters/scoreboard.js'
import type { Scope } from '../scope.js'
import { challengeBloods } from './scores.js'
import { boardFreeze } from '../games/freeze.js'

async function challengeUpdateOf(em: Scope['em'], game: Pick<Game, 'id' | 'end'>, challenges: Challenge[]): Promise<ChallengeUpdate> {
  const items: ChallengeUpdate['challenges'] = []
  for (const c of challenges) {
    const bloods = (await challengeBloods(em, game, c.id)).map((b) => presentBlood({ teamId: b.id, name: b.name, avatarHash: b.avatarHash }, b.time))
    items.push({ id: c.id, score: currentScore(c), solved: c.acceptedCount, bloods })
  }
  return { gameId: game.id, challenges: items }
}

/**
 * Queue the push of the challenges' new scoring (a request's outbox sends it after the commit).
 * While the board is frozen these live values go to staff only (docs/scoring.md#freeze): the
 * public hears the frozen board the edit's rebuild pushes.
 */
export async function pushChallengeUpdate(
  scope: Pick<Scope, 'em' | 'events'>,
  game: Pick<Game, 'id' | 'end' | 'freezeTime' | 'unfrozenAt'>,
  challenges: Challenge[],
): Promise<void> {
  const update = await challengeUpdateOf(scope.em, game, challenges)
  if (boardFreeze(game)) scope.events.publish('monitor', rooms.game(game.id), 'ReceivedChallengeUpdate', update)
  else scope.events.publish('user', rooms.game(game.id), 'ReceivedChallengeUpdate', update)
}
