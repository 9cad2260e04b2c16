/**
 * The second step of a sign-in (`POST /api/account/2fa/login`, docs/compatibility.md#two-factor-authentication):
 * the ticket that the correct password earned, then a TOTP or recovery code, checked under the
 * account's lockout (twoFactor.ts). The ticket is bound to the security stamp, so a password
 * change in between voids it, and a banned account cannot finish.
 */
import type { TwoFactorLoginModel } from '@flagwave/shared/schemas/twoFactor'
import { User } from '../../entities/User.js'
import { unauthorized } from '../../lib/errors.js'
import type { RequestInfo } from './identity.js'
import type { IssuedSession } from './sessions.js'
import { completeSignIn } from './login.js'
import { checkSecondFactor, openSignInTicket, rememberDevice } from './twoFactor.js'
import type { Scope } from '../scope.js'

export interface SecondStepOutcome {
  session: IssuedSession
  /** The remembered-device cookie's value, when the caller asked to be remembered. */
  device: string | null
}

export async function completeTwoFactorLogin(scope: Scope, ticket: string | undefined, input: TwoFactorLoginModel, req: RequestInfo): Promise<SecondStepOutcome> {
  const pending = await openSignInTicket(scope.em, ticket)
  if (!pending || pending.role === 'Banned') throw unauthorized('登录已过期，请重新输入密码')
  try {
    await checkSecondFactor(scope.em, pending.id, input.code)
  } catch (err) {
    await scope.services.audit.write({ message: '用户登录失败：两步验证未通过', userName: pending.userName, ip: req.ip, status: 'Failed', level: 'Warning' })
    throw err
  }
  const merged = await scope.em.findOneOrFail(User, { id: pending.id }, { refresh: true })
  const session = await completeSignIn(scope, merged, req)
  return { session, device: input.rememberDevice ? await rememberDevice(scope.em, merged) : null }
}
