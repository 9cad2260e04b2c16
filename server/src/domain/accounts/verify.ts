/** E-mail confirmation through the `/account/verify` link (docs/compatibility.md#group-account). */
import type { AccountVerifyModel } from '@flagwave/shared/schemas/account'
import type { Session } from '../../entities/Session.js'
import { AppError, badRequest } from '../../lib/errors.js'
import { decodeBase64Text, findByEmail, type RequestInfo } from './identity.js'
import { decodeToken, verifyToken } from './tokens.js'
import { replaceSession, type IssuedSession } from './sessions.js'
import type { Scope } from '../scope.js'

export const INVALID_EMAIL_ADDRESS = '无效的邮件地址'

/** Confirm the account and sign it in, in place of the request's session. Registration time becomes now. */
export async function confirmEmail(scope: Scope, input: AccountVerifyModel, req: RequestInfo, previous: Session | undefined): Promise<IssuedSession> {
  const { em, services } = scope
  const user = await findByEmail(em, decodeBase64Text(input.email))
  if (!user || user.emailConfirmed) throw badRequest(INVALID_EMAIL_ADDRESS)
  if (!(await verifyToken(em, 'EmailConfirmation', user, user.email, decodeToken(input.token)))) throw new AppError(401, '邮箱验证失败')
  const now = new Date()
  user.emailConfirmed = true
  user.lastSignIn = now
  user.lastVisited = now
  user.registerTime = now
  user.ip = req.ip || user.ip
  await em.flush()
  await services.audit.write({ message: '通过邮箱验证', userName: user.userName, ip: req.ip, status: 'Success' })
  return replaceSession(em, previous, user, req)
}
