/**
 * Group `account` (CONTRACT §3.1, 12 endpoints): registration, sign-in and -out, e-mail
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
import { route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { clearSessionCookie, setSessionCookie } from '../http/auth.js'
import type { User } from '../entities/User.js'
import { createSession, endSession } from '../domain/accounts/sessions.js'
import type { RequestInfo } from '../domain/accounts/identity.js'
import { register } from '../domain/accounts/register.js'
import { login } from '../domain/accounts/login.js'
import { confirmEmail } from '../domain/accounts/verify.js'
import { resetPassword, sendPasswordReset } from '../domain/accounts/recovery.js'
import { changePassword, updateProfile } from '../domain/accounts/profile.js'
import { confirmEmailChange, requestEmailChange } from '../domain/accounts/email.js'
import { updateAvatar } from '../domain/accounts/avatar.js'
import { presentProfile } from '../presenters/users.js'

const requestInfo = (ctx: Context): RequestInfo => ({ ip: ctx.clientIp, userAgent: ctx.get('User-Agent'), origin: `${ctx.protocol}://${ctx.host}` })

/** Start a session for `user` and hand out its cookie. */
async function signIn(ctx: Context, user: User): Promise<void> {
  const { token, expiresAt } = await createSession(ctx.em, user, ctx.clientIp, ctx.get('User-Agent'))
  setSessionCookie(ctx, token, expiresAt)
}

/** End the request's session (if any) on the server and expire the cookies. */
async function signOut(ctx: Context): Promise<void> {
  if (ctx.state.session) await endSession(ctx.em, ctx.state.session)
  clearSessionCookie(ctx)
  ctx.state.session = undefined
  ctx.state.user = undefined
}

/** The caller's session was voided by a new security stamp: replace it with a fresh one. */
async function renewSession(ctx: Context, user: User): Promise<void> {
  if (ctx.state.session) await endSession(ctx.em, ctx.state.session)
  await signIn(ctx, user)
}

export const accountRoutes = [
  route({
    method: 'POST',
    path: '/api/account/register',
    response: RegisterResponse,
    rateLimit: 'Register',
    body: RegisterModel,
    summary: 'Register; the account policy decides LoggedIn / AdminConfirmationRequired / EmailConfirmationRequired',
    handler: async (ctx, { body }): Promise<RegisterResponse> => {
      const result = await register(ctx.em, ctx.services, body, requestInfo(ctx))
      if (result.status === 'LoggedIn') {
        await signOut(ctx)
        await signIn(ctx, result.user)
      }
      return { title: result.title, data: result.status, status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/recovery',
    response: RequestResponse,
    rateLimit: 'Register',
    body: RecoveryModel,
    summary: 'Mail a password-reset link',
    handler: async (ctx, { body }): Promise<RequestResponse> => {
      await sendPasswordReset(ctx.em, ctx.services, body, requestInfo(ctx))
      return { title: '邮件发送成功', status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/passwordreset',
    response: 'empty',
    rateLimit: 'Register',
    body: PasswordResetModel,
    summary: 'Reset the password with the token of a reset link',
    handler: async (ctx, { body }) => {
      await resetPassword(ctx.em, ctx.services, body, requestInfo(ctx))
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/verify',
    response: 'empty',
    body: AccountVerifyModel,
    summary: 'Confirm the e-mail address with the token of a verification link, then sign in',
    handler: async (ctx, { body }) => {
      const user = await confirmEmail(ctx.em, ctx.services, body, requestInfo(ctx))
      await signOut(ctx)
      await signIn(ctx, user)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/login',
    response: 'empty',
    rateLimit: 'Login',
    body: LoginModel,
    summary: 'Sign in by user name or e-mail; any previous session ends first',
    handler: async (ctx, { body }) => {
      await signOut(ctx)
      const user = await login(ctx.em, ctx.services, body, requestInfo(ctx))
      await signIn(ctx, user)
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/logout',
    response: 'empty',
    role: 'User',
    summary: 'Sign out: the session ends on the server and the cookie expires',
    handler: async (ctx) => {
      const user = ctx.state.user!
      await signOut(ctx)
      await ctx.services.audit.write({ message: '用户登出', userName: user.userName, ip: ctx.clientIp, status: 'Success' })
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/update',
    response: 'empty',
    role: 'User',
    body: ProfileUpdateModel,
    summary: 'Update the caller’s profile; null members keep their value',
    handler: async (ctx, { body }) => {
      await updateProfile(ctx.em, ctx.services, ctx.state.user!, body, requestInfo(ctx))
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/changepassword',
    response: 'empty',
    role: 'User',
    body: PasswordChangeModel,
    summary: 'Change the caller’s password; other sessions end, the caller’s is renewed',
    handler: async (ctx, { body }) => {
      const user = ctx.state.user!
      await changePassword(ctx.em, ctx.services, user, body, requestInfo(ctx))
      await renewSession(ctx, user)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/account/changeemail',
    response: MailChangeResponse,
    role: 'User',
    rateLimit: 'Register',
    body: MailChangeModel,
    summary: 'Mail a confirmation link to the new address',
    handler: async (ctx, { body }) => {
      await requestEmailChange(ctx.em, ctx.services, ctx.state.user!, body, requestInfo(ctx))
      return { title: '邮箱待验证', data: true, status: 200 }
    },
  }),
  route({
    method: 'POST',
    path: '/api/account/mailchangeconfirm',
    response: 'empty',
    role: 'User',
    body: AccountVerifyModel,
    summary: 'Confirm an e-mail change with the token of the link',
    handler: async (ctx, { body }) => {
      const user = ctx.state.user!
      await confirmEmailChange(ctx.em, ctx.services, user, body, requestInfo(ctx))
      await renewSession(ctx, user)
    },
  }),
  route({
    method: 'GET',
    path: '/api/account/profile',
    response: ProfileUserInfoModel,
    role: 'User',
    summary: 'The caller’s profile',
    handler: async (ctx) => presentProfile(ctx.state.user!),
  }),
  route({
    method: 'PUT',
    path: '/api/account/avatar',
    response: z.string(),
    role: 'User',
    body: 'multipart',
    summary: 'Upload an avatar (PNG, GIF, JPEG, WebP, BMP, TIFF ≤ 3 MiB); answers its URL',
    handler: async (ctx, { files }) => updateAvatar(ctx.em, ctx.services, ctx.state.user!, requireFile(files), requestInfo(ctx)),
  }),
]
