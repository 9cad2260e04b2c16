/**
 * Two-factor sign-in (docs/architecture.md#two-factor-authentication): TOTP (otplib, RFC 6238,
 * SHA-1, 6 digits, 30 s, ±30 s of clock drift), single-use recovery codes stored as SHA-256, and
 * remembered devices (an HMAC-signed cookie bound to the account's device stamp and secret).
 *
 * Every check of a second factor runs under the user row's lock, in one transaction that also
 * records its outcome: an accepted TOTP code moves `twoFactorLastStep` (the same code, or an older
 * one, is never accepted again), an accepted recovery code leaves the list, and a wrong factor
 * counts towards the account's lockout (5 in a row lock the second factor for 15 minutes, on
 * every node: the count is in the row).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { LockMode } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'
import type { Role } from '@flagwave/shared/enums'
import type { TwoFactorPolicy, TwoFactorProofModel } from '@flagwave/shared/schemas/twoFactor'
import { User } from '../../entities/User.js'
import { AppError, badRequest, tooManyRequests } from '../../lib/errors.js'
import type { Settings } from '../config/settings.js'
import { verifyPassword } from './passwords.js'
import { identityErrors } from './identity.js'
import { tokenSecret } from './tokens.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

const MAX_FAILURES = 5
const LOCKOUT_MS = 15 * 60_000
const RECOVERY_CODES = 10
/** How long the ticket between the password and the second step lives. */
export const TICKET_LIFETIME_MS = 5 * 60_000
/** How long a remembered device skips the second step. */
export const DEVICE_LIFETIME_MS = 30 * 24 * 3600_000

const WRONG_CODE = '验证码错误'
const NOT_ENABLED = '尚未启用两步验证'

/** The policy requires a second factor for `role`. */
const policyRequires = (policy: TwoFactorPolicy, role: Role): boolean => policy === 'Everyone' || (policy === 'Admins' && role === 'Admin')

/** The account must enrol before it may do anything else (docs/architecture.md#two-factor-authentication). */
export const mustEnrol = (settings: Settings, user: Pick<User, 'twoFactorSecret' | 'role'>): boolean => !user.twoFactorSecret && policyRequires(settings.accountPolicy.twoFactorPolicy, user.role)

/** The 403 of an account held at enrolment: the contract's shape plus `twoFactorEnrolmentRequired`. */
export const enrolmentRequired = () => new AppError(403, '请先启用两步验证', 403, { kind: 'request', extra: { twoFactorEnrolmentRequired: true } })

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** Recovery codes are compared without dashes, spaces or case. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase()

function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const hex = randomBytes(5).toString('hex')
    return `${hex.slice(0, 5)}-${hex.slice(5)}`
  })
  return { codes, hashes: codes.map((c) => sha256(normalizeRecoveryCode(c))) }
}

/* ---- signed cookies: the sign-in ticket and remembered devices ---- */

async function mac(em: EntityManager, fields: (string | number)[]): Promise<string> {
  return createHmac('sha256', await tokenSecret(em)).update(fields.join('\n')).digest('base64url')
}

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** `{userId}.{expiry}.{mac}`, the MAC covering `purpose`, the user, the expiry and `bound`. */
async function signFor(em: EntityManager, purpose: string, user: User, bound: string, lifetimeMs: number): Promise<string> {
  const expiry = Date.now() + lifetimeMs
  return `${user.id}.${expiry}.${await mac(em, [purpose, user.id, expiry, bound])}`
}

/** The user a signed value names, once its MAC and expiry are checked with `boundOf(user)`. */
async function openSigned(em: EntityManager, purpose: string, value: string | undefined, boundOf: (user: User) => string | null): Promise<User | null> {
  const [userId, expiryText, given, extra] = (value ?? '').split('.')
  if (!userId || !expiryText || !given || extra !== undefined || !/^\d{1,15}$/.test(expiryText) || Number(expiryText) <= Date.now()) return null
  if (!/^[0-9a-f-]{36}$/.test(userId)) return null
  const user = await em.findOne(User, { id: userId })
  const bound = user && boundOf(user)
  if (!user || bound === null) return null
  return sameMac(given, await mac(em, [purpose, user.id, Number(expiryText), bound])) ? user : null
}

