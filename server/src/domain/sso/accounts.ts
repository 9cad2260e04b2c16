/**
 * Accounts behind provider identities (docs/compatibility.md#single-sign-on): an identity is
 * (provider, `sub`). A sign-in finds its linked account; else the account whose e-mail the
 * provider says it verified, which gets linked; else a new account, if registration is open.
 * The role claim, when the provider has one configured, sets the role at every sign-in. Each
 * sign-in is one transaction: a refused one changes nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { USER_NAME_MAX, USER_NAME_MIN } from '@flagwave/shared/limits'
import type { Role } from '@flagwave/shared/enums'
import { User } from '../../entities/User.js'
import { UserIdentity } from '../../entities/UserIdentity.js'
import type { SsoProvider } from '../../entities/SsoProvider.js'
import type { Session } from '../../entities/Session.js'
import { findByEmail, findByUserName, isValidEmail, normalizeKey, type RequestInfo } from '../accounts/identity.js'
import { hashPassword } from '../accounts/passwords.js'
import { newSecurityStamp, replaceSession, type IssuedSession } from '../accounts/sessions.js'
import { emailDomainAllowed } from '../accounts/register.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { notFound } from '../../lib/errors.js'
import { ssoError } from './errors.js'

/** The ID token's claims merged over the userinfo answer. */
export type Claims = Record<string, unknown> & { sub: string }

const commaList = (text: string): string[] =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)

/** The e-mail address the provider vouches for, or null. Some providers send `"true"` as a string. */
function verifiedEmail(claims: Claims): string | null {
  const email = typeof claims.email === 'string' ? claims.email.trim() : ''
  const verified = claims.email_verified === true || claims.email_verified === 'true'
  return email && verified && isValidEmail(email) ? email : null
}

/** The provider's own list of allowed domains, checked at every sign-in through it. */
function checkProviderDomains(provider: SsoProvider, claims: Claims): void {
  if (!provider.allowedDomains.trim()) return
  const email = verifiedEmail(claims)
  const domain = email?.split('@')[1]?.toLowerCase()
  if (!domain || !commaList(provider.allowedDomains.toLowerCase()).includes(domain)) throw ssoError('email_domain')
}

/** The role the claim maps to, or null when the provider maps none. */
function mappedRole(provider: SsoProvider, claims: Claims): Role | null {
  if (!provider.roleClaim) return null
  const raw = claims[provider.roleClaim]
  const values = new Set((Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,]+/) : []).filter((v): v is string => typeof v === 'string'))
  if (commaList(provider.adminValues).some((v) => values.has(v))) return 'Admin'
  if (commaList(provider.monitorValues).some((v) => values.has(v))) return 'Monitor'
  return 'User'
}

/**
 * A free user name from what the provider offers: `preferred_username`, the e-mail's local part,
 * `name`. Only Identity's characters without `@` and `+` (so it never looks like an address),
 * 3–15 long; a taken one gets a random suffix.
 */
async function freeUserName(em: EntityManager, claims: Claims): Promise<string> {
  const offers = [claims.preferred_username, typeof claims.email === 'string' ? claims.email.split('@')[0] : undefined, claims.name]
  let base = ''
  for (const offer of offers) {
    base = typeof offer === 'string' ? offer.replace(/[^A-Za-z0-9\-._]/g, '').slice(0, USER_NAME_MAX) : ''
    if (base.length >= USER_NAME_MIN) break
  }
  if (base.length < USER_NAME_MIN) base = 'user'
  if (!(await findByUserName(em, base)) && base.length >= USER_NAME_MIN) return base
  for (;;) {
    const candidate = `${base.slice(0, USER_NAME_MAX - 7)}-${randomBytes(3).toString('hex')}`
    if (!(await findByUserName(em, candidate))) return candidate
  }
}

interface Resolved {
  user: User
  created: boolean
  linked: boolean
}

/** The account of an identity, linked or created as the module comment says. */
async function resolveAccount(scope: Scope, tx: EntityManager, provider: SsoProvider, claims: Claims): Promise<Resolved> {
  const identity = await tx.findOne(UserIdentity, { provider: provider.id, subject: claims.sub }, { populate: ['user'] })
  if (identity) {
    identity.lastUsed = new Date()
    identity.email = (typeof claims.email === 'string' ? claims.email : identity.email).slice(0, 256)
    return { user: identity.user as User, created: false, linked: false }
  }
  const email = verifiedEmail(claims)
  if (!email) throw ssoError('email_unverified')
  const existing = await findByEmail(tx, email)
  if (existing) {
    // An unconfirmed account's password may belong to someone who only typed this address in.
    if (!existing.emailConfirmed) throw ssoError('account_conflict')
    if (await tx.count(UserIdentity, { user: existing.id, provider: provider.id })) throw ssoError('account_conflict')
    tx.create(UserIdentity, { provider: provider.id, subject: claims.sub, user: existing, email, lastUsed: new Date() })
    return { user: existing, created: false, linked: true }
  }
  const settings = await scope.services.settings.get(tx)
  const policy = settings.accountPolicy
  if (!policy.allowRegister) throw ssoError('registration_disabled')
  if (!emailDomainAllowed(policy.emailDomainList, email)) throw ssoError('email_domain')
  const userName = await freeUserName(tx, claims)
  const user = tx.create(User, {
    id: randomUUID(),
    userName,
    normalizedUserName: normalizeKey(userName),
    email,
    normalizedEmail: normalizeKey(email),
    // The provider verified the address; only an admin's approval can still be required.
    emailConfirmed: policy.activeOnRegister || policy.emailConfirmationRequired,
    // Nobody knows this password: the account signs in through the provider until a reset.
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    securityStamp: newSecurityStamp(),
    role: 'User',
    lastVisited: new Date(),
  })
  tx.create(UserIdentity, { provider: provider.id, subject: claims.sub, user, email, lastUsed: new Date() })
  return { user, created: true, linked: true }
}

