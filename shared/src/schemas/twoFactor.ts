/**
 * Two-factor sign-in (docs/compatibility.md#two-factor-authentication): TOTP, recovery codes and
 * remembered devices under `/api/account/2fa`.
 */
import { z } from 'zod'

export const TWO_FACTOR_POLICIES = ['Off', 'Admins', 'Everyone'] as const
/** Who must use a second factor: nobody (default), Admins (and Monitors), or every account. */
export const TwoFactorPolicy = z.enum(TWO_FACTOR_POLICIES)
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicy>

/** A six-digit TOTP code, spaces allowed (as apps show it: `123 456`). */
const totpCode = z
  .string({ error: '验证码无效' })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, '验证码无效'))

/** A TOTP code or a recovery code (`xxxxx-xxxxx`); which one it is is decided by its shape. */
const secondFactor = z
  .string({ error: '验证码无效' })
  .trim()
  .min(1, '验证码无效')
  .max(32, '验证码无效')

/** `GET /api/account/2fa`. */
export const TwoFactorStatusModel = z.object({
  enabled: z.boolean(),
  /** An enrolment was begun and not confirmed yet. */
  pending: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The policy requires a second factor for this account. */
  required: z.boolean(),
  /** This browser is remembered: sign-ins from it skip the second step. */
  deviceRemembered: z.boolean(),
})
export type TwoFactorStatusModel = z.infer<typeof TwoFactorStatusModel>

/** `POST /api/account/2fa/enrol`: the secret to scan (QR data URL) or type in. */
export const TwoFactorEnrolmentModel = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCode: z.string(),
})
export type TwoFactorEnrolmentModel = z.infer<typeof TwoFactorEnrolmentModel>

/** `POST /api/account/2fa/confirm` */
export const TwoFactorConfirmModel = z.object({ code: totpCode })
export type TwoFactorConfirmModel = z.infer<typeof TwoFactorConfirmModel>

/** Recovery codes, shown once (confirm, regenerate). */
export const RecoveryCodesModel = z.object({ recoveryCodes: z.array(z.string()) })
export type RecoveryCodesModel = z.infer<typeof RecoveryCodesModel>

/** `POST /api/account/2fa/disable` and `/recovery`: the password and a current second factor. */
export const TwoFactorProofModel = z.object({
  password: z.string({ error: '密码不能为空' }).min(1, '密码不能为空').max(1024, '密码错误'),
  code: secondFactor,
})
export type TwoFactorProofModel = z.infer<typeof TwoFactorProofModel>

/** `POST /api/account/2fa/login`: the second step of a sign-in. */
export const TwoFactorLoginModel = z.object({
  code: secondFactor,
  /** Skip the second step on this browser for 30 days. */
  rememberDevice: z.boolean({ error: '参数无效' }).nullish().transform((v) => v ?? false),
})
export type TwoFactorLoginModel = z.infer<typeof TwoFactorLoginModel>
