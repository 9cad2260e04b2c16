import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'
import { SsoProvider } from './SsoProvider.js'

/**
 * An account's identity at an OpenID Connect provider, keyed by what the provider vouches for:
 * (provider, `sub`). One identity per provider and account. Deleting the provider or the
 * account deletes the link.
 */
export const UserIdentitySchema = defineEntity({
  name: 'UserIdentity',
  tableName: 'user_identities',
  properties: {
    provider: () => p.manyToOne(SsoProvider).primary().deleteRule('cascade'),
    subject: p.string().length(255).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** The address the provider last reported, for the profile page. */
    email: p.string().length(256).default(''),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsed: p.datetime().nullable(),
  },
  uniques: [{ properties: ['user', 'provider'] }],
})
export class UserIdentity extends UserIdentitySchema.class {}
UserIdentitySchema.setClass(UserIdentity)
