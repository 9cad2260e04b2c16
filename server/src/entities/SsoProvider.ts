import { defineEntity, p } from '@mikro-orm/core'

/**
 * An OpenID Connect provider admins configured (docs/compatibility.md#single-sign-on). The client
 * secret is stored as given: the platform must present it to the provider, so a hash would not do.
 */
export const SsoProviderSchema = defineEntity({
  name: 'SsoProvider',
  tableName: 'sso_providers',
  properties: {
    id: p.string().length(32).primary(),
    name: p.string().length(64),
    issuer: p.string().length(512),
    clientId: p.string().length(256),
    clientSecret: p.text().default(''),
    scopes: p.string().length(256),
    roleClaim: p.string().length(64).default(''),
    adminValues: p.string().length(512).default(''),
    monitorValues: p.string().length(512).default(''),
    allowedDomains: p.string().length(512).default(''),
    enabled: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
})
export class SsoProvider extends SsoProviderSchema.class {}
SsoProviderSchema.setClass(SsoProvider)
