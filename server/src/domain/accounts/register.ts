/**
 * Registration (docs/compatibility.md#group-account). The account policy decides the outcome: signed in at once,
 * waiting for an admin, or waiting for e-mail confirmation. An e-mail that belongs to a confirmed
 * account is refused; one that belongs to an unconfirmed (pending) account is registered again:
 * the pending account takes this registration's user name and password and a new security stamp,
 * so the earlier password, sessions and mailed links stop working
 * (docs/compatibility.md#registering-a-pending-e-mail-again). Without e-mail confirmation nothing
 * proves who owns the address, so then only the holder of the pending account's password may
 * register it again.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { LockMode } from '@mikro-orm/core'
import type { RegisterModel } from '@flagwave/shared/schemas/account'
import type { RegisterStatus } from '@flagwave/shared/enums'
import { User } from '../../entities/User.js'
import type { Session } from '../../entities/Session.js'
import { badRequest } from '../../lib/errors.js'
import type { AccountPolicy } from '../config/settings.js'
import { verifyCaptcha } from './captcha.js'
import { hashPassword, passwordPolicyError, verifyPassword } from './passwords.js'
import { endAllSessions, newSecurityStamp, replaceSession, type IssuedSession } from './sessions.js'
import { creationError, normalizeKey, uniqueViolationTitle, userValidationError, type RequestInfo } from './identity.js'
import { accountLink, generateToken } from './tokens.js'
import { sendAccountMail } from './mails.js'
import type { Scope } from '../scope.js'
import { assertRegistrationAllowed } from '../sso/policy.js'

export interface RegisterResult {
  status: RegisterStatus
  title: string
  user: User
  /** With `LoggedIn`: the new session, which replaced the one the request carried. */
  session: IssuedSession | null
}

export const CAPTCHA_FAILED = '验证码校验失败'
export const MAIL_FAILED = '邮件无法发送，请联系管理员'
const ACCOUNT_EXISTS = '此账户已存在'

/** `emailDomainList` non-empty: the text after the '@' must be exactly one of its comma-separated entries. */
export function emailDomainAllowed(list: string, email: string): boolean {
  if (!list.trim()) return true
  const domain = email.split('@')[1] ?? ''
  return list.split(',').some((d) => d === domain)
}

export async function register(scope: Scope, input: RegisterModel, req: RequestInfo, previous: Session | undefined): Promise<RegisterResult> {
  const { em, services } = scope
  const settings = await services.settings.get(em)
  const policy = settings.accountPolicy
  if (!policy.allowRegister) throw badRequest('注册功能已禁用')
  await assertRegistrationAllowed(em)
  if (!(await verifyCaptcha(services.config, settings, input.challenge, req.ip))) throw badRequest(CAPTCHA_FAILED)
  if (!emailDomainAllowed(policy.emailDomainList, input.email)) throw badRequest(`可用邮箱后缀：${policy.emailDomainList}`)

  const error = await creationError(em, input, input.password)
  const user = error === null ? await createAccount(em, input, req) : await registerPendingAgain(scope, input, error, policy, req)

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

/** A new unconfirmed account. Another registration of the same name or e-mail that raced past the checks is a 400, never a second account. */
async function createAccount(em: EntityManager, input: RegisterModel, req: RequestInfo): Promise<User> {
  const user = em.create(User, {
    id: randomUUID(),
    userName: input.userName,
    normalizedUserName: normalizeKey(input.userName),
    email: input.email,
    normalizedEmail: normalizeKey(input.email),
    emailConfirmed: false,
    passwordHash: await hashPassword(input.password),
    securityStamp: newSecurityStamp(),
    role: 'User',
    lastVisited: new Date(),
    ip: req.ip || '0.0.0.0',
  })
  await flushOrRefuse(em, input)
  return user
}

/**
 * Creation failed with `error`; when the e-mail is that of an unconfirmed account, this
 * registration replaces its credentials (docs/compatibility.md#registering-a-pending-e-mail-again).
 * The row is locked, Identity's rules are checked again for that account (the new name must be
 * free or already its own), and the new security stamp voids the old password's sessions and
 * every link mailed before; the sessions are deleted and the sockets dropped after the commit.
 */
async function registerPendingAgain(scope: Scope, input: RegisterModel, error: string, policy: AccountPolicy, req: RequestInfo): Promise<User> {
  const mailConfirms = policy.emailConfirmationRequired && !policy.activeOnRegister
  const user = await scope.em.transactional(async (tx) => {
    const current = await tx.findOne(User, { normalizedEmail: normalizeKey(input.email) }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    if (!current) throw badRequest(error)
    if (current.emailConfirmed) throw badRequest(ACCOUNT_EXISTS)
    const again = passwordPolicyError(input.password) ?? (await userValidationError(tx, { id: current.id, userName: input.userName, email: input.email }))
    if (again) throw badRequest(again)
    // Without a mailed link nothing proves the address: a stranger may not take the pending account over.
    if (!mailConfirms && !(await verifyPassword(current.passwordHash, input.password))) throw badRequest(error)
    current.userName = input.userName
    current.normalizedUserName = normalizeKey(input.userName)
    current.passwordHash = await hashPassword(input.password)
    current.securityStamp = newSecurityStamp()
    current.lastVisited = new Date()
    current.ip = req.ip || current.ip
    await flushOrRefuse(tx, input)
    await endAllSessions(tx, current.id)
    return current
  })
  scope.events.disconnectUser(user.id)
  // The request's own copy of the row (the commit refreshed it): activation flushes through it.
  return scope.em.findOneOrFail(User, { id: user.id })
}

async function flushOrRefuse(em: EntityManager, input: RegisterModel): Promise<void> {
  try {
    await em.flush()
  } catch (err) {
    const title = uniqueViolationTitle(err, input)
    if (title === null) throw err
    em.clear()
    throw badRequest(title)
  }
}
