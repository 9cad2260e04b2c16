/** Changing the caller's e-mail address: request (docs/compatibility.md#group-account) and confirmation (docs/compatibility.md#group-account). */
import type { AccountVerifyModel, MailChangeModel } from '@flagwave/shared/schemas/account'
import type { Session } from '../../entities/Session.js'
import { AppError, badRequest } from '../../lib/errors.js'
import { newSecurityStamp, replaceSession, type IssuedSession } from './sessions.js'
import { decodeBase64Text, findByEmail, isValidEmail, normalizeKey, uniqueViolationTitle, type RequestInfo } from './identity.js'
import { accountLink, decodeToken, generateToken, verifyToken } from './tokens.js'
import { sendAccountMail } from './mails.js'
import { MAIL_FAILED } from './register.js'
import { endStaleSessions } from './profile.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

const INVALID_NEW_EMAIL = '无效邮箱'

/** Mail a `/account/confirm` link to the new address; its token is bound to that address. */
export async function requestEmailChange(scope: Scope, actor: Actor, input: MailChangeModel, req: RequestInfo): Promise<void> {
  const { em, services } = scope
  const { user } = actor
  if (await findByEmail(em, input.newMail)) throw badRequest('邮箱已经被占用')
  const settings = await services.settings.get(em)
  if (!settings.accountPolicy.emailConfirmationRequired) throw new AppError(400, '请联系管理员修改邮箱', 400, { kind: 'request', data: false })
  await services.audit.write({ message: '发送用户邮箱更改邮件', userName: user.userName, ip: actor.ip, status: 'Pending' })
  const token = await generateToken(em, 'ChangeEmail', user, input.newMail)
  const link = accountLink(req.origin, 'confirm', token, input.newMail)
  if (!(await sendAccountMail(services.mailer, 'confirm', input.newMail, user.userName, link))) throw badRequest(MAIL_FAILED)
}

/**
 * Identity's ChangeEmailAsync: the token must be the caller's, for this address, under the
 * current security stamp. The address becomes confirmed and the stamp moves (other sessions end;
 * the caller gets a new session in place of `current`).
 */
export async function confirmEmailChange(scope: Scope, actor: Actor, input: AccountVerifyModel, req: RequestInfo, current: Session | undefined): Promise<IssuedSession> {
  const { em, services } = scope
  const { user } = actor
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
  await services.audit.success(actor, `更改邮箱成功：${oldMail} => ${newMail}`)
  return replaceSession(em, current, user, req)
}
