/**
 * Group `edit`, games part (docs/compatibility.md#group-edit): games, posters, write-ups,
 * notices, challenges, flags and attachments. Admin only. Game lookup precedes challenge lookup.
 * The two test-container endpoints live in routes/editContainers.ts.
 */
import { freezeGame, unfreezeGame } from '../domain/games/freezeCommands.js'
import type { EntityManager } from '@mikro-orm/postgresql'
import { z } from 'zod'
import { Division, DivisionInput, GameInfoInput, GameInfoModel, GameNotice, GameNoticeModel } from '@flagwave/shared/schemas/games'
import {
  AttachmentCreateModel,
  ChallengeCreateModel,
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ChallengeUpdateModel,
  FlagCreateModelList,
} from '@flagwave/shared/schemas/challenges'
import { CostedHint, CostedHintsInput, PrerequisitesInput, PrerequisitesModel } from '@flagwave/shared/schemas/challengeRules'
import { costedHintsOf, setCostedHints } from '../domain/challenges/costedHints.js'
import { presentPrerequisites, setPrerequisites } from '../domain/challenges/prerequisites.js'
import { arrayResponseOf, pagingQuery, type ArrayResponse } from '@flagwave/shared/schemas/common'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { intParam, route, servedAlsoAt } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import type { Challenge } from '../entities/Challenge.js'
import { teamHashSalt } from '../domain/games/keys.js'
import { createGame, deleteGame, deleteWriteups, findGame, flushScoreboard, listGames, setPoster, updateGame } from '../domain/games/games.js'
import { editNotice, listNormalNotices, postNotice, removeNotice } from '../domain/notices/notices.js'
import {
  createChallenge,
  deleteChallenge,
  findChallenge,
  listChallenges,
  loadChallengeDetail,
  updateChallenge,
} from '../domain/challenges/challenges.js'
import { addFlags, removeFlag, setChallengeAttachment } from '../domain/challenges/attachments.js'
import { presentDivision, presentGameInfo } from '../presenters/games.js'
import { createDivision, deleteDivision, gameDivisions, updateDivision } from '../domain/divisions/divisions.js'
import { presentNotice } from '../presenters/notices.js'
import { presentChallengeEditDetail, presentChallengeInfo } from '../presenters/challenges.js'

const gameParams = z.object({ id: intParam })
const divisionParams = z.object({ id: intParam, divisionId: intParam })
const challengeParams = z.object({ id: intParam, cId: intParam })
const noticeParams = z.object({ id: intParam, noticeId: intParam })
const flagParams = z.object({ id: intParam, cId: intParam, fId: intParam })

/** ChallengeEditDetailModel of a challenge: its flags, files and test container loaded. */
async function presentChallengeDetail(em: EntityManager, challenge: Challenge): Promise<ChallengeEditDetailModel> {
  return presentChallengeEditDetail(await loadChallengeDetail(em, challenge))
}

const teamHashSaltRoute = route({
    method: 'GET',
    path: '/api/edit/games/:id/teamhashsalt',
    role: 'Admin',
    response: z.string(),
    params: gameParams,
    summary: 'Salt of the [TEAM_HASH] flag placeholder',
    handler: async (_ctx, { params, scope }) => teamHashSalt(await findGame(scope.em, params.id)),
  })