/** What a remembered device is bound to: forgetting devices or re-enrolling voids it. */
const deviceBound = (user: User) => (user.twoFactorSecret ? `${user.twoFactorDeviceStamp}\n${user.twoFactorSecret}` : null)

export const rememberDevice = (em: EntityManager, user: User) => signFor(em, 'flagwave-2fa-device', user, deviceBound(user) ?? '', DEVICE_LIFETIME_MS)

/** Whether the device cookie remembers this browser for `user`. */
export async function deviceRemembered(em: EntityManager, user: User, cookie: string | undefined): Promise<boolean> {
  if (!cookie || !cookie.startsWith(`${user.id}.`)) return false
  return (await openSigned(em, 'flagwave-2fa-device', cookie, deviceBound))?.id === user.id
}

/** The ticket a correct password earns when a second step follows; bound to the security stamp. */
export const signInTicket = (em: EntityManager, user: User) => signFor(em, 'flagwave-2fa-ticket', user, user.securityStamp, TICKET_LIFETIME_MS)
export const openSignInTicket = (em: EntityManager, ticket: string | undefined) => openSigned(em, 'flagwave-2fa-ticket', ticket, (u) => u.securityStamp)

/* ---- checking a second factor ---- */

/**
 * Check `code` (a TOTP code or a recovery code) for `userId` under the row's lock and record the
 * outcome in the same transaction; throws after the commit when it was wrong, so a failure always
 * counts. Returns the locked, updated user.
 */
export async function checkSecondFactor(em: EntityManager, userId: string, code: string): Promise<User> {
  const outcome = await em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    if (!user.twoFactorSecret) return { error: badRequest(NOT_ENABLED) }
    const now = Date.now()
    if (user.twoFactorLockedUntil && user.twoFactorLockedUntil.getTime() > now) {
      return { error: tooManyRequests('两步验证失败次数过多，请稍后再试', Math.ceil((user.twoFactorLockedUntil.getTime() - now) / 1000)) }
    }
    if (await acceptFactor(user, code)) {
      user.twoFactorFailures = 0
      user.twoFactorLockedUntil = null
      return { user }
    }
    user.twoFactorFailures += 1
    if (user.twoFactorFailures >= MAX_FAILURES) {
      user.twoFactorFailures = 0
      user.twoFactorLockedUntil = new Date(now + LOCKOUT_MS)
    }
    return { error: badRequest(WRONG_CODE) }
  })
  if ('error' in outcome) throw outcome.error
  return outcome.user
}

/** Accept a TOTP code newer than the last accepted one, or an unused recovery code (which is used up). */
async function acceptFactor(user: User, code: string): Promise<boolean> {
  const compact = code.replace(/\s+/g, '')
  if (/^\d{6}$/.test(compact)) {
    const step = await totpStep(user.twoFactorSecret!, compact, user.twoFactorLastStep)
    if (step === null) return false
    user.twoFactorLastStep = step
    return true
  }
  const hash = sha256(normalizeRecoveryCode(code))
  if (!user.twoFactorRecoveryCodes.includes(hash)) return false
  user.twoFactorRecoveryCodes = user.twoFactorRecoveryCodes.filter((h) => h !== hash)
  return true
}

/** The time step `code` belongs to, when it is valid now and newer than `afterStep`. */
async function totpStep(secret: string, code: string, afterStep: number): Promise<number | null> {
  try {
    const result = await verify({ secret, token: code, epochTolerance: 30, ...(afterStep > 0 ? { afterTimeStep: afterStep } : {}) })
    return result.valid && 'timeStep' in result ? result.timeStep : null
  } catch {
    return null
  }
}

/* ---- commands of /api/account/2fa ---- */

export interface TwoFactorStatus {
  enabled: boolean
  pending: boolean
  recoveryCodesLeft: number
  required: boolean
  deviceRemembered: boolean
}

export async function twoFactorStatus(scope: Scope, user: User, deviceCookie: string | undefined): Promise<TwoFactorStatus> {
  const settings = await scope.services.settings.get(scope.em)
  return {
    enabled: user.twoFactorSecret !== null,
    pending: user.twoFactorPendingSecret !== null,
    recoveryCodesLeft: user.twoFactorRecoveryCodes.length,
    required: policyRequires(settings.accountPolicy.twoFactorPolicy, user.role),
    deviceRemembered: await deviceRemembered(scope.em, user, deviceCookie),
  }
}

