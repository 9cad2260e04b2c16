/**
 * Group `edit`, games part (CONTRACT §3.4.4–3.4.19, §3.4.22–3.4.25): games, posters, write-ups,
 * notices, challenges, flags and attachments. Admin only. Game lookup precedes challenge lookup.
 * The two test-container endpoints live in routes/editContainers.ts.
 */
import type { Context } from 'koa'
import { z } from 'zod'
import { rooms } from '@flagwave/shared/events'
import { GameInfoInput, GameInfoModel, GameNotice, GameNoticeModel } from '@flagwave/shared/schemas/games'
import {
  AttachmentCreateModel,
  ChallengeCreateModel,
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ChallengeUpdateModel,
  FlagCreateModelList,
} from '@flagwave/shared/schemas/challenges'
import { arrayResponseOf, pagingQuery, type ArrayResponse } from '@flagwave/shared/schemas/common'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { removeBlobs } from '../domain/files/files.js'
import { teamHashSalt } from '../domain/games/keys.js'
import { invalidateGameList } from '../domain/games/cache.js'
import {
  assertPosterFile,
  createGame,
  deleteGame,
  deleteWriteups,
  findGame,
  listGames,
  setPoster,
  updateGame,
} from '../domain/games/games.js'
import { editNotice, invalidateNotices, listNormalNotices, postNotice, pushNotices, removeNotice } from '../domain/notices/notices.js'
import {
  createChallenge,
  deleteChallenge,
  findChallenge,
  listChallenges,
  loadChallengeDetail,
  updateChallenge,
} from '../domain/challenges/challenges.js'
import { addFlags, removeFlag, setChallengeAttachment } from '../domain/challenges/attachments.js'
import { challengeUpdateOf } from '../domain/challenges/scores.js'
import { requestScoreboardRebuild } from '../domain/scoreboard/hooks.js'
import { presentGameInfo } from '../presenters/games.js'
import { presentNotice } from '../presenters/notices.js'
import { presentChallengeEditDetail, presentChallengeInfo } from '../presenters/challenges.js'

const gameParams = z.object({ id: intParam })
const challengeParams = z.object({ id: intParam, cId: intParam })
const noticeParams = z.object({ id: intParam, noticeId: intParam })
const flagParams = z.object({ id: intParam, cId: intParam, fId: intParam })

/** An audit entry for the signed-in admin (written after the change committed). */
function audit(ctx: Context, message: string): Promise<void> {
  return ctx.services.audit.write({ message, userName: ctx.state.user?.userName, ip: ctx.clientIp, status: 'Success' })
}

/** Ask the scoreboard engine to rebuild a game after a committed edit; never fails the request. */
async function rebuildScoreboard(ctx: Context, gameId: number): Promise<void> {
  try {
    await requestScoreboardRebuild(ctx.services, gameId)
  } catch (err) {
    ctx.state.log.warn({ err, gameId }, 'scoreboard rebuild request failed')
  }
}

async function challengeDetail(ctx: Context, challenge: Awaited<ReturnType<typeof findChallenge>>) {
  return presentChallengeEditDetail(await loadChallengeDetail(ctx.em, challenge))
}

