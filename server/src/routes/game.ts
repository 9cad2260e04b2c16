/**
 * Group `game`, player side (docs/compatibility.md#group-game-reading-and-joining, #group-game-challenges-and-flags, #group-game-write-ups):
 * the game list and detail, joining and leaving, the team's view of a running game, notices,
 * the participations list for reviewers, challenge details and write-ups.
 * Monitor reads live in routes/gameMonitor.ts; flag submission in routes/submissions.ts.
 */
import { z } from 'zod'
import { BasicGameInfoModel, DetailedGameInfoModel, GameDetailModel, GameJoinModel, GameNotice } from '@flagwave/shared/schemas/games'
import { BasicWriteupInfoModel, ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { ParticipationInfoModel } from '@flagwave/shared/schemas/teams'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { notFound } from '../lib/errors.js'
import { gameContext } from '../domain/play/gate.js'
import { gameInfoFor, gameNotices, recentGames } from '../domain/play/games.js'
import { loadInstance } from '../domain/play/instances.js'
import { PageQuery } from '@flagwave/shared/schemas/gameQueries'
import { joinGame, leaveGame } from '../domain/participations/join.js'
import { gameParticipations } from '../domain/participations/queries.js'
import { teamWriteup, uploadWriteup } from '../domain/writeups/writeups.js'
import { presentChallengeDetail, presentGameDetail } from '../presenters/play.js'
import { presentBasicGame, presentDetailedGame } from '../presenters/games.js'
import { presentNotice } from '../presenters/notices.js'
import { presentParticipationInfo } from '../presenters/participations.js'
import { presentBasicWriteup } from '../presenters/writeups.js'
import type { Team } from '../entities/Team.js'

const GameParams = z.object({ id: intParam })
const ChallengeParams = z.object({ id: intParam, challengeId: intParam })

export const gameRoutes = [
  route({
    method: 'GET',
    path: '/api/game',
    response: z.array(BasicGameInfoModel),
    summary: 'The 10 most recent non-hidden games (BasicGameInfoModel[])',
    handler: async (_ctx, { scope }) => (await recentGames(scope.em)).map(presentBasicGame),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id',
    response: DetailedGameInfoModel,
    params: GameParams,
    summary: "A game (DetailedGameInfoModel) with the caller's participation",
    handler: async (_ctx, { params, actor, scope }) => {
      const { game, teamCount, caller } = await gameInfoFor(scope.em, params.id, actor?.user ?? null)
      return presentDetailedGame(game, teamCount, caller)
    },
  }),
  route({
    method: 'POST',
    path: '/api/game/:id',
    response: 'empty',
    role: 'User',
    params: GameParams,
    body: GameJoinModel,
    summary: 'Join a game with a team',
    handler: async (_ctx, { params, body, actor, scope }) => {
      await joinGame(scope, actor, params.id, body)
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/game/:id',
    response: 'empty',
    role: 'User',
    params: GameParams,
    summary: 'Leave a game (pending or rejected registrations only)',
    handler: async (_ctx, { params, actor, scope }) => {
      await leaveGame(scope, actor, params.id)
      return undefined
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/details',
    response: GameDetailModel,
    role: 'User',
    params: GameParams,
    summary: "The team's view of the game (GameDetailModel)",
    handler: async (_ctx, { params, actor, scope }) => {
      const { game, participation } = await gameContext(scope.em, params.id, actor.user, { refuseEnded: true })
      const scoreboard = await scope.services.scoreboard.get(game.id)
      return presentGameDetail(game, participation, participation.team as Team, scoreboard)
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/participations',
    response: z.array(ParticipationInfoModel),
    role: 'Admin',
    params: GameParams,
    summary: 'Every participation of the game (ParticipationInfoModel[])',
    handler: async (_ctx, { params, scope }) =>
      (await gameParticipations(scope.em, params.id)).map(({ participation, registeredMembers }) => presentParticipationInfo(participation, registeredMembers)),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/notices',
    response: z.array(GameNotice),
    params: GameParams,
    query: PageQuery,
    summary: 'Notices: admin notices first, then system notices, newest first (GameNotice[])',
    handler: async (_ctx, { params, query, scope }) => (await gameNotices(scope.em, params.id, query.count, query.skip)).map(presentNotice),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/challenges/:challengeId',
    response: ChallengeDetailModel,
    role: 'User',
    params: ChallengeParams,
    summary: "The team's instance of a challenge (ChallengeDetailModel), loaded on first view",
    handler: async (_ctx, { params, actor, scope }) => {
      if (params.id <= 0 || params.challengeId <= 0) throw notFound('题目未找到')
      const { game, participation } = await gameContext(scope.em, params.id, actor.user, { refuseEnded: true })
      return presentChallengeDetail(await loadInstance(scope.em, game, participation, params.challengeId))
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/writeup',
    response: BasicWriteupInfoModel,
    role: 'User',
    params: GameParams,
    summary: "The team's write-up (BasicWriteupInfoModel); works after the end",
    handler: async (_ctx, { params, actor, scope }) => {
      const { game, file } = await teamWriteup(scope.em, actor.user, params.id)
      return presentBasicWriteup(game, file)
    },
  }),
  route({
    method: 'POST',
    path: '/api/game/:id/writeup',
    response: 'empty',
    role: 'User',
    params: GameParams,
    body: 'multipart',
    bodyLimit: BODY_LIMITS.writeup,
    summary: "Upload the team's write-up (PDF, ≤ 20 MiB, before the deadline)",
    handler: async (_ctx, { params, files, actor, scope }) => {
      await uploadWriteup(scope, actor, params.id, requireFile(files))
      return undefined
    },
  }),
]
