/**
 * The "SSO only" policy (docs/compatibility.md#single-sign-on): password sign-in and registration
 * are refused, so accounts come and go with the organisation's identity provider. Admins keep
 * their password as the break-glass: a provider outage or a broken provider setting must never
 * lock the organisers out of the switch that turns the policy off.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { User } from '../../entities/User.js'
import { badRequest, unauthorized } from '../../lib/errors.js'
import { isSsoOnly } from './providers.js'

const SSO_ONLY = '本站仅允许单点登录'

/**
 * Refuse a password sign-in under the policy, before the password is checked: the answer is the
 * same whether the name exists or the password is right, so it tells nothing about either.
 */
export async function assertPasswordSignInAllowed(em: EntityManager, user: User | null): Promise<void> {
  if (user?.role === 'Admin') return
  if (await isSsoOnly(em)) throw unauthorized(SSO_ONLY)
}

export async function assertRegistrationAllowed(em: EntityManager): Promise<void> {
  if (await isSsoOnly(em)) throw badRequest(SSO_ONLY)
}