export const editGameRoutes = [
  /* ------------------------------------------------------------------ games */
  route({
    method: 'POST',
    path: '/api/edit/games',
    role: 'Admin',
    response: GameInfoModel,
    body: GameInfoInput,
    summary: 'Create a game (GameInfoModel) with a new Ed25519 key pair',
    handler: async (ctx, { body }) => {
      const game = await createGame(ctx.em, ctx.services.config.XOR_KEY, body)
      await invalidateGameList(ctx.services)
      await audit(ctx, `创建了比赛 #${game.id} ${game.title}`)
      return presentGameInfo(game)
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games',
    role: 'Admin',
    response: arrayResponseOf(GameInfoModel),
    query: pagingQuery(0),
    summary: 'Games, newest first (count defaults to 0)',
    handler: async (ctx, { query }): Promise<ArrayResponse<GameInfoModel>> => {
      const { games, total } = await listGames(ctx.em, query.count, query.skip)
      const data = games.map(presentGameInfo)
      return { data, length: data.length, total }
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    handler: async (ctx, { params }) => presentGameInfo(await findGame(ctx.em, params.id)),
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/teamhashsalt',
    role: 'Admin',
    response: z.string(),
    params: gameParams,
    summary: 'Salt of the [TEAM_HASH] flag placeholder',
    handler: async (ctx, { params }) => teamHashSalt(await findGame(ctx.em, params.id)),
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    body: GameInfoInput,
    summary: 'Replace a game (organizations null = keep)',
    handler: async (ctx, { params, body }) => {
      const game = await updateGame(ctx.em, await findGame(ctx.em, params.id), body)
      await invalidateGameList(ctx.services)
      await rebuildScoreboard(ctx, game.id)
      await audit(ctx, `更新了比赛 #${game.id} ${game.title}`)
      return presentGameInfo(game)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: 'empty',
    params: gameParams,
    summary: 'Delete a game and everything of it',
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      const title = game.title
      await deleteGame(ctx.em, ctx.services, game.id)
      await invalidateGameList(ctx.services)
      await invalidateNotices(ctx.services, params.id)
      await rebuildScoreboard(ctx, params.id)
      await audit(ctx, `删除了比赛 #${params.id} ${title}`)
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/writeups',
    role: 'Admin',
    response: 'empty',
    params: gameParams,
    summary: "Release every write-up of the game's participations",
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      const count = await deleteWriteups(ctx.em, ctx.services.storage, game)
      await audit(ctx, `删除了比赛 #${game.id} ${game.title} 的 ${count} 份题解`)
      return undefined
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/poster',
    role: 'Admin',
    response: z.string(),
    params: gameParams,
    body: 'multipart',
    summary: 'Upload the poster (GIF kept, else WebP at full size)',
    handler: async (ctx, { params, files }) => {
      const file = requireFile(files)
      assertPosterFile(file)
      const game = await findGame(ctx.em, params.id)
      const url = await setPoster(ctx.em, ctx.services.storage, game, file)
      await invalidateGameList(ctx.services)
      await audit(ctx, `更新了比赛 #${game.id} ${game.title} 的海报`)
      return url
    },
  }),

  /* ---------------------------------------------------------------- notices */
  route({
    method: 'POST',
    path: '/api/edit/games/:id/notices',
    role: 'Admin',
    response: GameNotice,
    params: gameParams,
    body: GameNoticeModel,
    summary: 'Post a notice (pushed to the game room)',
    handler: async (ctx, { params, body }) => {
      const game = await findGame(ctx.em, params.id)
      const notice = await postNotice(ctx.em, game, body.content)
      pushNotices(ctx.outbox, game.id, [notice])
      await invalidateNotices(ctx.services, game.id)
      await audit(ctx, `发布了比赛 #${game.id} 的通知 #${notice.id}`)
      return presentNotice(notice)
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/notices',
    role: 'Admin',
    response: z.array(GameNotice),
    params: gameParams,
    summary: 'The Normal notices of a game',
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      return (await listNormalNotices(ctx.em, game.id)).map(presentNotice)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/notices/:noticeId',
    role: 'Admin',
    response: GameNotice,
    params: noticeParams,
    body: GameNoticeModel,
    summary: 'Edit a Normal notice (not pushed)',
    handler: async (ctx, { params, body }) => {
      const notice = await editNotice(ctx.em, params.id, params.noticeId, body.content)
      await invalidateNotices(ctx.services, params.id)
      await audit(ctx, `更新了比赛 #${params.id} 的通知 #${notice.id}`)
      return presentNotice(notice)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/notices/:noticeId',
    role: 'Admin',
    response: 'empty',
    params: noticeParams,
    summary: 'Delete a Normal notice (not pushed)',
    handler: async (ctx, { params }) => {
      await removeNotice(ctx.em, params.id, params.noticeId)
      await invalidateNotices(ctx.services, params.id)
      await audit(ctx, `删除了比赛 #${params.id} 的通知 #${params.noticeId}`)
      return undefined
    },
  }),

  /* ------------------------------------------------------------- challenges */
  route({
    method: 'POST',
    path: '/api/edit/games/:id/challenges',
    role: 'Admin',
    response: ChallengeEditDetailModel,
    params: gameParams,
    body: ChallengeCreateModel,
    summary: 'Create a (disabled) challenge',
    handler: async (ctx, { params, body }) => {
      const game = await findGame(ctx.em, params.id)
      const challenge = await createChallenge(ctx.em, game, body)
      await audit(ctx, `添加了比赛 #${game.id} 的题目 #${challenge.id} ${challenge.title}`)
      return challengeDetail(ctx, challenge)
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges',
    role: 'Admin',
    response: z.array(ChallengeInfoModel),
    params: gameParams,
    summary: 'Challenges of a game by id (no game lookup)',
    handler: async (ctx, { params }) => (await listChallenges(ctx.em, params.id)).map(presentChallengeInfo),
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: ChallengeEditDetailModel,
    params: challengeParams,
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      return challengeDetail(ctx, await findChallenge(ctx.em, game.id, params.cId))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: ChallengeEditDetailModel,
    params: challengeParams,
    body: ChallengeUpdateModel,
    summary: 'Partial update of a challenge (flags untouched)',
    handler: async (ctx, { params, body }) => {
      const game = await findGame(ctx.em, params.id)
      const found = await findChallenge(ctx.em, game.id, params.cId)
      const { challenge, notices } = await updateChallenge(ctx.em, game, found, body, ctx.outbox)
      if (notices.length) await invalidateNotices(ctx.services, game.id)
      await rebuildScoreboard(ctx, game.id)
      await audit(ctx, `更新了比赛 #${game.id} 的题目 #${challenge.id} ${challenge.title}`)
      return challengeDetail(ctx, challenge)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: 'empty',
    params: challengeParams,
    summary: 'Delete a challenge with its attachments',
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      const challenge = await findChallenge(ctx.em, game.id, params.cId)
      const title = challenge.title
      const freed = await deleteChallenge(ctx.em, challenge)
      await removeBlobs(ctx.em, ctx.services.storage, freed)
      await rebuildScoreboard(ctx, game.id)
      await audit(ctx, `删除了比赛 #${game.id} 的题目 #${params.cId} ${title}`)
      return undefined
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/challenges/:cId/attachment',
    role: 'Admin',
    response: 'empty',
    params: challengeParams,
    body: AttachmentCreateModel,
    summary: 'Replace the challenge-wide attachment',
    handler: async (ctx, { params, body }) => {
      const game = await findGame(ctx.em, params.id)
      const challenge = await findChallenge(ctx.em, game.id, params.cId)
      const freed = await setChallengeAttachment(ctx.em, challenge, body)
      await removeBlobs(ctx.em, ctx.services.storage, freed)
      await audit(ctx, `更新了比赛 #${game.id} 的题目 #${challenge.id} 的附件`)
      return undefined
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/challenges/:cId/flags',
    role: 'Admin',
    response: 'empty',
    params: challengeParams,
    body: FlagCreateModelList,
    summary: 'Append flags (each with an optional attachment)',
    handler: async (ctx, { params, body }) => {
      const game = await findGame(ctx.em, params.id)
      const challenge = await findChallenge(ctx.em, game.id, params.cId)
      const added = await addFlags(ctx.em, challenge, body)
      if (added) await audit(ctx, `为比赛 #${game.id} 的题目 #${challenge.id} 添加了 ${added} 个 flag`)
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/challenges/:cId/flags/:fId',
    role: 'Admin',
    response: z.enum(['Success', 'NotFound']),
    params: flagParams,
    summary: 'Remove a flag ("Success" / "NotFound"); the last one disables the challenge',
    handler: async (ctx, { params }) => {
      const game = await findGame(ctx.em, params.id)
      const challenge = await findChallenge(ctx.em, game.id, params.cId)
      const result = await removeFlag(ctx.em, challenge, params.fId)
      if (result.status === 'Success') {
        await removeBlobs(ctx.em, ctx.services.storage, result.freed)
        if (result.disabled) {
          ctx.outbox.publish('user', rooms.game(game.id), 'ReceivedChallengeUpdate', await challengeUpdateOf(ctx.em, game, [result.challenge]))
          await rebuildScoreboard(ctx, game.id)
        }
        await audit(ctx, `删除了比赛 #${game.id} 的题目 #${challenge.id} 的 flag #${params.fId}`)
      }
      return result.status
    },
  }),
]