/** Sign in with a provider's verified claims; the request's previous session ends. */
export async function signInWithClaims(scope: Scope, provider: SsoProvider, claims: Claims, req: RequestInfo, previous: Session | undefined): Promise<{ user: User; session: IssuedSession }> {
  checkProviderDomains(provider, claims)
  const { services } = scope
  let previousRole: Role | null = null
  const result = await refuseRaces(() =>
    scope.em.transactional(async (tx) => {
      const { user, created, linked } = await resolveAccount(scope, tx, provider, claims)
      if (user.role === 'Banned') throw ssoError('banned')
      if (!user.emailConfirmed) {
        // A new account awaiting approval is kept, so that an admin can approve it.
        if (created) {
          await tx.flush()
          return { user, created, linked, session: null }
        }
        throw ssoError('pending_approval')
      }
      const role = mappedRole(provider, claims)
      if (role && role !== user.role) {
        previousRole = user.role
        user.role = role
      }
      const now = new Date()
      user.lastSignIn = now
      user.lastVisited = now
      user.ip = req.ip || user.ip
      await tx.flush()
      return { user, created, linked, session: await replaceSession(tx, previous, user, req) }
    }),
  )
  const { user, created, linked, session } = result
  const audit = { userName: user.userName, ip: req.ip }
  if (created) await services.audit.write({ ...audit, message: `通过单点登录 ${provider.id} 注册`, status: 'Success' })
  else if (linked) await services.audit.write({ ...audit, message: `按已验证邮箱关联单点登录 ${provider.id}`, status: 'Success' })
  if (!session) throw ssoError('pending_approval')
  if (previousRole) {
    scope.events.disconnectUser(user.id)
    await services.audit.write({ ...audit, message: `单点登录 ${provider.id} 映射角色：${previousRole} => ${user.role}`, status: 'Success' })
  }
  await services.audit.write({ ...audit, message: `用户通过单点登录 ${provider.id} 登录`, status: 'Success' })
  return { user, session }
}

/** Link the provider identity to the signed-in `user` (explicitly, from the profile). */
export async function linkIdentity(scope: Scope, provider: SsoProvider, claims: Claims, user: User): Promise<User> {
  checkProviderDomains(provider, claims)
  await refuseRaces(() =>
    scope.em.transactional(async (tx) => {
      const owner = await tx.findOne(UserIdentity, { provider: provider.id, subject: claims.sub })
      if (owner) {
        if ((owner.user as User).id !== user.id) throw ssoError('identity_taken')
        owner.lastUsed = new Date()
        return
      }
      if (await tx.count(UserIdentity, { user: user.id, provider: provider.id })) throw ssoError('already_linked')
      tx.create(UserIdentity, { provider: provider.id, subject: claims.sub, user: user.id, email: (typeof claims.email === 'string' ? claims.email : '').slice(0, 256), lastUsed: new Date() })
    }),
  )
  await scope.services.audit.write({ message: `关联单点登录 ${provider.id}`, userName: user.userName, status: 'Success' })
  return user
}

/** Another sign-in of the same identity, name or address committed first: refused, nothing half-done. */
async function refuseRaces<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw ssoError('account_conflict')
    throw err
  }
}

/** The caller's linked identities, with the providers' names. */
export const listIdentities = (em: EntityManager, userId: string): Promise<UserIdentity[]> =>
  em.find(UserIdentity, { user: userId }, { populate: ['provider'], orderBy: { createdAt: 'asc' } })

/** Unlink the caller's identity at `providerId`. */
export async function unlinkIdentity(scope: Scope, actor: Actor, providerId: string): Promise<void> {
  const deleted = await scope.em.nativeDelete(UserIdentity, { user: actor.user.id, provider: providerId })
  if (deleted === 0) throw notFound('未关联该登录方式')
  await scope.services.audit.success(actor, `解除关联单点登录 ${providerId}`)
}
