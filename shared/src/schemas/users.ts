/** User shapes of the admin views (docs/compatibility.md#user-shapes). */
import { z } from 'zod'
import { Role, wireEnum } from '../enums.js'
import {
  ADMIN_BIO_MAX,
  CREATE_STD_NUMBER_MAX,
  EMAIL_MAX,
  PASSWORD_MIN,
  PHONE_MAX,
  REAL_NAME_MAX,
  STD_NUMBER_MAX,
  TEAM_NAME_MAX,
  USER_NAME_MAX,
  USER_NAME_MIN,
} from '../limits.js'
import { isEmailLike, isPhoneLike, keep, optionalMaxString, optionalString, requiredString, wireBool, wireDateOut } from './fields.js'
import { queryString } from './common.js'

/** Response: one user in the admin lists. */
export const UserInfoModel = z.object({
  id: z.string(),
  userName: z.string().nullable(),
  realName: z.string(),
  stdNumber: z.string(),
  phone: z.string().nullable(),
  bio: z.string(),
  registerTimeUTC: wireDateOut(),
  lastVisitedUTC: wireDateOut(),
  ip: z.string(),
  /** GZ::CTF 0.18's names, same values. */
  registerTimeUtc: wireDateOut(),
  lastVisitedUtc: wireDateOut(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  role: z.enum(Role).nullable(),
  emailConfirmed: z.boolean().nullable(),
})
export type UserInfoModel = z.infer<typeof UserInfoModel>

/** Request: one element of the `POST /api/admin/users` array. */
export const UserCreateModel = z.object({
  userName: requiredString('用户名是必需的').min(USER_NAME_MIN, '用户名过短').max(USER_NAME_MAX, '用户名过长'),
  password: requiredString('密码是必需的').min(PASSWORD_MIN, `The field Password must be a string or array type with a minimum length of '${PASSWORD_MIN}'.`),
  email: requiredString('邮箱是必需的').refine(isEmailLike, '邮箱地址无效').max(EMAIL_MAX, '邮箱地址无效'),
  realName: optionalMaxString(REAL_NAME_MAX, '真实姓名过长'),
  stdNumber: optionalMaxString(CREATE_STD_NUMBER_MAX, '学工号过长'),
  phone: optionalString().refine((v) => v === null || (isPhoneLike(v) && v.length <= PHONE_MAX), '手机号格式错误'),
  teamName: optionalMaxString(TEAM_NAME_MAX, '队伍名称过长'),
})
export type UserCreateModel = z.infer<typeof UserCreateModel>

/** Request body of `POST /api/admin/users`. */
export const UserCreateModelList = z.array(UserCreateModel)
export type UserCreateModelList = z.infer<typeof UserCreateModelList>

/** Request of `PUT /api/admin/users/{userid}`: every member optional, null keeps. */
export const AdminUserInfoModel = z.object({
  userName: optionalString()
    .refine((v) => v === null || v.length >= USER_NAME_MIN, '用户名过短')
    .refine((v) => v === null || v.length <= USER_NAME_MAX, '用户名过长'),
  email: optionalString()
    .refine((v) => v === null || isEmailLike(v), '邮箱格式错误')
    .refine((v) => v === null || v.length <= EMAIL_MAX, '邮箱格式错误'),
  bio: optionalMaxString(ADMIN_BIO_MAX, '描述过长'),
  phone: optionalString().refine((v) => v === null || (isPhoneLike(v) && v.length <= PHONE_MAX), '手机号格式错误'),
  realName: optionalMaxString(REAL_NAME_MAX, '真实姓名过长'),
  stdNumber: optionalMaxString(STD_NUMBER_MAX, '学工号过长'),
  emailConfirmed: keep(wireBool()),
  role: keep(wireEnum(Role)),
})
export type AdminUserInfoModel = z.infer<typeof AdminUserInfoModel>

/**
 * Query of `POST /api/admin/users/search` and `POST /api/admin/teams/search`: `hint` is required;
 * missing or empty → `The hint field is required.` (docs/compatibility.md#group-admin). A repeated parameter uses its first value.
 */
export const SearchHintQuery = z.object({
  hint: queryString().transform((value, ctx) => {
    if (value === undefined || value === '') {
      ctx.addIssue({ code: 'custom', message: 'The hint field is required.' })
      return z.NEVER
    }
    return value
  }),
})
export type SearchHintQuery = z.infer<typeof SearchHintQuery>
