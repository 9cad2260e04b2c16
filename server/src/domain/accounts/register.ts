/**
 * Registration (docs/compatibility.md#group-account). The account policy decides the outcome: signed in at once,
 * waiting for an admin, or waiting for e-mail confirmation. When creating the account fails but
 * an unconfirmed account with the same e-mail exists, the flow continues with that account (its
 * password is not changed), which re-sends the confirmation mail — or, with `activeOnRegister`,
 * confirms and signs in that account, but only when the password given matches it (we do not let
 * a stranger take over a pending account by knowing its address).
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { RegisterModel } from '@flagwave/shared/schemas/account'
import type { RegisterStatus } from '@flagwave/shared/enums'
import { User } from '../../entities/User.js'
import type { Session } from '../../entities/Session.js'
import { badRequest } from '../../lib/errors.js'
import { verifyCaptcha } from './captcha.js'
import { hashPassword, verifyPassword } from './passwords.js'
import { newSecurityStamp, replaceSession, type IssuedSession } from './sessions.js'
import { creationError, findByEmail, identityErrors, normalizeKey, uniqueViolationTitle, type RequestInfo } from './identity.js'
import { accountLink, generateToken } from './tokens.js'
import { sendAccountMail } from './mails.js'
import type { Scope } from '../scope.js'

export interface RegisterResult {
  status: RegisterStatus
  title: string
  user: User
  /** With `LoggedIn`: the new session, which replaced the one the request carried. */
  session: IssuedSession | null
}

export const CAPTCHA_FAILED = '验证码校验失败'
export const MAIL_FAILED = '邮件无法发送，请联系管理员'

/** `emailDomainList` non-empty: the text after the '@' must be exactly one of its comma-separated entries. */
function emailDomainAllowed(list: string, email: string): boolean {
  if (!list.trim()) return true
  const domain = email.split('@')[1] ?? ''
  return list.split(',').some((d) => d === domain)
}

export async function register(scope: Scope, input: RegisterModel, req: RequestInfo, previous: Session | undefined): Promise<RegisterResult> {
  const { em, services } = scope
  const settings = await services.settings.get(em)
  const policy = settings.accountPolicy
  if (!policy.allowRegister) throw badRequest('注册功能已禁用')
  if (!(await verifyCaptcha(services.config, settings, input.challenge, req.ip))) throw badRequest(CAPTCHA_FAILED)
  if (!emailDomainAllowed(policy.emailDomainList, input.email)) throw badRequest(`可用邮箱后缀：${policy.emailDomainList}`)

  let user: User
  const error = await creationError(em, input, input.password)
  if (error === null) {
    const now = new Date()
    user = em.create(User, {
      id: randomUUID(),
      userName: input.userName,
      normalizedUserName: normalizeKey(input.userName),
      email: input.email,
      normalizedEmail: normalizeKey(input.email),
      emailConfirmed: false,
      passwordHash: await hashPassword(input.password),
      securityStamp: newSecurityStamp(),
      role: 'User',
      lastVisited: now,
      ip: req.ip || '0.0.0.0',
    })
    try {
      await em.flush()
    } catch (err) {
      const title = uniqueViolationTitle(err, input)
      if (title === null) throw err
      em.clear()
      user = await continueWithExisting(em, input, title, policy.activeOnRegister)
    }
  } else {
    user = await continueWithExisting(em, input, error, policy.activeOnRegister)
  }

  const audit = { userName: user.userName, ip: req.ip }
  if (policy.activeOnRegister) {
    user.emailConfirmed = true
    await em.flush()
    await services.audit.write({ ...audit, message: '用户成功注册', status: 'Success' })
    return { status: 'LoggedIn', title: '注册成功', user, session: await replaceSession(em, previous, user, req) }
  }
  if (!policy.emailConfirmationRequired) {
    await services.audit.write({ ...audit, message: '用户成功注册，待审核', status: 'Success' })
    return { status: 'AdminConfirmationRequired', title: '注册成功，等待管理员审核', user, session: null }
  }
  await services.audit.write({ ...audit, message: '发送用户邮箱验证邮件', status: 'Pending' })
  const token = await generateToken(em, 'EmailConfirmation', user, user.email)
  const link = accountLink(req.origin, 'verify', token, user.email)
  if (!(await sendAccountMail(services.mailer, 'verify', user.email, user.userName, link))) throw badRequest(MAIL_FAILED)
  return { status: 'EmailConfirmationRequired', title: '注册成功，等待邮箱验证', user, session: null }
}

/** Creation failed with `error`: go on with an unconfirmed account of this e-mail, if there is one. */
async function continueWithExisting(em: EntityManager, input: RegisterModel, error: string, activates: boolean): Promise<User> {
  const current = await findByEmail(em, input.email)
  if (!current) throw badRequest(error || identityErrors.unknown)
  if (current.emailConfirmed) throw badRequest('此账户已存在')
  if (activates && !(await verifyPassword(current.passwordHash, input.password))) throw badRequest(error || identityErrors.unknown)
  return current
}
