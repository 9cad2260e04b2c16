/**
 * Group `game`, monitor side (docs/compatibility.md#group-game-monitors): events, submissions, cheat
 * reports and the two spreadsheet exports (streamed).
 */
import type { Context } from 'koa'
import { z } from 'zod'
import { GameEvent } from '@flagwave/shared/schemas/games'
import { CheatInfoModel, Submission } from '@flagwave/shared/schemas/play'
import { intParam, RAW, route } from '../http/route.js'
import { gameCheatInfo, gameEvents, gameSubmissions } from '../domain/play/monitor.js'
import { presentGameEvent } from '../presenters/events.js'
import { presentCheatInfoModel, presentSubmission } from '../presenters/submissions.js'
import { EventsQuery, SubmissionsQuery } from '@flagwave/shared/schemas/gameQueries'
import { scoreboardSheet, submissionSheet, XLSX_TYPE, type Export } from '../domain/exports/sheets.js'

const GameParams = z.object({ id: intParam })

/** Send a file built while it streams, under its download name. */
export function sendDownload(ctx: Context, file: Export, type: string): typeof RAW {
  ctx.status = 200
  ctx.attachment(file.fileName)
  ctx.type = type
  ctx.body = file.stream
  return RAW
}

export const gameMonitorRoutes = [
  route({
    method: 'GET',
    path: '/api/game/:id/events',
    response: z.array(GameEvent),
    role: 'Monitor',
    params: GameParams,
    query: EventsQuery,
    summary: 'Game events, newest first (GameEvent[])',
    handler: async (_ctx, { params, query, scope }) => (await gameEvents(scope.em, params.id, query.hideContainer, query)).map(presentGameEvent),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/submissions',
    response: z.array(Submission),
    role: 'Monitor',
    params: GameParams,
    query: SubmissionsQuery,
    summary: 'Submissions, newest first, optionally of one status (Submission[]); count ≤ 0 = all',
    handler: async (_ctx, { params, query, scope }) => (await gameSubmissions(scope.em, params.id, query.type, query)).map(presentSubmission),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/cheatinfo',
    response: z.array(CheatInfoModel),
    role: 'Monitor',
    params: GameParams,
    summary: 'Cheat reports (CheatInfoModel[])',
    handler: async (_ctx, { params, scope }) => (await gameCheatInfo(scope.em, params.id)).map(presentCheatInfoModel),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/scoreboardsheet',
    response: `file:${XLSX_TYPE}`,
    role: 'Monitor',
    params: GameParams,
    summary: 'The scoreboard as an .xlsx download',
    handler: async (ctx, { params, scope }) => sendDownload(ctx, await scoreboardSheet(scope.em, scope.services, params.id), XLSX_TYPE),
  }),
  route({
    method: 'GET',
    path: '/api/game/:id/submissionsheet',
    response: `file:${XLSX_TYPE}`,
    role: 'Monitor',
    params: GameParams,
    summary: 'Every submission as an .xlsx download',
    handler: async (ctx, { params, scope }) => sendDownload(ctx, await submissionSheet(scope.em, scope.services, params.id), XLSX_TYPE),
  }),
]
