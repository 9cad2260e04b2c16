/**
 * Group `proxy` (docs/compatibility.md#group-proxy), the plain-HTTP side: a request that is not a WebSocket upgrade
 * gets the first checks and then 204. Upgrades never reach Koa: server.ts hands them to
 * containers/proxy.ts. Anonymous — the container GUID is the capability. (The reference takes any
 * method; a WebSocket upgrade is always a GET, so GET is the one served here.)
 */
import type { Context } from 'koa'
import { z } from 'zod'
import { guidParam, RAW, route } from '../http/route.js'
import { badRequest, notFound } from '../lib/errors.js'
import { PROXY_TITLES, proxyContainerExists } from '../containers/proxy.js'
import type { Services } from '../services.js'

const ProxyParams = z.object({ id: guidParam })

async function noUpgrade(ctx: Context, services: Services, id: string): Promise<typeof RAW> {
  if (!services.containers.proxyMode) throw badRequest(PROXY_TITLES.disabled)
  if (!(await proxyContainerExists(services, id))) throw notFound(PROXY_TITLES.unknown)
  ctx.status = 204
  ctx.body = null
  return RAW
}

export const proxyRoutes = [
  route({
    method: 'GET',
    path: '/api/proxy/noinst/:id',
    response: 'empty',
    params: ProxyParams,
    summary: "WebSocket tunnel to an admin test container's TCP port",
    handler: async (ctx, { params, scope }) => noUpgrade(ctx, scope.services, params.id),
  }),
  route({
    method: 'GET',
    path: '/api/proxy/:id',
    response: 'empty',
    params: ProxyParams,
    summary: "WebSocket tunnel to a team container's TCP port",
    handler: async (ctx, { params, scope }) => noUpgrade(ctx, scope.services, params.id),
  }),
]
