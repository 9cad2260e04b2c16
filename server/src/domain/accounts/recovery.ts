/** Password recovery by e-mail (docs/compatibility.md#group-account) and the reset itself (docs/compatibility.md#group-account). */
import type { PasswordResetModel, RecoveryModel } from '@flagwave/shared/schemas/account'
import { badRequest, notFound } from '../../lib/errors.js'
import { verifyCaptcha } from './captcha.js'
import { hashPassword, passwordPolicyError } from './passwords.js'
import { endAllSessions, newSecurityStamp } from './sessions.js'
import { decodeBase64Text, findByEmail, identityErrors, type RequestInfo } from './identity.js'
import { accountLink, decodeToken, generateToken, verifyToken } from './tokens.js'
import { sendAccountMail } from './mails.js'
import { CAPTCHA_FAILED, MAIL_FAILED } from './register.js'
import { INVALID_EMAIL_ADDRESS } from './verify.js'
import type { Scope } from '../scope.js'

/** Mail a `/account/reset` link to a confirmed account. */
export async function sendPasswordReset(scope: Scope, input: RecoveryModel, req: RequestInfo): Promise<void> {
  const { em, services } = scope
  const settings = await services.settings.get(em)
  if (!(await verifyCaptcha(services.config, settings, input.challenge, req.ip))) throw badRequest(CAPTCHA_FAILED)
  const user = await findByEmail(em, input.email)
  if (!user) throw notFound('用户不存在')
  if (!user.emailConfirmed) throw notFound('账户未激活，请重新注册')
  if (!settings.accountPolicy.emailConfirmationRequired) throw badRequest('请联系管理员重置密码')
  await services.audit.write({ message: '发送用户密码重置邮件', userName: user.userName, ip: req.ip, status: 'Pending' })
  const token = await generateToken(em, 'ResetPassword', user, user.email)
  const link = accountLink(req.origin, 'reset', token, input.email)
  if (!(await sendAccountMail(services.mailer, 'reset', user.email, user.userName, link))) throw badRequest(MAIL_FAILED)
}

/**
 * Identity's ResetPasswordAsync: the token first, then the password policy. The new security
 * stamp voids the token, every other e-mail token and every session of the account.
 */
export async function resetPassword(scope: Scope, input: PasswordResetModel, req: RequestInfo): Promise<void> {
  const { em, services } = scope
  const user = await findByEmail(em, decodeBase64Text(input.email))
  if (!user) throw badRequest(INVALID_EMAIL_ADDRESS)
  if (!(await verifyToken(em, 'ResetPassword', user, user.email, decodeToken(input.rToken)))) throw badRequest(identityErrors.invalidToken)
  const policy = passwordPolicyError(input.password)
  if (policy) throw badRequest(policy)
  user.passwordHash = await hashPassword(input.password)
  user.securityStamp = newSecurityStamp()
  user.lastVisited = new Date()
  user.ip = req.ip || user.ip
  await em.flush()
  await endAllSessions(em, user.id)
  await services.audit.write({ message: '用户成功重置密码', userName: user.userName, ip: req.ip, status: 'Success' })
}
