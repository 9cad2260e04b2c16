/**
 * Single sign-on with OpenID Connect, a Flagwave addition (docs/compatibility.md#single-sign-on):
 * the sign-in page's provider list, the redirect to a provider and its callback, linking from the
 * profile, and the admin settings. The callback is where a browser lands, so it answers with a
 * redirect on success and on failure (the sign-in page or the profile, with `?ssoError=<code>`);
 * the JSON routes answer failures in the contract's error shape.
 */
import type { Context } from 'koa'
import { z } from 'zod'
import {
  SsoAdminModel,
  SsoIdentityModel,
  SsoInfoModel,
  SsoLinkResponse,
  SsoPolicyInput,
  SsoProviderAdminModel,
  SsoProviderCreateInput,
  SsoProviderId,
  SsoProviderInput,
  SsoStartQuery,
} from '@flagwave/shared/schemas/sso'
import { RAW, route, type RouteSpec } from '../http/route.js'
import { publicOrigin } from '../lib/publicOrigin.js'
import { completeSso, SSO_LOGIN_TTL_MS, startSso, type SsoFailureContext } from '../domain/sso/flow.js'
import { ssoErrorCode } from '../domain/sso/errors.js'
import { createProvider, deleteProvider, isSsoOnly, listProviders, redirectUriOf, setSsoPolicy, updateProvider } from '../domain/sso/providers.js'
import { listIdentities, unlinkIdentity } from '../domain/sso/accounts.js'
import { presentIdentity, presentProviderAdmin, presentSsoAdmin, presentSsoInfo } from '../presenters/sso.js'
import { forgetSession, handOut, requestInfo } from './account.js'

/** Holds the sign-in's `state` from the redirect to the provider until its callback, and only there. */
const STATE_COOKIE = 'Flagwave.Sso'
const COOKIE_PATH = '/api/account/sso'

const providerParams = z.object({ provider: SsoProviderId })

const originOf = (ctx: Context): string => publicOrigin(ctx.services.config, ctx.req.socket.localPort)
const redirectUri = (ctx: Context, provider: string): string => redirectUriOf(originOf(ctx), provider)

function setStateCookie(ctx: Context, state: string | null): void {
  const expires = state ? new Date(Date.now() + SSO_LOGIN_TTL_MS) : new Date(0)
  // Lax: the provider sends the browser back with a top-level GET, which carries Lax cookies.
  ctx.cookies.set(STATE_COOKIE, state ?? '', { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, expires, secure: ctx.secure, overwrite: true })
}

/** Send the browser on; `RAW` tells the router the response is set. */
function redirect(ctx: Context, location: string): typeof RAW {
  ctx.set('Cache-Control', 'no-store')
  ctx.redirect(location)
  return RAW
}

