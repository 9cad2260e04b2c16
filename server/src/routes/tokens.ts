/**
 * API tokens (docs/compatibility.md#api-tokens): every account's scoped tokens under
 * `/api/account/tokens`, and GZ::CTF 1.5's admin tokens under `/api/tokens`. No token may call
 * these routes (`token: 'never'`): a leaked token cannot mint, restore or keep alive others.
 */
import { z } from 'zod'
import {
  GzTokenCreatedModel,
  GzTokenCreateModel,
  GzTokenDeleteQuery,
  GzTokenModel,
  TokenCreatedModel,
  TokenCreateModel,
  TokenInfoModel,
} from '@flagwave/shared/schemas/tokens'
import { guidParam, route, type RouteSpec } from '../http/route.js'
import { createGzToken, createToken, listGzTokens, listOwnTokens, restoreGzToken, revokeGzToken, revokeOwnToken } from '../domain/accounts/apiTokens.js'
import { presentGzToken, presentToken } from '../presenters/tokens.js'

const byId = z.object({ id: guidParam })

export const tokenRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/api/account/tokens',
    role: 'User',
    token: 'never',
    response: z.array(TokenInfoModel),
    summary: 'Flagwave: the caller’s API tokens with their scopes, expiry and last use (never their secrets)',
    handler: async (ctx, { actor }): Promise<TokenInfoModel[]> => (await listOwnTokens(ctx.em, actor.user.id)).map(presentToken),
  }),
  route({
    method: 'POST',
    path: '/api/account/tokens',
    role: 'User',
    token: 'never',
    body: TokenCreateModel,
    response: TokenCreatedModel,
    summary: 'Flagwave: create a scoped API token (scopes within the caller’s role); its secret is in this answer only',
    handler: async (_ctx, { scope, actor, body }): Promise<TokenCreatedModel> => {
      const issued = await createToken(scope, actor, body)
      return { ...presentToken({ token: issued.token, lastUsedAt: null }), token: issued.secret }
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/account/tokens/:id',
    role: 'User',
    token: 'never',
    params: byId,
    response: 'empty',
    summary: 'Flagwave: revoke one of the caller’s tokens, on every node at once',
    handler: async (_ctx, { scope, actor, params }) => {
      await revokeOwnToken(scope, actor, params.id)
    },
  }),
  route({
    method: 'GET',
    path: '/api/tokens',
    role: 'Admin',
    token: 'never',
    response: z.array(GzTokenModel),
    summary: 'GZ::CTF 1.5: every admin API token',
    handler: async (ctx): Promise<GzTokenModel[]> => (await listGzTokens(ctx.em)).map(presentGzToken),
  }),
  route({
    method: 'POST',
    path: '/api/tokens',
    role: 'Admin',
    token: 'never',
    body: GzTokenCreateModel,
    response: GzTokenCreatedModel,
    summary: 'GZ::CTF 1.5: create an admin API token (Ed25519-signed); its secret is in this answer only',
    handler: async (_ctx, { scope, actor, body }): Promise<GzTokenCreatedModel> => {
      const issued = await createGzToken(scope, actor, body)
      return { ...presentGzToken({ token: issued.token, lastUsedAt: null }), token: issued.secret }
    },
  }),
  route({
    method: 'POST',
    path: '/api/tokens/:id/restore',
    role: 'Admin',
    token: 'never',
    params: byId,
    response: 'empty',
    summary: 'GZ::CTF 1.5: restore a revoked admin token',
    handler: async (_ctx, { scope, actor, params }) => {
      await restoreGzToken(scope, actor, params.id)
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/tokens/:id',
    role: 'Admin',
    token: 'never',
    params: byId,
    query: GzTokenDeleteQuery,
    response: 'empty',
    summary: 'GZ::CTF 1.5: revoke an admin token, or delete it with delete=true',
    handler: async (_ctx, { scope, actor, params, query }) => {
      await revokeGzToken(scope, actor, params.id, query.delete)
    },
  }),
]
