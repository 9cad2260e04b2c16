/**
 * Sign-in (docs/compatibility.md#group-account): the name is tried as a user name, then as an
 * e-mail address, both case-insensitively — the other way round when it looks like an address, so
 * a user name spelled like someone's e-mail never catches their sign-in
 * (docs/compatibility.md#identity-rules). Banned accounts get their own message; a wrong password
 * and an unconfirmed e-mail share the generic one. No lockout. Unknown names still cost one
 * password verification, so response times do not tell which names exist. An account with
 * two-factor sign-in gets a ticket for the second step instead of a session (twoFactorLogin.ts).
 */
import type { LoginModel } from '@flagwave/shared/schemas/account'
import { isEmailLike } from '@flagwave/shared/schemas/fields'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Session } from '../../entities/Session.js'
import type { User } from '../../entities/User.js'
import { badRequest, unauthorized } from '../../lib/errors.js'
import { verifyCaptcha } from './captcha.js'
import { hashIsOutdated, hashPassword, verifyPassword } from './passwords.js'
import { findByEmail, findByUserName, type RequestInfo } from './identity.js'
import { CAPTCHA_FAILED } from './register.js'
import { createSession, endSession, type IssuedSession } from './sessions.js'
import { deviceRemembered, signInTicket } from './twoFactor.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { assertPasswordSignInAllowed } from '../sso/policy.js'

const WRONG_CREDENTIALS = '用户名或密码错误'
const USER_BANNED = '用户已被禁用'

let dummyHash: Promise<string> | null = null
/** Spend the time of a real verification when there is no account to verify against. */
async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword('flagwave-timing-equalizer')
  await verifyPassword(await dummyHash, password)
}

/** The account a sign-in name means: an address-like name is an e-mail address first. */
async function findAccount(em: EntityManager, name: string): Promise<User | null> {
  if (isEmailLike(name)) return (await findByEmail(em, name)) ?? (await findByUserName(em, name))
  return (await findByUserName(em, name)) ?? (await findByEmail(em, name))
}

/**
 * Any session the request carried ends first, whatever the outcome; a successful sign-in
 * starts a new one.
 */
export async function login(scope: Scope, input: LoginModel, req: RequestInfo, previous: Session | undefined, device?: string): Promise<SignInOutcome> {
  const { em, services } = scope
  if (previous) await endSession(em, previous)
  const settings = await services.settings.get(em)
  if (!(await verifyCaptcha(services.config, settings, input.challenge, req.ip))) throw badRequest(CAPTCHA_FAILED)

  const user = await findAccount(em, input.userName)
  await assertPasswordSignInAllowed(em, user)
  const fail = async (title: string, reason: string) => {
    await services.audit.write({ message: `用户登录失败：${reason}`, userName: (user?.userName ?? input.userName).slice(0, 64), ip: req.ip, status: 'Failed', level: 'Warning' })
    return unauthorized(title)
  }
  if (!user) {
    await burnVerification(input.password)
    throw await fail(WRONG_CREDENTIALS, '用户不存在')
  }
  if (user.role === 'Banned') throw await fail(USER_BANNED, '用户已被禁用')
  if (!user.emailConfirmed) {
    await burnVerification(input.password)
    throw await fail(WRONG_CREDENTIALS, '账户未激活')
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw await fail(WRONG_CREDENTIALS, '密码错误')
  // Hashes made with older, costlier parameters cost every later sign-in as much again.
  if (hashIsOutdated(user.passwordHash)) user.passwordHash = await hashPassword(input.password)

  const ticket = await secondStepTicket(em, user, device)
  if (ticket) {
    await services.audit.write({ message: '用户密码正确，等待两步验证', userName: user.userName, ip: req.ip, status: 'Pending' })
    return { twoFactorTicket: ticket }
  }
  return { session: await completeSignIn(scope, user, req) }
}

/**
 * What a correct password leads to: a session, or — for an account with two-factor sign-in and
 * no remembered device — the ticket of the second step (docs/compatibility.md#two-factor-authentication).
 */
export type SignInOutcome = { session: IssuedSession } | { twoFactorTicket: string }

/** The ticket of the second step when one is needed, else null. */
async function secondStepTicket(em: EntityManager, user: User, device: string | undefined): Promise<string | null> {
  if (!user.twoFactorSecret || (await deviceRemembered(em, user, device))) return null
  return signInTicket(em, user)
}

/** The last step of every sign-in (password, or password and second factor): the visit, the audit entry, the session. */
export async function completeSignIn(scope: Scope, user: User, req: RequestInfo): Promise<IssuedSession> {
  const { em, services } = scope
  const now = new Date()
  user.lastSignIn = now
  user.lastVisited = now
  user.ip = req.ip || user.ip
  await em.flush()
  await services.audit.write({ message: '用户成功登录', userName: user.userName, ip: req.ip, status: 'Success' })
  return createSession(em, user, req.ip, req.userAgent)
}

/** Sign out: the caller's session ends on the server. */
export async function logout(scope: Scope, actor: Actor, session: Session | undefined): Promise<void> {
  if (session) await endSession(scope.em, session)
  await scope.services.audit.success(actor, '用户登出')
}
