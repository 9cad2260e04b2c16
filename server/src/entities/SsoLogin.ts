import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'

/**
 * A sign-in started at a provider and not yet come back: the PKCE verifier and the nonce, under
 * the SHA-256 of the `state` the browser carries in its cookie. The callback deletes the row as it
 * reads it, so each one serves once (docs/compatibility.md#single-sign-on).
 */
export const SsoLoginSchema = defineEntity({
  name: 'SsoLogin',
  tableName: 'sso_logins',
  properties: {
    id: p.string().length(64).primary(),
    provider: p.string().length(32),
    codeVerifier: p.string().length(128),
    nonce: p.string().length(128),
    returnTo: p.string().length(512).default('/'),
    /** Set when a signed-in user links this provider instead of signing in. */
    linkUser: () => p.manyToOne(User).deleteRule('cascade').nullable(),
    expiresAt: p.datetime().index(),
  },
})
export class SsoLogin extends SsoLoginSchema.class {}
SsoLoginSchema.setClass(SsoLogin)