export const ssoRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/api/account/sso',
    response: SsoInfoModel,
    summary: 'Flagwave: the enabled single sign-on providers (id and name) and whether password sign-in is refused',
    handler: async (ctx): Promise<SsoInfoModel> => presentSsoInfo(await isSsoOnly(ctx.em), await listProviders(ctx.em, true)),
  }),
  route({
    method: 'GET',
    path: '/api/account/sso/:provider',
    params: providerParams,
    query: SsoStartQuery,
    rateLimit: 'Login',
    response: 'redirect',
    summary: 'Flagwave: redirect to the provider to sign in (authorization code with PKCE); `returnTo` is a path of this site',
    handler: async (ctx, { scope, params, query }) => {
      try {
        const started = await startSso(scope, params.provider, redirectUri(ctx, params.provider), query.returnTo, null)
        setStateCookie(ctx, started.state)
        return redirect(ctx, started.url)
      } catch (err) {
        const code = ssoErrorCode(err)
        if (code === null || code === 'unknown_provider') throw err
        return redirect(ctx, `/account/login?ssoError=${code}`)
      }
    },
  }),
  route({
    method: 'GET',
    path: '/api/account/sso/:provider/callback',
    params: providerParams,
    rateLimit: 'Login',
    response: 'redirect',
    summary: 'Flagwave: the provider’s redirect back; signs in (or links) and redirects to the return path, or to the sign-in page with `ssoError`',
    handler: async (ctx, { scope, params }) => {
      const stateCookie = ctx.cookies.get(STATE_COOKIE)
      setStateCookie(ctx, null)
      const context: SsoFailureContext = { linking: false }
      try {
        const outcome = await completeSso(
          scope,
          params.provider,
          {
            query: new URLSearchParams(ctx.querystring),
            stateCookie,
            redirectUri: redirectUri(ctx, params.provider),
            req: requestInfo(ctx),
            session: ctx.state.session,
            user: ctx.state.user,
          },
          context,
        )
        if (outcome.kind === 'signedIn') {
          forgetSession(ctx)
          handOut(ctx, outcome.session)
        }
        return redirect(ctx, outcome.returnTo)
      } catch (err) {
        const code = ssoErrorCode(err)
        if (code === null) throw err
        return redirect(ctx, `${context.linking ? '/account/profile' : '/account/login'}?ssoError=${code}`)
      }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/sso/:provider/link',
    params: providerParams,
    role: 'User',
    rateLimit: 'Login',
    response: SsoLinkResponse,
    summary: 'Flagwave: start linking a provider identity to the caller; answers the URL to open',
    handler: async (ctx, { scope, params, actor }): Promise<SsoLinkResponse> => {
      const started = await startSso(scope, params.provider, redirectUri(ctx, params.provider), '/account/profile', actor.user)
      setStateCookie(ctx, started.state)
      return { url: started.url }
    },
  }),
  route({
    method: 'GET',
    path: '/api/account/identities',
    role: 'User',
    response: z.array(SsoIdentityModel),
    summary: 'Flagwave: the caller’s linked single sign-on identities',
    handler: async (ctx, { actor }): Promise<SsoIdentityModel[]> => (await listIdentities(ctx.em, actor.user.id)).map(presentIdentity),
  }),
  route({
    method: 'DELETE',
    path: '/api/account/identities/:provider',
    params: providerParams,
    role: 'User',
    response: 'empty',
    summary: 'Flagwave: unlink the caller’s identity at a provider',
    handler: async (_ctx, { scope, actor, params }) => {
      await unlinkIdentity(scope, actor, params.provider)
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/sso',
    role: 'Admin',
    response: SsoAdminModel,
    summary: 'Flagwave: single sign-on providers (without secrets, with the redirect URI to register) and the SSO-only policy',
    handler: async (ctx): Promise<SsoAdminModel> => presentSsoAdmin(await isSsoOnly(ctx.em), await listProviders(ctx.em, false), (id) => redirectUri(ctx, id)),
  }),
  route({
    method: 'PUT',
    path: '/api/admin/sso',
    role: 'Admin',
    body: SsoPolicyInput,
    response: 'empty',
    summary: 'Flagwave: turn the SSO-only policy on or off (Admins keep password sign-in)',
    handler: async (_ctx, { scope, actor, body }) => {
      await setSsoPolicy(scope, actor, body)
    },
  }),
  route({
    method: 'POST',
    path: '/api/admin/sso/providers',
    role: 'Admin',
    body: SsoProviderCreateInput,
    response: SsoProviderAdminModel,
    summary: 'Flagwave: add a provider under a new id',
    handler: async (ctx, { scope, actor, body }): Promise<SsoProviderAdminModel> => {
      const { id, ...settings } = body
      const provider = await createProvider(scope, actor, id, settings)
      return presentProviderAdmin(provider, redirectUri(ctx, provider.id))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/admin/sso/providers/:provider',
    params: providerParams,
    role: 'Admin',
    body: SsoProviderInput,
    response: SsoProviderAdminModel,
    summary: 'Flagwave: replace a provider’s settings; a null clientSecret keeps the stored one',
    handler: async (ctx, { scope, actor, params, body }): Promise<SsoProviderAdminModel> => {
      const provider = await updateProvider(scope, actor, params.provider, body)
      return presentProviderAdmin(provider, redirectUri(ctx, provider.id))
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/sso/providers/:provider',
    params: providerParams,
    role: 'Admin',
    response: 'empty',
    summary: 'Flagwave: delete a provider and every identity linked through it',
    handler: async (_ctx, { scope, actor, params }) => {
      await deleteProvider(scope, actor, params.provider)
    },
  }),
]
