/**
 * `POST /api/edit/games/{id}/clone` (docs/archive.md#clone): a template for next year's event —
 * the game's settings, challenges, flags, hints and attachments, the stored files shared by hash
 * (one reference more each), a fresh key pair, and nothing of its run: no teams, participations,
 * submissions, instances or notices. Dynamic-attachment flags start unhanded again.
 */
import type { Game } from '../../entities/Game.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { findGame } from '../games/games.js'
import { createGameFromContent } from './createFromContent.js'
import { contentHashes, readGameContent } from './gameContent.js'

const COPY_SUFFIX = ' (copy)'
const TITLE_MAX = 128

export async function cloneGame(scope: Scope, actor: Actor, gameId: number): Promise<Game> {
  const source = await findGame(scope.em, gameId)
  const content = await readGameContent(scope.em, source)
  const title = `${content.game.title.slice(0, TITLE_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`
  const hashes = contentHashes(content)
  const game = await createGameFromContent(scope, { ...content, game: { ...content.game, title }, notices: [] }, async (files) => {
    await files.lock(hashes)
    return (hash) => files.reference(hash)
  })
  await scope.services.audit.success(actor, `复制了比赛 #${source.id} ${source.title} 为 #${game.id}`)
  return game
}
