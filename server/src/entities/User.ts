import { defineEntity, p } from '@mikro-orm/core'
import { Role } from '@flagwave/shared/enums'

/** A platform account. Identity-style normalized columns keep names and e-mails unique regardless of case. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    userName: p.string().length(64),
    normalizedUserName: p.string().length(64).unique(),
    email: p.string().length(256),
    normalizedEmail: p.string().length(256).unique(),
    emailConfirmed: p.boolean().default(false),
    passwordHash: p.text(),
    /** Changes on password, e-mail and role changes; sessions minted under an older stamp are void. */
    securityStamp: p.string().length(64),
    role: p.enum(Role).default('User'),
    bio: p.string().length(64).default(''),
    phone: p.string().length(64).nullable(),
    realName: p.string().length(16).default(''),
    stdNumber: p.string().length(32).default(''),
    avatarHash: p.string().length(64).nullable(),
    registerTime: p.datetime().defaultRaw("'1970-01-01T00:00:00Z'").onCreate(() => new Date(0)),
    lastVisited: p.datetime().defaultRaw("'1970-01-01T00:00:00Z'").onCreate(() => new Date(0)),
    lastSignIn: p.datetime().defaultRaw("'1970-01-01T00:00:00Z'").onCreate(() => new Date(0)),
    ip: p.string().length(64).default('0.0.0.0'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Two-factor sign-in (docs/architecture.md#two-factor-authentication): the TOTP secret (Base32) once confirmed. */
    twoFactorSecret: p.string().length(64).nullable(),
    /** A secret shown for enrolment and not confirmed yet. */
    twoFactorPendingSecret: p.string().length(64).nullable(),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    twoFactorLastStep: p.integer().default(0),
    /** SHA-256 of each unused recovery code. */
    twoFactorRecoveryCodes: p.array().default([]),
    /** Part of every remembered-device cookie's MAC: a new value forgets every remembered device. */
    twoFactorDeviceStamp: p.string().length(32).default(''),
    /** Consecutive wrong second factors, and the end of the lockout they caused. */
    twoFactorFailures: p.integer().default(0),
    twoFactorLockedUntil: p.datetime().nullable(),
  },
})
export class User extends UserSchema.class {}
UserSchema.setClass(User)
