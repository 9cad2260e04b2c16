/**
 * Flag submission, its status, and the scoreboard (CONTRACT §3.5.20, §3.5.21, §3.5.5).
 * The scoreboard is served from the engine's cached snapshot with its version as a validator
 * (`ETag` + `X-Scoreboard-Version`, `If-None-Match` → 304) — DESIGN §5.
 */
import type { Context } from 'koa'
import { z } from 'zod'
import { AnswerResult } from '@flagwave/shared/enums'
import { FlagSubmitModel } from '@flagwave/shared/schemas/play'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { RAW, intParam, route } from '../http/route.js'
import { badRequest, notFound } from '../http/errors.js'
import { submitFlag, submissionStatus } from '../domain/submissions/submit.js'
import type { ScoreboardSnapshot } from '../domain/scoreboard/service.js'

const challengeParams = z.object({ id: intParam, challengeId: intParam })
const statusParams = z.object({ id: intParam, challengeId: intParam, submitId: intParam })
const gameParams = z.object({ id: intParam })

/** Below this size a gzipped copy is not worth it. */
const GZIP_MIN_BYTES = 2048

export const submissionRoutes = [
  route({
    method: 'POST',
    path: '/api/game/:id/challenges/:challengeId',
    role: 'User',
    rateLimit: 'Submit',
    params: challengeParams,
    body: FlagSubmitModel,
    response: z.number().int(),
    summary: 'Submit a flag; judged asynchronously, poll the status with the returned id',
    handler: async (ctx, { params, body }) => submitFlag(ctx.em, ctx.state.user!, params.id, params.challengeId, body.flag),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/challenges/:challengeId/status/:submitId',
    role: 'User',
    params: statusParams,
    response: z.enum(AnswerResult),
    summary: "Status of the caller's own submission (CheatDetected reads as WrongAnswer)",
    handler: async (ctx, { params }) => submissionStatus(ctx.em, ctx.state.user!, params.id, params.challengeId, params.submitId),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/scoreboard',
    params: gameParams,
    response: ScoreboardModel,
    summary: 'The scoreboard (versioned: ETag / X-Scoreboard-Version, If-None-Match → 304)',
    handler: async (ctx, { params }) => {
      const snapshot = await ctx.services.scoreboard.snapshot(params.id)
      if (!snapshot) throw notFound('比赛未找到')
      if (Date.now() < snapshot.start) throw badRequest('比赛未开始')
      await sendSnapshot(ctx, snapshot)
      return RAW
    },
  }),
]

async function sendSnapshot(ctx: Context, snapshot: ScoreboardSnapshot): Promise<void> {
  ctx.set('ETag', snapshot.etag)
  ctx.set('X-Scoreboard-Version', String(snapshot.version))
  ctx.set('Cache-Control', 'no-cache')
  ctx.vary('Accept-Encoding')
  if (matches(ctx.get('If-None-Match'), snapshot.etag)) {
    ctx.status = 304
    return
  }
  ctx.status = 200
  ctx.type = 'application/json; charset=utf-8'
  if (snapshot.json.length >= GZIP_MIN_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.compress = false
    ctx.set('Content-Encoding', 'gzip')
    ctx.body = await snapshot.gzipped()
    return
  }
  ctx.body = snapshot.json
}

/** Weak comparison of an If-None-Match list against our validator (RFC 9110 §13.1.2). */
function matches(header: string, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const ours = opaque(etag)
  return header.split(',').some((tag) => opaque(tag) === ours)
}