export const editGameRoutes = [
  /* ------------------------------------------------------------------ games */
  route({
    method: 'POST',
    path: '/api/edit/games',
    role: 'Admin',
    response: GameInfoModel,
    body: GameInfoInput,
    bodyLimit: BODY_LIMITS.content,
    summary: 'Create a game (GameInfoModel) with a new Ed25519 key pair',
    handler: async (_ctx, { body, scope, actor }) => {
      const game = await createGame(scope, actor, body)
      return presentGameInfo(game, await gameDivisions(scope.em, game.id))
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games',
    role: 'Admin',
    response: arrayResponseOf(GameInfoModel),
    query: pagingQuery(0),
    summary: 'Games, newest first (count defaults to 0)',
    handler: async (_ctx, { query, scope }): Promise<ArrayResponse<GameInfoModel>> => {
      const { games, total } = await listGames(scope.em, query.count, query.skip)
      const data = await Promise.all(games.map(async (game) => presentGameInfo(game, await gameDivisions(scope.em, game.id))))
      return { data, length: data.length, total }
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    handler: async (_ctx, { params, scope }) => presentGameInfo(await findGame(scope.em, params.id), await gameDivisions(scope.em, params.id)),
  }),
  teamHashSaltRoute,
  route({
    method: 'POST',
    path: '/api/edit/games/:id/scoreboard/flush',
    role: 'Admin',
    response: 'empty',
    params: gameParams,
    summary: "GZ::CTF 1.x: rebuild the game's scoreboard from the database",
    handler: async (_ctx, { params, actor, scope }) => {
      await flushScoreboard(scope, actor, params.id)
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/freeze',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    summary: "Flagwave: freeze the game's public scoreboard now (docs/scoring.md#freeze); a frozen board stays as it is",
    handler: async (_ctx, { params, actor, scope }) =>
      presentGameInfo(await freezeGame(scope, actor, params.id), await gameDivisions(scope.em, params.id)),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/unfreeze',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    summary: 'Flagwave: lift the scoreboard freeze now: the live board, held blood notices and webhooks go out (docs/scoring.md#freeze)',
    handler: async (_ctx, { params, actor, scope }) =>
      presentGameInfo(await unfreezeGame(scope, actor, params.id), await gameDivisions(scope.em, params.id)),
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/divisions',
    role: 'Admin',
    response: z.array(Division),
    params: gameParams,
    summary: "GZ::CTF 1.7: the game's divisions with their invite codes (Division[])",
    handler: async (_ctx, { params, scope }) => {
      await findGame(scope.em, params.id)
      return (await gameDivisions(scope.em, params.id)).map(presentDivision)
    },
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/divisions',
    role: 'Admin',
    response: Division,
    params: gameParams,
    body: DivisionInput,
    summary: 'GZ::CTF 1.7: create a division ({name, inviteCode?, defaultPermissions?, challengeConfigs?})',
    handler: async (_ctx, { params, body, scope, actor }) => presentDivision(await createDivision(scope, actor, await findGame(scope.em, params.id), body)),
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/divisions/:divisionId',
    role: 'Admin',
    response: Division,
    params: divisionParams,
    body: DivisionInput,
    summary: 'GZ::CTF 1.7: change a division (null permissions or overrides keep them)',
    handler: async (_ctx, { params, body, scope, actor }) =>
      presentDivision(await updateDivision(scope, actor, await findGame(scope.em, params.id), params.divisionId, body)),
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/divisions/:divisionId',
    role: 'Admin',
    response: 'empty',
    params: divisionParams,
    summary: 'GZ::CTF 1.7: delete a division without participations',
    handler: async (_ctx, { params, scope, actor }) => {
      await deleteDivision(scope, actor, await findGame(scope.em, params.id), params.divisionId)
      return undefined
    },
  }),
  servedAlsoAt(teamHashSaltRoute, '/api/edit/games/:id/hashsalt', 'GZ::CTF 0.22 name of …/teamhashsalt'),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: GameInfoModel,
    params: gameParams,
    body: GameInfoInput,
    bodyLimit: BODY_LIMITS.content,
    summary: 'Replace a game (organizations null = keep)',
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await updateGame(scope, actor, params.id, body)
      return presentGameInfo(game, await gameDivisions(scope.em, game.id))
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id',
    role: 'Admin',
    response: 'empty',
    params: gameParams,
    summary: 'Delete a game and everything of it',
    handler: async (_ctx, { params, scope, actor }) => {
      await deleteGame(scope, actor, await findGame(scope.em, params.id))
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
    handler: async (_ctx, { params, scope, actor }) => {
      await deleteWriteups(scope, actor, await findGame(scope.em, params.id))
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
    bodyLimit: BODY_LIMITS.image,
    summary: 'Upload the poster (GIF kept, else WebP at full size)',
    handler: async (_ctx, { params, files, scope, actor }) => setPoster(scope, actor, params.id, requireFile(files)),
  }),

  /* ---------------------------------------------------------------- notices */
  route({
    method: 'POST',
    path: '/api/edit/games/:id/notices',
    role: 'Admin',
    response: GameNotice,
    params: gameParams,
    body: GameNoticeModel,
    bodyLimit: BODY_LIMITS.content,
    summary: 'Post a notice (pushed to the game room)',
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      return presentNotice(await postNotice(scope, actor, game, body.content))
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/notices',
    role: 'Admin',
    response: z.array(GameNotice),
    params: gameParams,
    summary: 'The Normal notices of a game',
    handler: async (_ctx, { params, scope }) => {
      const game = await findGame(scope.em, params.id)
      return (await listNormalNotices(scope.em, game.id)).map(presentNotice)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/notices/:noticeId',
    role: 'Admin',
    response: GameNotice,
    params: noticeParams,
    body: GameNoticeModel,
    bodyLimit: BODY_LIMITS.content,
    summary: 'Edit a Normal notice (not pushed)',
    handler: async (_ctx, { params, body, scope, actor }) => presentNotice(await editNotice(scope, actor, params.id, params.noticeId, body.content)),
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/notices/:noticeId',
    role: 'Admin',
    response: 'empty',
    params: noticeParams,
    summary: 'Delete a Normal notice (not pushed)',
    handler: async (_ctx, { params, scope, actor }) => {
      await removeNotice(scope, actor, params.id, params.noticeId)
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
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      return presentChallengeDetail(scope.em, await createChallenge(scope, actor, game, body))
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges',
    role: 'Admin',
    response: z.array(ChallengeInfoModel),
    params: gameParams,
    summary: 'Challenges of a game by id (no game lookup)',
    handler: async (_ctx, { params, scope }) => (await listChallenges(scope.em, params.id)).map(presentChallengeInfo),
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: ChallengeEditDetailModel,
    params: challengeParams,
    handler: async (_ctx, { params, scope }) => {
      const game = await findGame(scope.em, params.id)
      return presentChallengeDetail(scope.em, await findChallenge(scope.em, game.id, params.cId))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: ChallengeEditDetailModel,
    params: challengeParams,
    body: ChallengeUpdateModel,
    bodyLimit: BODY_LIMITS.content,
    summary: 'Partial update of a challenge (flags untouched)',
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      const challenge = await findChallenge(scope.em, game.id, params.cId)
      return presentChallengeDetail(scope.em, await updateChallenge(scope, actor, game, challenge, body))
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/challenges/:cId',
    role: 'Admin',
    response: 'empty',
    params: challengeParams,
    summary: 'Delete a challenge with its attachments',
    handler: async (_ctx, { params, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      await deleteChallenge(scope, actor, game, await findChallenge(scope.em, game.id, params.cId))
      return undefined
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges/:cId/hints',
    role: 'Admin',
    response: z.array(CostedHint),
    params: challengeParams,
    summary: "Flagwave: a challenge's costed hints (docs/challenge-rules.md#costed-hints)",
    handler: async (_ctx, { params, scope }) => {
      const game = await findGame(scope.em, params.id)
      return costedHintsOf(await findChallenge(scope.em, game.id, params.cId))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/challenges/:cId/hints',
    role: 'Admin',
    response: z.array(CostedHint),
    params: challengeParams,
    body: CostedHintsInput,
    bodyLimit: BODY_LIMITS.content,
    summary: "Flagwave: replace a challenge's costed hints ({hints: [{id?, content, kind: Fixed|Percent, amount}]}; an id keeps that hint and its unlocks)",
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      return costedHintsOf(await setCostedHints(scope, actor, game, await findChallenge(scope.em, game.id, params.cId), body))
    },
  }),
  route({
    method: 'GET',
    path: '/api/edit/games/:id/challenges/:cId/prerequisites',
    role: 'Admin',
    response: PrerequisitesModel,
    params: challengeParams,
    summary: "Flagwave: the challenges a team must solve first, and whether a locked challenge shows its title (docs/challenge-rules.md#prerequisites)",
    handler: async (_ctx, { params, scope }) => {
      const game = await findGame(scope.em, params.id)
      return presentPrerequisites(await findChallenge(scope.em, game.id, params.cId))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/challenges/:cId/prerequisites',
    role: 'Admin',
    response: PrerequisitesModel,
    params: challengeParams,
    body: PrerequisitesInput,
    summary: 'Flagwave: set the prerequisites ({prerequisites: challenge ids of the game, lockedTitleVisible?}); a cycle or another game\'s challenge is refused (400)',
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      return presentPrerequisites(await setPrerequisites(scope, actor, game, await findChallenge(scope.em, game.id, params.cId), body))
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
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      await setChallengeAttachment(scope, actor, game, await findChallenge(scope.em, game.id, params.cId), body)
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
    bodyLimit: BODY_LIMITS.content,
    summary: 'Append flags (each with an optional attachment)',
    handler: async (_ctx, { params, body, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      await addFlags(scope, actor, game, await findChallenge(scope.em, game.id, params.cId), body)
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
    handler: async (_ctx, { params, scope, actor }) => {
      const game = await findGame(scope.em, params.id)
      return removeFlag(scope, actor, game, await findChallenge(scope.em, game.id, params.cId), params.fId)
    },
  }),
]
