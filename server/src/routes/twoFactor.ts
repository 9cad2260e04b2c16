/**
 * Two-factor sign-in (docs/compatibility.md#two-factor-authentication): status, enrolment with a
 * QR code, confirmation (answers the recovery codes), disabling and new recovery codes (password
 * and a current factor), forgetting remembered devices, and the second step of a sign-in. No API
 * token may call these routes. The status, enrolment and confirmation are reachable by an account
 * that the policy holds at enrolment (`enrolment: true`).
 */
import {
  RecoveryCodesModel,
  TwoFactorConfirmModel,
  TwoFactorEnrolmentModel,
  TwoFactorLoginModel,
  TwoFactorProofModel,
  TwoFactorStatusModel,
} from '@flagwave/shared/schemas/twoFactor'
import { route, type RouteSpec } from '../http/route.js'
import { clearTwoFactorTicket, setTwoFactorCookie, TWO_FACTOR_DEVICE_COOKIE, TWO_FACTOR_TICKET_COOKIE } from '../http/auth.js'
import {
  beginEnrolment,
  confirmEnrolment,
  DEVICE_LIFETIME_MS,
  disableTwoFactor,
  forgetDevices,
  regenerateRecoveryCodes,
  twoFactorStatus,
} from '../domain/accounts/twoFactor.js'
import { completeTwoFactorLogin } from '../domain/accounts/twoFactorLogin.js'
import { handOut, requestInfo } from './account.js'

export const twoFactorRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/api/account/2fa',
    role: 'User',
    token: 'never',
    enrolment: true,
    response: TwoFactorStatusModel,
    summary: 'Flagwave: two-factor status of the caller (enabled, pending, recovery codes left, required by policy, this device remembered)',
    handler: async (ctx, { scope, actor }): Promise<TwoFactorStatusModel> => twoFactorStatus(scope, actor.user, ctx.cookies.get(TWO_FACTOR_DEVICE_COOKIE)),
  }),
  route({
    method: 'POST',
    path: '/api/account/2fa/enrol',
    role: 'User',
    token: 'never',
    enrolment: true,
    response: TwoFactorEnrolmentModel,
    summary: 'Flagwave: begin enrolment: a new TOTP secret, its otpauth URL and a QR code (data URL)',
    handler: async (_ctx, { scope, actor }): Promise<TwoFactorEnrolmentModel> => beginEnrolment(scope, actor),
  }),
  route({
    method: 'POST',
    path: '/api/account/2fa/confirm',
    role: 'User',
    token: 'never',
    enrolment: true,
    rateLimit: 'Login',
    body: TwoFactorConfirmModel,
    response: RecoveryCodesModel,
    summary: 'Flagwave: confirm enrolment with a code; answers the recovery codes, shown once',
    handler: async (_ctx, { scope, actor, body }): Promise<RecoveryCodesModel> => ({ recoveryCodes: await confirmEnrolment(scope, actor, body.code) }),
  }),
  route({
    method: 'POST',
    path: '/api/account/2fa/disable',
    role: 'User',
    token: 'never',
    rateLimit: 'Login',
    body: TwoFactorProofModel,
    response: 'empty',
    summary: 'Flagwave: turn two-factor off with the password and a code (refused while the policy requires it)',
    handler: async (_ctx, { scope, actor, body }) => {
      await disableTwoFactor(scope, actor, body)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/2fa/recovery',
    role: 'User',
    token: 'never',
    rateLimit: 'Login',
    body: TwoFactorProofModel,
    response: RecoveryCodesModel,
    summary: 'Flagwave: new recovery codes (password and a code); the old ones stop working',
    handler: async (_ctx, { scope, actor, body }): Promise<RecoveryCodesModel> => ({ recoveryCodes: await regenerateRecoveryCodes(scope, actor, body) }),
  }),
  route({
    method: 'DELETE',
    path: '/api/account/2fa/devices',
    role: 'User',
    token: 'never',
    response: 'empty',
    summary: 'Flagwave: forget every remembered device of the caller',
    handler: async (_ctx, { scope, actor }) => {
      await forgetDevices(scope, actor)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/2fa/login',
    token: 'never',
    rateLimit: 'Login',
    body: TwoFactorLoginModel,
    response: 'empty',
    summary: 'Flagwave: the second step of a sign-in that answered twoFactorRequired: a TOTP or recovery code; sets the session cookie',
    handler: async (ctx, { scope, body }) => {
      const outcome = await completeTwoFactorLogin(scope, ctx.cookies.get(TWO_FACTOR_TICKET_COOKIE), body, requestInfo(ctx))
      clearTwoFactorTicket(ctx)
      handOut(ctx, outcome.session)
      if (outcome.device) setTwoFactorCookie(ctx, TWO_FACTOR_DEVICE_COOKIE, outcome.device, DEVICE_LIFETIME_MS)
    },
  }),
]
