/**
 * Group `admin`, settings and logs (docs/compatibility.md#group-admin). The other admin endpoints
 * live in adminUsers.ts and adminInstances.ts.
 */
import { z } from 'zod'
import { ConfigEditInput, ConfigEditModel } from '@flagwave/shared/schemas/config'
import { LogMessageModel, LogsQuery } from '@flagwave/shared/schemas/admin'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { route, type RouteSpec } from '../http/route.js'
import { updateConfig } from '../domain/config/update.js'
import { removeLogo, setLogo } from '../domain/config/logo.js'
import { requireFile } from '../lib/uploads.js'
import { listLogs } from '../domain/logs/queries.js'
import { presentConfigEdit } from '../presenters/config.js'
import { presentLog } from '../presenters/logs.js'

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
    bodyLimit: BODY_LIMITS.content,
    response: 'empty',
    summary: 'Store every non-null leaf; applied from the next request and pushed as ReceivedConfigUpdate',
    handler: async (_ctx, { scope, actor, body }) => {
      await updateConfig(scope, actor, body)
    },
  }),
  route({
    method: 'POST',
    path: '/api/admin/config/logo',
    role: 'Admin',
    body: 'multipart',
    bodyLimit: BODY_LIMITS.image,
    response: z.string(),
    summary: "Upload the platform logo (newer GZ::CTF); the favicon is made from it; returns the logo's URL",
    handler: async (_ctx, { files, scope, actor }) => setLogo(scope, actor, requireFile(files)),
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/config/logo',
    role: 'Admin',
    response: 'empty',
    summary: 'Remove the platform logo and favicon (newer GZ::CTF)',
    handler: async (_ctx, { scope, actor }) => {
      await removeLogo(scope, actor)
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
