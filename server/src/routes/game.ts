/**
 * Group `game`, player side (docs/compatibility.md#group-game-reading-and-joining, #group-game-challenges-and-flags, #group-game-write-ups):
 * the game list and detail, joining and leaving, the team's view of a running game, notices,
 * the participations list for reviewers, challenge details and write-ups.
 * Monitor reads live in routes/gameMonitor.ts; flag submission in routes/submissions.ts.
 */
import { z } from 'zod'
import { BasicGameInfoModel, DetailedGameInfoModel, GameDetailModel, GameJoinCheckInfoModel, GameJoinModel, GameNotice } from '@flagwave/shared/schemas/games'
import { BasicWriteupInfoModel, ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { ParticipationInfoModel } from '@flagwave/shared/schemas/teams'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { notFound } from '../lib/errors.js'
import { gameContext } from '../domain/play/gate.js'
import { CostedHintState } from '@flagwave/shared/schemas/challengeRules'
import { costedHintsOf, hintStates, nextHintFreeAt, unlockHint } from '../domain/challenges/costedHints.js'
import { gameRules } from '../domain/challenges/prerequisites.js'
import { GAME_NOT_FOUND, gameInfoFor, gameNotices, listGames } from '../domain/play/games.js'
import { teamChallenge } from '../domain/play/instances.js'
import { GameListQuery, PageQuery, RecentGamesQuery } from '@flagwave/shared/schemas/gameQueries'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { joinGame, leaveGame } from '../domain/participations/join.js'
import { gameParticipations, joinCheck } from '../domain/participations/queries.js'
import { teamWriteup, uploadWriteup } from '../domain/writeups/writeups.js'
import { presentChallengeDetail, presentGameDetail } from '../presenters/play.js'
import { presentDetailedGame, presentGameList } from '../presenters/games.js'
import { presentNoticePage } from '../presenters/notices.js'
import { presentParticipationInfo } from '../presenters/participations.js'
import { presentBasicWriteup } from '../presenters/writeups.js'
import type { Team } from '../entities/Team.js'
import { frozenChallengeScore, ownSolvesAfterFreeze } from '../domain/scoreboard/freezeView.js'

const GameParams = z.object({ id: intParam })
const ChallengeParams = z.object({ id: intParam, challengeId: intParam })
const HintParams = z.object({ id: intParam, challengeId: intParam, hintId: intParam })

export const gameRoutes = [
  route({
    method: 'GET',
    path: '/api/game',
    response: z.union([z.array(BasicGameInfoModel), arrayResponseOf(BasicGameInfoModel)]),
    query: GameListQuery,
    summary: 'The 10 most recent non-hidden games (BasicGameInfoModel[]); with count/skip (GZ::CTF 1.2) a page as ArrayResponse',
    handler: async (_ctx, { query, scope }) => {
      if (query.count === null && query.skip === null) return presentGameList(await listGames(scope.em, 0, 10), 'array')
      return presentGameList(await listGames(scope.em, query.skip ?? 0, query.count ?? 10), 'page')
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/recent',
    response: z.array(BasicGameInfoModel),
    query: RecentGamesQuery,
    summary: 'GZ::CTF 1.2: the most recent non-hidden games (BasicGameInfoModel[]), `limit` 0–50 (default 10)',
    handler: async (_ctx, { query, scope }) => presentGameList(await listGames(scope.em, 0, query.limit ?? 10), 'array'),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id',
    response: DetailedGameInfoModel,
    params: GameParams,
    summary: "A game (DetailedGameInfoModel) with the caller's participation",
    handler: async (_ctx, { params, actor, scope }) => {
      const { game, divisions, teamCount, caller } = await gameInfoFor(scope.em, params.id, actor?.user ?? null)
      return presentDetailedGame(game, divisions, teamCount, caller)
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
      // GZ::CTF 1.7 joins a division by id, 1.0 by its name (`division`), v0.17.6 by `organization`.
      const division = { divisionId: body.divisionId, name: body.divisionId === null ? (body.division ?? body.organization) : null }
      await joinGame(scope, actor, params.id, { teamId: body.teamId, division, inviteCode: body.inviteCode })
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
      const snapshot = await scope.services.scoreboard.snapshot(game.id)
      if (!snapshot) throw notFound(GAME_NOT_FOUND)
      const team = participation.team as Team
      // Frozen: the frozen rank and values, and the team's own solves since the freeze (docs/scoring.md#freeze).
      const solvedAfterFreeze = await ownSolvesAfterFreeze(scope.services.scoreboard, game.id, snapshot.model, team.id)
      return presentGameDetail(game, participation, team, snapshot, { rules: await gameRules(scope.em, game.id), solvedAfterFreeze })
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/check',
    response: GameJoinCheckInfoModel,
    role: 'User',
    params: GameParams,
    summary: "GZ::CTF 1.7: the caller's teams in the game and the divisions open to joining",
    handler: async (_ctx, { params, actor, scope }) => joinCheck(scope.em, params.id, actor.user),
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
    handler: async (_ctx, { params, query, actor, scope }) => presentNoticePage(await gameNotices(scope.em, params.id, actor?.user ?? null), query.skip, query.count),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/challenges/:challengeId',
    response: ChallengeDetailModel,
    role: 'User',
    params: ChallengeParams,
    summary: "The team's instance of a challenge (ChallengeDetailModel), loaded on first view",
    handler: async (ctx, { params, actor, scope }) => {
      if (params.id <= 0 || params.challengeId <= 0) throw notFound('题目未找到')
      const { game, participation } = await gameContext(scope.em, params.id, actor.user, { refuseEnded: true })
      const view = await teamChallenge(scope.em, game, participation, params.challengeId)
      // A costed hint turning free changes the answer with no write: a kept answer ends there (docs/performance.md#hot-reads).
      ctx.state.hotReadUntil = nextHintFreeAt(view.challenge, Date.now())
      // The board in memory stamps a kept answer with the challenge's value (http/hotReads.ts): a node that has none loads it.
      await scope.services.scoreboard.snapshot(game.id)
      // Frozen: the value the frozen board shows, not the live counter's (docs/scoring.md#freeze), also in hint costs.
      const frozenScore = await frozenChallengeScore(scope.services.scoreboard, game, params.challengeId)
      const costedHints = costedHintsOf(view.challenge).length > 0 ? hintStates(view.challenge, view.unlocks, { score: frozenScore }) : []
      const detail = presentChallengeDetail(view, { attempts: view.attempts, costedHints })
      return frozenScore === null ? detail : { ...detail, score: frozenScore }
    },
  }),
  route({
    method: 'POST',
    path: '/api/game/:id/challenges/:challengeId/hints/:hintId/unlock',
    response: z.array(CostedHintState),
    role: 'User',
    params: HintParams,
    summary: "Flagwave: unlock a costed hint for the caller's team (idempotent; its cost comes off the team's score) — the challenge's hint states after it",
    handler: async (_ctx, { params, actor, scope }) => unlockHint(scope, actor, params.id, params.challengeId, params.hintId),
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
