/** The caller's own profile (docs/compatibility.md#group-account) and password (docs/compatibility.md#group-account). */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { PasswordChangeModel, ProfileUpdateModel } from '@flagwave/shared/schemas/account'
import type { User } from '../../entities/User.js'
import { Session } from '../../entities/Session.js'
import { badRequest } from '../../lib/errors.js'
import { hashPassword, passwordPolicyError, verifyPassword } from './passwords.js'
import { newSecurityStamp, replaceSession, type IssuedSession } from './sessions.js'
import { identityErrors, normalizeKey, uniqueViolationTitle, userValidationError, type RequestInfo } from './identity.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

/** Null members keep their value; Identity then validates the user name (charset, uniqueness). */
export async function updateProfile(scope: Scope, actor: Actor, input: ProfileUpdateModel): Promise<void> {
  const { em, services } = scope
  const { user } = actor
  const oldName = user.userName
  const userName = input.userName ?? user.userName
  const error = await userValidationError(em, { id: user.id, userName, email: user.email })
  if (error) throw badRequest(error)
  user.userName = userName
  user.normalizedUserName = normalizeKey(userName)
  user.bio = input.bio ?? user.bio
  user.phone = input.phone ?? user.phone
  user.realName = input.realName ?? user.realName
  user.stdNumber = input.stdNumber ?? user.stdNumber
  try {
    await em.flush()
  } catch (err) {
    const title = uniqueViolationTitle(err, { userName, email: user.email })
    if (title === null) throw err
    throw badRequest(title)
  }
  if (oldName !== userName) await services.audit.success(actor, `用户更新：${oldName} => ${userName}`)
}

/**
 * Identity's ChangePasswordAsync: the old password first, then the policy for the new one.
 * The security stamp moves, so every session of the account ends at once and outstanding
 * e-mail tokens are void; the caller gets a new session in place of `current`.
 */
export async function changePassword(scope: Scope, actor: Actor, input: PasswordChangeModel, req: RequestInfo, current: Session | undefined): Promise<IssuedSession> {
  const { em, services } = scope
  const { user } = actor
  if (!(await verifyPassword(user.passwordHash, input.old))) throw badRequest(identityErrors.passwordMismatch)
  const policy = passwordPolicyError(input.new)
  if (policy) throw badRequest(policy)
  user.passwordHash = await hashPassword(input.new)
  user.securityStamp = newSecurityStamp()
  await em.flush()
  await endStaleSessions(em, user)
  await services.audit.success(actor, '用户更新密码')
  return replaceSession(em, current, user, req)
}

/** Delete the sessions minted under an older security stamp (they would be refused anyway). */
export async function endStaleSessions(em: EntityManager, user: User): Promise<void> {
  await em.nativeDelete(Session, { user: user.id, securityStamp: { $ne: user.securityStamp } })
}
