/** Account request and response shapes (docs/compatibility.md#group-account, #account-shapes, #user-shapes). */
import { z } from 'zod'
import { Role, RegisterStatus } from '../enums.js'
import { USER_NAME_MAX, USER_NAME_MIN, USER_NAME_PATTERN, BIO_MAX, REAL_NAME_MAX, STD_NUMBER_MAX, PASSWORD_MIN } from '../limits.js'
import { isEmailLike, isPhoneLike, optionalString, requiredString } from './fields.js'
import { requestResponseOf } from './common.js'

const withCaptcha = { challenge: optionalString() }

/** .NET [EmailAddress]: one '@', neither first nor last, and no line break. */
const isEmailAddress = (s: string): boolean => isEmailLike(s) && !/[\r\n]/.test(s)
/** Longest address the users table stores; longer ones are refused like malformed ones. */
const EMAIL_MAX = 256
/** Longest phone number the users table stores. */
const PHONE_MAX = 64

export const RegisterModel = z.object({
  userName: requiredString('用户名是必需的').min(USER_NAME_MIN, '用户名过短').max(USER_NAME_MAX, '用户名过长'),
  password: requiredString('密码是必需的').min(PASSWORD_MIN, `The field Password must be a string or array type with a minimum length of '${PASSWORD_MIN}'.`),
  email: requiredString('邮箱是必需的').refine((v) => isEmailAddress(v) && v.length <= EMAIL_MAX, '邮箱地址无效'),
  ...withCaptcha,
})
export type RegisterModel = z.infer<typeof RegisterModel>

export const LoginModel = z.object({
  userName: requiredString('The UserName field is required.'),
  password: requiredString('The Password field is required.').min(PASSWORD_MIN, '密码过短'),
  ...withCaptcha,
})
export type LoginModel = z.infer<typeof LoginModel>

export const RecoveryModel = z.object({
  email: requiredString('邮箱是必需的').refine(isEmailAddress, '邮箱地址无效'),
  ...withCaptcha,
})
export type RecoveryModel = z.infer<typeof RecoveryModel>

export const PasswordResetModel = z.object({
  password: requiredString('密码是必需的').min(PASSWORD_MIN, '密码过短'),
  email: requiredString('邮箱是必需的'),
  rToken: requiredString('Token是必需的'),
})
export type PasswordResetModel = z.infer<typeof PasswordResetModel>

export const AccountVerifyModel = z.object({
  token: requiredString('Token是必需的'),
  email: requiredString('邮箱是必需的'),
})
export type AccountVerifyModel = z.infer<typeof AccountVerifyModel>

export const ProfileUpdateModel = z.object({
  userName: optionalString().refine((v) => v === null || v.length >= USER_NAME_MIN, '用户名过短').refine((v) => v === null || v.length <= USER_NAME_MAX, '用户名过长'),
  bio: optionalString().refine((v) => v === null || v.length <= BIO_MAX, '描述过长'),
  phone: optionalString().refine((v) => v === null || (isPhoneLike(v) && v.length <= PHONE_MAX), '手机号格式错误'),
  realName: optionalString().refine((v) => v === null || v.length <= REAL_NAME_MAX, '真实姓名过长'),
  stdNumber: optionalString().refine((v) => v === null || v.length <= STD_NUMBER_MAX, '学工号过长'),
})
export type ProfileUpdateModel = z.infer<typeof ProfileUpdateModel>

export const PasswordChangeModel = z.object({
  old: requiredString('旧密码是必需的').min(PASSWORD_MIN, '旧密码过短'),
  new: requiredString('新密码是必需的').min(PASSWORD_MIN, '新密码过短'),
})
export type PasswordChangeModel = z.infer<typeof PasswordChangeModel>

export const MailChangeModel = z.object({
  newMail: requiredString('邮箱是必需的').refine((v) => isEmailAddress(v) && v.length <= EMAIL_MAX, '邮箱地址无效'),
})
export type MailChangeModel = z.infer<typeof MailChangeModel>

export const ProfileUserInfoModel = z.object({
  userId: z.string(),
  userName: z.string().nullable(),
  email: z.string().nullable(),
  bio: z.string(),
  phone: z.string().nullable(),
  realName: z.string(),
  stdNumber: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(Role).nullable(),
})
export type ProfileUserInfoModel = z.infer<typeof ProfileUserInfoModel>

export const RegisterResponse = requestResponseOf(z.enum(RegisterStatus))
export type RegisterResponse = z.infer<typeof RegisterResponse>

export const MailChangeResponse = requestResponseOf(z.boolean())

/** The user-name character set of ASP.NET Identity's default options (docs/compatibility.md#identity-rules). */
export const isValidUserName = (name: string): boolean => USER_NAME_PATTERN.test(name)

