/**
 * Group `admin`, settings and logs (CONTRACT §3.2.1, §3.2.2, §3.2.14). The other admin endpoints
 * live in adminUsers.ts and adminInstances.ts.
 */
import { z } from 'zod'
import { ConfigEditInput, ConfigEditModel } from '@flagwave/shared/schemas/config'
import { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { queryInt } from '@flagwave/shared/schemas/common'
import { route, type RouteSpec } from '../http/route.js'
import { updateConfig } from '../domain/config/update.js'
import { listLogs } from '../domain/logs/queries.js'
import { presentConfigEdit } from '../presenters/config.js'
import { presentLog } from '../presenters/logs.js'

/** A paging integer that must not be negative (the reference passes negatives to the database, CONTRACT §2.9). */
const nonNegative = (name: string, fallback: number) =>
  queryInt(name, fallback).pipe(z.number().min(0, `The field ${name} must not be negative.`))

/** `GET /api/admin/logs` query: `level` = `All`, absent or empty disables the filter. */
export const LogsQuery = z.object({
  level: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((raw) => {
      const value = Array.isArray(raw) ? raw[0] : raw
      return value === undefined || value === null || value === '' || value === 'All' ? null : value
    }),
  count: nonNegative('count', 50),
  skip: nonNegative('skip', 0),
})

export const adminConfigRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/api/admin/config',
    role: 'Admin',
    response: ConfigEditModel,
    summary: 'Runtime settings: account policy, global config (with beianInfo), game policy',
    handler: async (ctx): Promise<ConfigEditModel> => presentConfigEdit(await ctx.services.settings.get(ctx.em, { fresh: true })),
  }),
  route({
    method: 'PUT',
    path: '/api/admin/config',
    role: 'Admin',
    body: ConfigEditInput,
    response: 'empty',
    summary: 'Store every non-null leaf; applied from the next request and pushed as ReceivedConfigUpdate',
    handler: async (ctx, { body }) => {
      await updateConfig(ctx.em, ctx.services, body, { userName: ctx.state.user!.userName, ip: ctx.clientIp })
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/logs',
    role: 'Admin',
    query: LogsQuery,
    response: z.array(LogMessageModel),
    summary: 'Audit log, newest first; level compared exactly (All = every level)',
    handler: async (ctx, { query }): Promise<LogMessageModel[]> => (await listLogs(ctx.em, query)).map(presentLog),
  }),
]
