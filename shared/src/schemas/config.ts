/**
 * Platform configuration (docs/compatibility.md#configuration-shapes, #group-admin, #group-info).
 * Response shapes are `AccountPolicy`, `GlobalConfig`, `GamePolicy`, `ConfigEditModel`,
 * `ClientCaptchaInfoModel`; the `PUT /api/admin/config` body is `ConfigEditInput`, where a
 * null section and, inside a section, a null or omitted leaf mean "keep the stored value".
 */
import { z } from 'zod'
import { CaptchaProvider, PortMapping } from '../enums.js'
import { keep, optionalString, wireBool } from './fields.js'
import { TwoFactorPolicy } from './twoFactor.js'

export const AccountPolicy = z.object({
  allowRegister: z.boolean(),
  activeOnRegister: z.boolean(),
  useCaptcha: z.boolean(),
  emailConfirmationRequired: z.boolean(),
  emailDomainList: z.string(),
  /** Flagwave extension: who must sign in with a second factor (docs/compatibility.md#two-factor-authentication); absent in GZ::CTF responses. */
  twoFactorPolicy: TwoFactorPolicy.default('Off'),
})
export type AccountPolicy = z.infer<typeof AccountPolicy>

/**
 * Public configuration, also the body of `GET /api/config`.
 * Flagwave extension: `beianInfo` (ICP filing text shown in the footer); absent in GZ::CTF
 * responses, hence the parse default `null`.
 */
export const GlobalConfig = z.object({
  title: z.string(),
  slogan: z.string(),
  footerInfo: z.string().nullable(),
  beianInfo: z.string().nullable().default(null),
})
export type GlobalConfig = z.infer<typeof GlobalConfig>

/**
 * `GET /api/config`: GlobalConfig plus the members GZ::CTF 0.19–1.4 added
 * (docs/compatibility.md#newer-gzctf-versions): container lifetimes in minutes, the port mapping, and the
 * theme, logo and encryption key with neutral values until their features exist.
 */
export const ClientConfig = GlobalConfig.extend({
  defaultLifetime: z.number().int(),
  extensionDuration: z.number().int(),
  renewalWindow: z.number().int(),
  customTheme: z.string().nullable(),
  logoUrl: z.string().nullable(),
  portMapping: z.enum(PortMapping),
  apiPublicKey: z.string().nullable(),
})
export type ClientConfig = z.infer<typeof ClientConfig>

export const GamePolicy = z.object({
  autoDestroyOnLimitReached: z.boolean(),
})
export type GamePolicy = z.infer<typeof GamePolicy>

/** Response of `GET /api/admin/config` (all three sections are non-null there in practice). */
export const ConfigEditModel = z.object({
  accountPolicy: AccountPolicy.nullable(),
  globalConfig: GlobalConfig.nullable(),
  gamePolicy: GamePolicy.nullable(),
})
export type ConfigEditModel = z.infer<typeof ConfigEditModel>

export const ClientCaptchaInfoModel = z.object({
  type: z.enum(CaptchaProvider),
  siteKey: z.string(),
})
export type ClientCaptchaInfoModel = z.infer<typeof ClientCaptchaInfoModel>

/**
 * Server defaults of each section (docs/compatibility.md#configuration-shapes). The slogan follows docs/compatibility.md#defaults-and-build-information (a Chinese slogan),
 * the Chinese form of the reference's "Hack for fun not for profit".
 */
export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = Object.freeze({
  allowRegister: true,
  activeOnRegister: true,
  useCaptcha: false,
  emailConfirmationRequired: false,
  emailDomainList: '',
  twoFactorPolicy: 'Off',
})
export const DEFAULT_GLOBAL_CONFIG: GlobalConfig = Object.freeze({
  title: 'GZ',
  slogan: '黑客为乐，不为牟利',
  footerInfo: null,
  beianInfo: null,
})
export const DEFAULT_GAME_POLICY: GamePolicy = Object.freeze({ autoDestroyOnLimitReached: false })

/* ---- request variants of `PUT /api/admin/config`: every leaf null/omitted = keep ---- */

const AccountPolicyInput = z.object({
  allowRegister: keep(wireBool()),
  activeOnRegister: keep(wireBool()),
  useCaptcha: keep(wireBool()),
  emailConfirmationRequired: keep(wireBool()),
  emailDomainList: optionalString(),
  twoFactorPolicy: keep(TwoFactorPolicy),
})

/** `footerInfo: null` does not clear the footer (send `""`); the same holds for `beianInfo`. */
const GlobalConfigInput = z.object({
  title: optionalString(),
  slogan: optionalString(),
  footerInfo: optionalString(),
  beianInfo: optionalString(),
})

const GamePolicyInput = z.object({
  autoDestroyOnLimitReached: keep(wireBool()),
})

/** Body of `PUT /api/admin/config`: a null or omitted section is left untouched. */
export const ConfigEditInput = z.object({
  accountPolicy: keep(AccountPolicyInput),
  globalConfig: keep(GlobalConfigInput),
  gamePolicy: keep(GamePolicyInput),
})
export type ConfigEditInput = z.infer<typeof ConfigEditInput>
