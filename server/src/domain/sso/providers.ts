/**
 * The providers admins configure and the "SSO only" policy (docs/compatibility.md#single-sign-on).
 * Discovery documents are fetched when a sign-in needs one and kept for a while per provider
 * configuration, so a provider that is down costs one failed fetch per attempt, never a boot
 * failure.
 */
import * as oidc from 'openid-client'
import type { EntityManager } from '@mikro-orm/postgresql'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { SsoPolicyInput, SsoProviderSettings } from '@flagwave/shared/schemas/sso'
import { SsoProvider } from '../../entities/SsoProvider.js'
import { ConfigEntry } from '../../entities/ConfigEntry.js'
import { badRequest } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { ssoError } from './errors.js'

/** The `configs` row of the policy; the settings store ignores keys it does not know. */
const SSO_ONLY_KEY = 'sso.only'
const DISCOVERY_TTL_MS = 10 * 60 * 1000
/** Seconds every request to a provider may take (discovery, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10

export async function isSsoOnly(em: EntityManager): Promise<boolean> {
  const row = await em.findOne(ConfigEntry, { key: SSO_ONLY_KEY })
  return row?.value === 'true'
}

export async function setSsoPolicy(scope: Scope, actor: Actor, input: SsoPolicyInput): Promise<void> {
  await scope.em.upsert(ConfigEntry, { key: SSO_ONLY_KEY, value: String(input.ssoOnly) })
  await scope.services.audit.success(actor, input.ssoOnly ? '启用仅单点登录' : '停用仅单点登录', 'Warning')
}

export const listProviders = (em: EntityManager, enabledOnly: boolean): Promise<SsoProvider[]> =>
  em.find(SsoProvider, enabledOnly ? { enabled: true } : {}, { orderBy: { name: 'asc', id: 'asc' } })

export const findEnabledProvider = (em: EntityManager, id: string): Promise<SsoProvider | null> => em.findOne(SsoProvider, { id, enabled: true })

const settingsOf = (input: SsoProviderSettings) => ({
  name: input.name,
  issuer: input.issuer,
  clientId: input.clientId,
  scopes: input.scopes,
  roleClaim: input.roleClaim.trim(),
  adminValues: input.adminValues,
  monitorValues: input.monitorValues,
  allowedDomains: input.allowedDomains,
  enabled: input.enabled,
})

const PROVIDER_EXISTS = '该标识已存在'

/** Add a provider under a new id. */
export async function createProvider(scope: Scope, actor: Actor, id: string, input: SsoProviderSettings): Promise<SsoProvider> {
  const { em } = scope
  if (await em.count(SsoProvider, { id })) throw badRequest(PROVIDER_EXISTS)
  const provider = em.create(SsoProvider, { id, ...settingsOf(input), clientSecret: input.clientSecret ?? '' })
  try {
    await em.flush()
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw badRequest(PROVIDER_EXISTS)
    throw err
  }
  await scope.services.audit.success(actor, `添加单点登录 ${id}（${input.issuer}）`, 'Warning')
  return provider
}

/** Replace a provider's settings; a null secret keeps the stored one. Discovery is fetched again for the new settings. */
export async function updateProvider(scope: Scope, actor: Actor, id: string, input: SsoProviderSettings): Promise<SsoProvider> {
  const provider = await scope.em.findOne(SsoProvider, { id })
  if (!provider) throw ssoError('unknown_provider')
  scope.em.assign(provider, settingsOf(input))
  if (input.clientSecret != null) provider.clientSecret = input.clientSecret
  await scope.em.flush()
  await scope.services.audit.success(actor, `更新单点登录 ${id}（${input.issuer}）`, 'Warning')
  return provider
}

/** Delete a provider; the identities linked through it go with it (database cascade). */
export async function deleteProvider(scope: Scope, actor: Actor, id: string): Promise<void> {
  const deleted = await scope.em.nativeDelete(SsoProvider, { id })
  if (deleted === 0) throw ssoError('unknown_provider')
  await scope.services.audit.success(actor, `删除单点登录 ${id}`, 'Warning')
}

/** `https://ctf.example.org/api/account/sso/{id}/callback`: what admins register at the provider. */
export const redirectUriOf = (origin: string, id: string): string => `${origin}/api/account/sso/${encodeURIComponent(id)}/callback`

/**
 * Plain HTTP only for a provider on the same machine (a development Keycloak, the test suite's
 * provider); anywhere else the tokens would cross the network readable.
 */
function loopback(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname)
}

const discovered = new Map<string, { config: oidc.Configuration; at: number }>()

/** The provider's client configuration from its discovery document; `provider_unavailable` when it cannot be had. */
export async function clientConfiguration(provider: SsoProvider): Promise<oidc.Configuration> {
  const key = JSON.stringify([provider.id, provider.issuer, provider.clientId, provider.clientSecret])
  const hit = discovered.get(key)
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config
  const issuer = new URL(provider.issuer)
  const auth = provider.clientSecret ? oidc.ClientSecretBasic(provider.clientSecret) : oidc.None()
  try {
    const config = await oidc.discovery(issuer, provider.clientId, undefined, auth, {
      timeout: PROVIDER_TIMEOUT_S,
      execute: loopback(issuer) ? [oidc.allowInsecureRequests] : [],
    })
    for (const [k, v] of discovered) if (v.config !== config && JSON.parse(k)[0] === provider.id) discovered.delete(k)
    discovered.set(key, { config, at: Date.now() })
    return config
  } catch {
    throw ssoError('provider_unavailable')
  }
}
