/**
 * Flagwave additions to group `edit` (docs/archive.md): a game's content as data — export, import,
 * clone — and the static archive of a finished game. Admin only, like the rest of the group.
 */
import { z } from 'zod'
import { GameInfoModel } from '@flagwave/shared/schemas/games'
import { GameImportResult, StaticArchiveOptions } from '@flagwave/shared/schemas/gameArchive'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { exportGame } from '../domain/archive/exportGame.js'
import { importGame } from '../domain/archive/importGame.js'
import { cloneGame } from '../domain/archive/cloneGame.js'
import { staticArchive } from '../domain/archive/staticSite.js'
import { presentGameInfo } from '../presenters/games.js'
import { gameDivisions } from '../domain/divisions/divisions.js'
import { sendDownload } from './gameMonitor.js'

const gameParams = z.object({ id: intParam })

export const gameArchiveRoutes = [
  route({
    method: 'POST',
    path: '/api/edit/games/import',
    role: 'Admin',
    response: GameImportResult,
    body: 'multipart',
    bodyLimit: BODY_LIMITS.gameArchive,
    summary: 'Create a game from a Flagwave archive, a CTFd 3.x export, a ctfcli archive or a challenge.yml (field `file`)',
    handler: async (_ctx, { files, scope, actor }): Promise<GameImportResult> => {
      const { game, ...report } = await importGame(scope, actor, requireFile(files))
      return { game: presentGameInfo(game, await gameDivisions(scope.em, game.id)), ...report }
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/export',
    role: 'Admin',
    response: 'file:application/zip',
    params: gameParams,
    summary: "The game's settings, challenges, flags, hints, attachments and notices as one zip",
    handler: async (ctx, { params, scope, actor }) => sendDownload(ctx, await exportGame(scope, actor, params.id), 'application/zip'),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/clone',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    summary: 'A new game "… (copy)" with the settings and challenges, without teams, submissions or notices',
    handler: async (_ctx, { params, scope, actor }) => {
      const game = await cloneGame(scope, actor, params.id)
      return presentGameInfo(game, await gameDivisions(scope.em, game.id))
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/archive',
    role: 'Admin',
    response: 'file:application/zip',
    params: gameParams,
    body: StaticArchiveOptions,
    summary: 'The static site of a finished game (board, chart, notices, chosen challenges and attachments) as one zip',
    handler: async (ctx, { params, body, scope, actor }) => sendDownload(ctx, await staticArchive(scope, actor, params.id, body), 'application/zip'),
  }),
]
