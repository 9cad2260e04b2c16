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
