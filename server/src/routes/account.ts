/**
 * Group `account` (docs/compatibility.md#group-account, 12 endpoints): registration, sign-in and -out, e-mail
 * confirmation, password recovery, profile, password, e-mail and avatar changes. The rules live
 * in domain/accounts/*; the handlers here only add what is HTTP: the session cookie.
 *
 * Sessions are checked against the security stamp on every request, so a password change, a
 * reset or an e-mail change ends the account's other sessions at once (the reference only
 * notices within 30 minutes). The caller's own session is re-issued after a password or e-mail
 * change so that they stay signed in.
 */
import type { Context } from 'koa'
import { z } from 'zod'
import {
  AccountVerifyModel,
  LoginModel,
  MailChangeModel,
  PasswordChangeModel,
  PasswordResetModel,
  ProfileUpdateModel,
  RecoveryModel,
  RegisterModel,
  MailChangeResponse,
  ProfileUserInfoModel,
  RegisterResponse,
} from '@flagwave/shared/schemas/account'
import { RequestResponse } from '@flagwave/shared/schemas/common'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { publicOrigin } from '../lib/publicOrigin.js'
import { clearSessionCookie, setSessionCookie, TWO_FACTOR_DEVICE_COOKIE } from '../http/auth.js'
import { askForSecondStep } from '../http/signIn.js'
import type { IssuedSession } from '../domain/accounts/sessions.js'
import type { RequestInfo } from '../domain/accounts/identity.js'
import { register } from '../domain/accounts/register.js'
import { login, logout } from '../domain/accounts/login.js'
import { confirmEmail } from '../domain/accounts/verify.js'
import { resetPassword, sendPasswordReset } from '../domain/accounts/recovery.js'
import { changePassword, updateProfile } from '../domain/accounts/profile.js'
import { confirmEmailChange, requestEmailChange } from '../domain/accounts/email.js'
import { updateAvatar } from '../domain/accounts/avatar.js'
import { presentProfile } from '../presenters/users.js'

// Links in mails start at the configured public origin, never at Host or X-Forwarded-Host, which
// the caller chooses (docs/operations.md#configuration, PUBLIC_URL).
export const requestInfo = (ctx: Context): RequestInfo => ({
  ip: ctx.clientIp,
  userAgent: ctx.get('User-Agent'),
  origin: publicOrigin(ctx.services.config, ctx.req.socket.localPort),
})

/** The request's session has ended (the command ended it on the server): expire the cookies. */
export function forgetSession(ctx: Context): void {
  clearSessionCookie(ctx)
  ctx.state.session = undefined
  ctx.state.user = undefined
}

/** Hand out the cookie of a session a command started. */
export const handOut = (ctx: Context, session: IssuedSession): void => setSessionCookie(ctx, session.token, session.expiresAt)

export const accountRoutes = [
  route({
    method: 'POST',
    path: '/api/account/register',
    response: RegisterResponse,
    rateLimit: 'Register',
    body: RegisterModel,
    summary: 'Register; the account policy decides LoggedIn / AdminConfirmationRequired / EmailConfirmationRequired',
    handler: async (ctx, { scope, body }): Promise<RegisterResponse> => {
      const result = await register(scope, body, requestInfo(ctx), ctx.state.session)
      if (result.session) {
        forgetSession(ctx)
        handOut(ctx, result.session)
      }
      return { title: result.title, data: result.status, status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/recovery',
    token: 'never',
    response: RequestResponse,
    rateLimit: 'Register',
    body: RecoveryModel,
    summary: 'Mail a password-reset link',
    handler: async (ctx, { scope, body }): Promise<RequestResponse> => {
      await sendPasswordReset(scope, body, requestInfo(ctx))
      return { title: '邮件发送成功', status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/passwordreset',
    token: 'never',
    response: 'empty',
    rateLimit: 'Register',
    body: PasswordResetModel,
    summary: 'Reset the password with the token of a reset link',
    handler: async (ctx, { scope, body }) => {
      await resetPassword(scope, body, requestInfo(ctx))
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/verify',
    response: 'empty',
    body: AccountVerifyModel,
    summary: 'Confirm the e-mail address with the token of a verification link, then sign in',
    handler: async (ctx, { scope, body }) => {
      const session = await confirmEmail(scope, body, requestInfo(ctx), ctx.state.session)
      forgetSession(ctx)
      handOut(ctx, session)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/login',
    response: 'empty',
    rateLimit: 'Login',
    body: LoginModel,
    summary: 'Sign in by user name or e-mail; any previous session ends first',
    handler: async (ctx, { scope, body }) => {
      const previous = ctx.state.session
      // Whatever the outcome, the request's session is over (the command ends it first).
      forgetSession(ctx)
      const outcome = await login(scope, body, requestInfo(ctx), previous, ctx.cookies.get(TWO_FACTOR_DEVICE_COOKIE))
      if ('twoFactorTicket' in outcome) askForSecondStep(ctx, outcome.twoFactorTicket)
      else handOut(ctx, outcome.session)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/logout',
    token: 'never',
    enrolment: true,
    response: 'empty',
    role: 'User',
    summary: 'Sign out: the session ends on the server and the cookie expires',
    handler: async (ctx, { scope, actor }) => {
      await logout(scope, actor, ctx.state.session)
      forgetSession(ctx)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/update',
    response: 'empty',
    role: 'User',
    body: ProfileUpdateModel,
    summary: 'Update the caller’s profile; null members keep their value',
    handler: async (_ctx, { scope, actor, body }) => {
      await updateProfile(scope, actor, body)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/changepassword',
    token: 'never',
    response: 'empty',
    role: 'User',
    body: PasswordChangeModel,
    summary: 'Change the caller’s password; other sessions end, the caller’s is renewed',
    handler: async (ctx, { scope, actor, body }) => {
      handOut(ctx, await changePassword(scope, actor, body, requestInfo(ctx), ctx.state.session))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/changeemail',
    token: 'never',
    response: MailChangeResponse,
    role: 'User',
    rateLimit: 'Register',
    body: MailChangeModel,
    summary: 'Mail a confirmation link to the new address',
    handler: async (ctx, { scope, actor, body }) => {
      await requestEmailChange(scope, actor, body, requestInfo(ctx))
      return { title: '邮箱待验证', data: true, status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/mailchangeconfirm',
    token: 'never',
    response: 'empty',
    role: 'User',
    body: AccountVerifyModel,
    summary: 'Confirm an e-mail change with the token of the link',
    handler: async (ctx, { scope, actor, body }) => {
      handOut(ctx, await confirmEmailChange(scope, actor, body, requestInfo(ctx), ctx.state.session))
    },
  }),
  route({
    method: 'GET',
    path: '/api/account/profile',
    enrolment: true,
    response: ProfileUserInfoModel,
    role: 'User',
    summary: 'The caller’s profile',
    handler: async (_ctx, { actor }) => presentProfile(actor.user),
  }),
  route({
    method: 'PUT',
    path: '/api/account/avatar',
    response: z.string(),
    role: 'User',
    body: 'multipart',
    bodyLimit: BODY_LIMITS.image,
    summary: 'Upload an avatar (PNG, GIF, JPEG, WebP, BMP, TIFF ≤ 3 MiB); answers its URL',
    handler: async (_ctx, { scope, actor, files }) => updateAvatar(scope, actor, requireFile(files)),
  }),
]
