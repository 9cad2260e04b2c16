/**
 * The HTTP side of the second sign-in step (docs/compatibility.md#two-factor-authentication): the
 * ticket cookie and the 401 that names the step, `{ title, status: 401, twoFactorRequired: true }`.
 */
import type { Context } from 'koa'
import { AppError } from '../lib/errors.js'
import { TICKET_LIFETIME_MS } from '../domain/accounts/twoFactor.js'
import { setTwoFactorCookie, TWO_FACTOR_TICKET_COOKIE } from './auth.js'

const TWO_FACTOR_REQUIRED = '需要两步验证'

/** The password was right and a second factor is due: hand out the ticket and say so. */
export function askForSecondStep(ctx: Context, ticket: string): never {
  setTwoFactorCookie(ctx, TWO_FACTOR_TICKET_COOKIE, ticket, TICKET_LIFETIME_MS)
  throw new AppError(401, TWO_FACTOR_REQUIRED, 401, { kind: 'request', extra: { twoFactorRequired: true } })
}
