/** E-mail confirmation through the `/account/verify` link (CONTRACT §3.1.4). */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AccountVerifyModel } from '@flagwave/shared/schemas/account'
import type { Services } from '../../services.js'
import type { User } from '../../entities/User.js'
import { AppError, badRequest } from '../../lib/errors.js'
import { decodeBase64Text, findByEmail, type RequestInfo } from './identity.js'
import { decodeToken, verifyToken } from './tokens.js'

export const INVALID_EMAIL_ADDRESS = '无效的邮件地址'

/** Confirm the account; the caller then signs it in. Registration time becomes now. */
export async function confirmEmail(em: EntityManager, services: Services, input: AccountVerifyModel, req: RequestInfo): Promise<User> {
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
  return user
}
