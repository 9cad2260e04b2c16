/**
 * The scoreboard rebuild an organiser's edit asks for once it committed. The edit has already
 * happened, so a request that cannot be sent is logged and never fails the command.
 */
import { requestScoreboardRebuild } from '../scoreboard/hooks.js'
import { forgetReplay } from '../scoreboard/replay/cache.js'
import type { Scope } from '../scope.js'

export async function rebuildScoreboardAfterEdit(scope: Pick<Scope, 'services' | 'log'>, gameId: number): Promise<void> {
  forgetReplay(scope.services, gameId)
  try {
    await requestScoreboardRebuild(scope.services, gameId)
  } catch (err) {
    scope.log.warn({ err, gameId }, 'scoreboard rebuild request failed')
  }
}

/**
 * The rebuild of an edit that opens a challenge: the new board is published before the
 * `NewChallenge` notice the caller pushes next, so a screen refetching its board on the notice
 * finds the challenge on it (docs/challenge-rules.md#timed-release). On the node owning the game's
 * engine, or able to take it, this resolves once the rebuilt board is published; elsewhere it is
 * the owner's request, as `rebuildScoreboardAfterEdit`.
 */
export async function rebuildScoreboardBeforeNotice(scope: Pick<Scope, 'services' | 'log'>, gameId: number): Promise<void> {
  try {
    await scope.services.scoreboard.rebuild(gameId)
  } catch (err) {
    scope.log.warn({ err, gameId }, 'scoreboard rebuild failed')
    await rebuildScoreboardAfterEdit(scope, gameId)
  }
}
