/** The caller's own profile (CONTRACT §3.1.7) and password (§3.1.8). */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { PasswordChangeModel, ProfileUpdateModel } from '@flagwave/shared/schemas/account'
import type { Services } from '../../services.js'
import type { User } from '../../entities/User.js'
import { Session } from '../../entities/Session.js'
import { badRequest } from '../../lib/errors.js'
import { hashPassword, passwordPolicyError, verifyPassword } from './passwords.js'
import { newSecurityStamp } from './sessions.js'
import { identityErrors, normalizeKey, uniqueViolationTitle, userValidationError, type RequestInfo } from './identity.js'

/** Null members keep their value; Identity then validates the user name (charset, uniqueness). */
export async function updateProfile(em: EntityManager, services: Services, user: User, input: ProfileUpdateModel, req: RequestInfo): Promise<void> {
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
  if (oldName !== userName) await services.audit.write({ message: `用户更新：${oldName} => ${userName}`, userName, ip: req.ip, status: 'Success' })
}

/**
 * Identity's ChangePasswordAsync: the old password first, then the policy for the new one.
 * The security stamp moves, so every session of the account ends at once (the caller's route
 * signs the caller in again) and outstanding e-mail tokens are void.
 */
export async function changePassword(em: EntityManager, services: Services, user: User, input: PasswordChangeModel, req: RequestInfo): Promise<void> {
  if (!(await verifyPassword(user.passwordHash, input.old))) throw badRequest(identityErrors.passwordMismatch)
  const policy = passwordPolicyError(input.new)
  if (policy) throw badRequest(policy)
  user.passwordHash = await hashPassword(input.new)
  user.securityStamp = newSecurityStamp()
  await em.flush()
  await endStaleSessions(em, user)
  await services.audit.write({ message: '用户更新密码', userName: user.userName, ip: req.ip, status: 'Success' })
}

/** Delete the sessions minted under an older security stamp (they would be refused anyway). */
export async function endStaleSessions(em: EntityManager, user: User): Promise<void> {
  await em.nativeDelete(Session, { user: user.id, securityStamp: { $ne: user.securityStamp } })
}