export interface Enrolment {
  secret: string
  otpauthUrl: string
  qrCode: string
}

/** Begin (or restart) enrolment: a new secret, kept aside until a code from it is confirmed. */
export async function beginEnrolment(scope: Scope, actor: Actor): Promise<Enrolment> {
  const user = actor.user
  if (user.twoFactorSecret) throw badRequest('两步验证已启用')
  const secret = generateSecret()
  user.twoFactorPendingSecret = secret
  await scope.em.flush()
  const { title } = (await scope.services.settings.get(scope.em)).globalConfig
  const otpauthUrl = generateURI({ issuer: `${title || 'Flagwave'} CTF`, label: user.userName, secret })
  return { secret, otpauthUrl, qrCode: await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 }) }
}

/** Confirm enrolment with a code of the pending secret: two-factor is on; answers the recovery codes. */
export async function confirmEnrolment(scope: Scope, actor: Actor, code: string): Promise<string[]> {
  const recovery = newRecoveryCodes()
  const confirmed = await scope.em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: actor.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    if (user.twoFactorSecret) throw badRequest('两步验证已启用')
    if (!user.twoFactorPendingSecret) throw badRequest('请先开始启用两步验证')
    const step = await totpStep(user.twoFactorPendingSecret, code, 0)
    if (step === null) return false
    user.twoFactorSecret = user.twoFactorPendingSecret
    user.twoFactorPendingSecret = null
    user.twoFactorLastStep = step
    user.twoFactorRecoveryCodes = recovery.hashes
    user.twoFactorDeviceStamp = randomBytes(8).toString('hex')
    user.twoFactorFailures = 0
    user.twoFactorLockedUntil = null
    return true
  })
  if (!confirmed) throw badRequest(WRONG_CODE)
  await scope.services.audit.success(actor, '启用两步验证')
  return recovery.codes
}

/** Password first (the lockout of wrong codes must not be reachable without it), then a second factor. */
async function proveOwnership(scope: Scope, actor: Actor, proof: TwoFactorProofModel): Promise<void> {
  if (!actor.user.twoFactorSecret) throw badRequest(NOT_ENABLED)
  if (!(await verifyPassword(actor.user.passwordHash, proof.password))) throw badRequest(identityErrors.passwordMismatch)
  await checkSecondFactor(scope.em, actor.user.id, proof.code)
}

/** Turn two-factor off (password and a current factor); refused while the policy requires it. */
export async function disableTwoFactor(scope: Scope, actor: Actor, proof: TwoFactorProofModel): Promise<void> {
  const settings = await scope.services.settings.get(scope.em)
  if (policyRequires(settings.accountPolicy.twoFactorPolicy, actor.user.role)) throw badRequest('站点策略要求启用两步验证，无法关闭')
  await proveOwnership(scope, actor, proof)
  await scope.em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: actor.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    user.twoFactorSecret = null
    user.twoFactorPendingSecret = null
    user.twoFactorRecoveryCodes = []
    user.twoFactorDeviceStamp = randomBytes(8).toString('hex')
  })
  await scope.services.audit.success(actor, '关闭两步验证', 'Warning')
}

/** New recovery codes (password and a current factor); the old ones stop working. */
export async function regenerateRecoveryCodes(scope: Scope, actor: Actor, proof: TwoFactorProofModel): Promise<string[]> {
  await proveOwnership(scope, actor, proof)
  const recovery = newRecoveryCodes()
  await scope.em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: actor.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    user.twoFactorRecoveryCodes = recovery.hashes
  })
  await scope.services.audit.success(actor, '重新生成两步验证恢复码')
  return recovery.codes
}

/** Forget every remembered device of the caller: their next sign-in asks for a code again. */
export async function forgetDevices(scope: Scope, actor: Actor): Promise<void> {
  if (!actor.user.twoFactorSecret) throw badRequest(NOT_ENABLED)
  actor.user.twoFactorDeviceStamp = randomBytes(8).toString('hex')
  await scope.em.flush()
  await scope.services.audit.success(actor, '清除两步验证的受信任设备')
}
