/**
 * The ASP.NET Identity rules that surface as errors (docs/compatibility.md#identity-rules): user-name charset and
 * uniqueness, e-mail validity and uniqueness, compared through the normalized (upper-case)
 * columns so that look-ups ignore letter case. When Identity rejects an operation the endpoint
 * answers 400 with the first error's description as title; these functions return that text.
 *
 * Shared with the admin user endpoints (create / edit users).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { isEmailLike } from '@flagwave/shared/schemas/fields'
import { USER_NAME_PATTERN } from '@flagwave/shared/limits'
import { User } from '../../entities/User.js'
import { passwordPolicyError } from './passwords.js'

/** What the domain needs to know about the request it acts for. */
export interface RequestInfo {
  ip: string
  userAgent: string
  /** `{scheme}://{host}` of the request, for links in e-mails (docs/compatibility.md#group-account). */
  origin: string
}

/** Identity's lookup normalizer: Unicode NFC, then upper case. */
export const normalizeKey = (value: string): string => value.normalize('NFC').toUpperCase()

/** Longest e-mail address the `users.email` column holds. */
const EMAIL_MAX_LENGTH = 256

/** Identity error descriptions (docs/compatibility.md#identity-rules). */
export const identityErrors = {
  duplicateUserName: (name: string) => `用户名 ${name} 已存在`,
  duplicateEmail: (email: string) => `邮箱地址 ${email} 已存在`,
  invalidUserName: (name: string) => `用户名 ${name} 无效`,
  invalidEmail: (email: string) => `邮箱地址 ${email} 无效`,
  invalidToken: '验证码无效',
  passwordMismatch: '密码输入错误',
  unknown: '未知错误',
} as const

/**
 * .NET's [EmailAddress] (one '@', not first or last, no line breaks) and our column size — for the
 * normalised copy too, since upper-casing may lengthen a text (ß → SS; docs/compatibility.md#storage-bounds).
 */
export const isValidEmail = (email: string): boolean =>
  isEmailLike(email) && !/[\r\n]/.test(email) && email.length <= EMAIL_MAX_LENGTH && normalizeKey(email).length <= EMAIL_MAX_LENGTH

export const findByUserName = (em: EntityManager, userName: string): Promise<User | null> =>
  em.findOne(User, { normalizedUserName: normalizeKey(userName) })

export const findByEmail = (em: EntityManager, email: string): Promise<User | null> => (email ? em.findOne(User, { normalizedEmail: normalizeKey(email) }) : Promise.resolve(null))

/**
 * Identity's UserValidator: the user name first (empty or outside `A-Z a-z 0-9 - . _ @ +` →
 * invalid, else taken by another account → duplicate), then the e-mail. Returns the first error.
 * A user name that is another account's e-mail address counts as taken, so that nobody can
 * stand in the way of that account's sign-in (docs/compatibility.md#identity-rules).
 */
export async function userValidationError(em: EntityManager, user: { id?: string; userName: string; email: string }): Promise<string | null> {
  const { userName, email } = user
  if (!userName.trim() || !USER_NAME_PATTERN.test(userName)) return identityErrors.invalidUserName(userName)
  const nameOwner = await findByUserName(em, userName)
  if (nameOwner && nameOwner.id !== user.id) return identityErrors.duplicateUserName(userName)
  const addressOwner = isEmailLike(userName) ? await findByEmail(em, userName) : null
  if (addressOwner && addressOwner.id !== user.id) return identityErrors.duplicateUserName(userName)
  if (!email.trim() || !isValidEmail(email)) return identityErrors.invalidEmail(email)
  const emailOwner = await findByEmail(em, email)
  if (emailOwner && emailOwner.id !== user.id) return identityErrors.duplicateEmail(email)
  return null
}

/** Identity's CreateAsync(user, password): the password policy first, then the user validator. */
export async function creationError(em: EntityManager, user: { userName: string; email: string }, password: string): Promise<string | null> {
  return passwordPolicyError(password) ?? (await userValidationError(em, user))
}

/** A unique-index violation on users raced past the checks above: report it the way Identity would. */
export function uniqueViolationTitle(err: unknown, user: { userName: string; email: string }): string | null {
  if (!(err instanceof UniqueConstraintViolationException)) return null
  return /email/i.test(err.message) ? identityErrors.duplicateEmail(user.email) : identityErrors.duplicateUserName(user.userName)
}

/** Standard Base64 (strict, as .NET's Convert.FromBase64String) to UTF-8; "" when it does not decode. */
export function decodeBase64Text(value: string): string {
  const s = base64Input(value)
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return ''
  return Buffer.from(s, 'base64').toString('utf8')
}

export const encodeBase64Text = (value: string): string => Buffer.from(value, 'utf8').toString('base64')

/**
 * Base64 as it arrives from a link: a client that reads the query with URLSearchParams turns
 * the unescaped `+` into a space, and a valid Base64 text never holds a space, so spaces are
 * read back as `+`; other white space is dropped.
 */
export const base64Input = (value: string): string => value.replace(/ /g, '+').replace(/\s+/g, '')
