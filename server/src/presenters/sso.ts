/** Single sign-on shapes (docs/compatibility.md#single-sign-on); a client secret never leaves the server. */
import type { SsoAdminModel, SsoIdentityModel, SsoInfoModel, SsoProviderAdminModel } from '@flagwave/shared/schemas/sso'
import { toWireDate } from '@flagwave/shared/format'
import type { SsoProvider } from '../entities/SsoProvider.js'
import type { UserIdentity } from '../entities/UserIdentity.js'

/** The sign-in page's list: ids and names, nothing of the configuration. */
export const presentSsoInfo = (ssoOnly: boolean, providers: SsoProvider[]): SsoInfoModel => ({
  ssoOnly,
  providers: providers.map((p) => ({ id: p.id, name: p.name })),
})

export const presentProviderAdmin = (p: SsoProvider, redirectUri: string): SsoProviderAdminModel => ({
  id: p.id,
  name: p.name,
  issuer: p.issuer,
  clientId: p.clientId,
  hasSecret: p.clientSecret !== '',
  scopes: p.scopes,
  roleClaim: p.roleClaim,
  adminValues: p.adminValues,
  monitorValues: p.monitorValues,
  allowedDomains: p.allowedDomains,
  enabled: p.enabled,
  redirectUri,
})

export const presentSsoAdmin = (ssoOnly: boolean, providers: SsoProvider[], redirectUriOf: (id: string) => string): SsoAdminModel => ({
  ssoOnly,
  providers: providers.map((p) => presentProviderAdmin(p, redirectUriOf(p.id))),
})

export const presentIdentity = (identity: UserIdentity): SsoIdentityModel => {
  const provider = identity.provider as SsoProvider
  return {
    provider: provider.id,
    providerName: provider.name,
    email: identity.email,
    linkedAt: toWireDate(identity.createdAt),
    lastUsed: identity.lastUsed ? toWireDate(identity.lastUsed) : null,
  }
}
