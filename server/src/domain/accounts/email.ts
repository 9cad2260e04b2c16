/** Changing the caller's e-mail address: request (CONTRACT §3.1.9) and confirmation (§3.1.10). */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AccountVerifyModel, MailChangeModel } from '@flagwave/shared/schemas/account'
import type { Services } from '../../services.js'
import type { User } from '../../entities/User.js'
import { AppError, badRequest } from '../../lib/errors.js'
import { newSecurityStamp } from './sessions.js'
import { decodeBase64Text, findByEmail, isValidEmail, normalizeKey, uniqueViolationTitle, type RequestInfo } from './identity.js'
import { accountLink, decodeToken, generateToken, verifyToken } from './tokens.js'
import { sendAccountMail } from './mails.js'
import { MAIL_FAILED } from './register.js'
import { endStaleSessions } from './profile.js'

export const INVALID_NEW_EMAIL = '无效邮箱'

/** Mail a `/account/confirm` link to the new address; its token is bound to that address. */
export async function requestEmailChange(em: EntityManager, services: Services, user: User, input: MailChangeModel, req: RequestInfo): Promise<void> {
  if (await findByEmail(em, input.newMail)) throw badRequest('邮箱已经被占用')
  const settings = await services.settings.get(em)
  if (!settings.accountPolicy.emailConfirmationRequired) throw new AppError(400, '请联系管理员修改邮箱', 400, { kind: 'request', data: false })
  await services.audit.write({ message: '发送用户邮箱更改邮件', userName: user.userName, ip: req.ip, status: 'Pending' })
  const token = await generateToken(em, 'ChangeEmail', user, input.newMail)
  const link = accountLink(req.origin, 'confirm', token, input.newMail)
  if (!(await sendAccountMail(services.mailer, 'confirm', input.newMail, user.userName, link))) throw badRequest(MAIL_FAILED)
}

/**
 * Identity's ChangeEmailAsync: the token must be the caller's, for this address, under the
 * current security stamp. The address becomes confirmed and the stamp moves (other sessions end;
 * the route signs the caller in again).
 */
export async function confirmEmailChange(em: EntityManager, services: Services, user: User, input: AccountVerifyModel, req: RequestInfo): Promise<void> {
  const newMail = decodeBase64Text(input.email)
  if (!newMail || !isValidEmail(newMail)) throw badRequest(INVALID_NEW_EMAIL)
  if (!(await verifyToken(em, 'ChangeEmail', user, newMail, decodeToken(input.token)))) throw badRequest(INVALID_NEW_EMAIL)
  const owner = await findByEmail(em, newMail)
  if (owner && owner.id !== user.id) throw badRequest(INVALID_NEW_EMAIL)
  const oldMail = user.email
  user.email = newMail
  user.normalizedEmail = normalizeKey(newMail)
  user.emailConfirmed = true
  user.securityStamp = newSecurityStamp()
  try {
    await em.flush()
  } catch (err) {
    if (uniqueViolationTitle(err, user) === null) throw err
    throw badRequest(INVALID_NEW_EMAIL)
  }
  await endStaleSessions(em, user)
  await services.audit.write({ message: `更改邮箱成功：${oldMail} => ${newMail}`, userName: user.userName, ip: req.ip, status: 'Success' })
}
