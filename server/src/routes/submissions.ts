/**
 * Flag submission, its status, and the scoreboard (docs/compatibility.md#group-game-challenges-and-flags).
 * The scoreboard is served from the engine's cached snapshot with its version as a validator
 * (`ETag` + `X-Scoreboard-Version`, `If-None-Match` → 304) — docs/scoring.md#snapshots-and-etag; a snapshot already in
 * memory is answered before this route (http/scoreboardRead.ts).
 */
import { z } from 'zod'
import { AnswerResult } from '@flagwave/shared/enums'
import { FlagSubmitModel } from '@flagwave/shared/schemas/play'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { RAW, intParam, route } from '../http/route.js'
import { badRequest, notFound } from '../lib/errors.js'
import { submitFlag, submissionStatus } from '../domain/submissions/submit.js'
import { sendSnapshot } from '../http/scoreboardRead.js'
import { ScoreboardQuery } from '@flagwave/shared/schemas/replay'
import { partitionKey } from '../http/rateLimit.js'
import { JsonText } from '../lib/jsonText.js'
import { replayBoard } from '../domain/scoreboard/replay/read.js'
import { boardFor } from '../domain/scoreboard/freezeView.js'

const challengeParams = z.object({ id: intParam, challengeId: intParam })
const statusParams = z.object({ id: intParam, challengeId: intParam, submitId: intParam })
const gameParams = z.object({ id: intParam })

export const submissionRoutes = [
  route({
    method: 'POST',
    path: '/api/game/:id/challenges/:challengeId',
    role: 'User',
    token: 'submit',
    rateLimit: 'Submit',
    params: challengeParams,
    body: FlagSubmitModel,
    response: z.number().int(),
    summary: 'Submit a flag; judged asynchronously, poll the status with the returned id',
    handler: async (_ctx, { params, body, actor, scope }) => submitFlag(scope, actor, params.id, params.challengeId, body.flag),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/challenges/:challengeId/status/:submitId',
    role: 'User',
    params: statusParams,
    response: z.enum(AnswerResult),
    summary: "Status of the caller's own submission (CheatDetected reads as WrongAnswer)",
    handler: async (_ctx, { params, actor, scope }) => submissionStatus(scope.em, actor.user, params.id, params.challengeId, params.submitId),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/scoreboard',
    params: gameParams,
    query: ScoreboardQuery,
    response: ScoreboardModel,
    summary:
      'The scoreboard (versioned: ETag / X-Scoreboard-Version, If-None-Match → 304); frozen during a freeze, `view=live` gives monitors and admins the live board (`live: true`), others the frozen one; `at` (ISO 8601 or Unix ms): the board as it stood then (replay: monitors and admins, others after the end when replayPublic, capped at the freeze)',
    handler: async (ctx, { params, query, scope, actor }) => {
      // Replay (docs/scoring.md#replay): never cached by the client, built from the history.
      if (query.at) {
        ctx.set('Cache-Control', 'no-store')
        return new JsonText((await replayBoard(scope, actor, partitionKey(ctx), params.id, query.at)).json)
      }
      const snapshot = await boardFor(scope.services.scoreboard, params.id, query.view === 'live', actor?.user.role)
      if (!snapshot) throw notFound('比赛未找到')
      if (Date.now() < snapshot.start) throw badRequest('比赛未开始')
      await sendSnapshot(ctx, snapshot)
      return RAW
    },
  }),
]
