/**
 * Platform configuration (docs/compatibility.md#configuration-shapes, #group-admin, #group-info).
 * Response shapes are `AccountPolicy`, `GlobalConfig`, `GamePolicy`, `ConfigEditModel`,
 * `ClientCaptchaInfoModel`; the `PUT /api/admin/config` body is `ConfigEditInput`, where a
 * null section and, inside a section, a null or omitted leaf mean "keep the stored value".
 */
import { z } from 'zod'
import { CaptchaProvider } from '../enums.js'
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
 * responses, hence the parse default `null`. `logoHash`/`faviconHash` are newer GZ::CTF's (the
 * organiser's logo and the favicon made from it, `/assets/{hash}/…`; null = none), set only by
 * `POST/DELETE /api/admin/config/logo`; absent in v0.17.6 responses, hence the parse default `null`.
 */
export const GlobalConfig = z.object({
  title: z.string(),
  slogan: z.string(),
  footerInfo: z.string().nullable(),
  beianInfo: z.string().nullable().default(null),
  logoHash: z.string().nullable().default(null),
  faviconHash: z.string().nullable().default(null),
})
export type GlobalConfig = z.infer<typeof GlobalConfig>

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
 * Server defaults of each section (docs/compatibility.md#configuration-shapes). The title is the
 * product's own name and the Chinese slogan says what it is (docs/compatibility.md#defaults-and-build-information).
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
  title: 'Flagwave',
  slogan: '实时推送的 CTF 竞赛平台',
  footerInfo: null,
  beianInfo: null,
  logoHash: null,
  faviconHash: null,
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

/** `footerInfo: null` does not clear the footer (send `""`); the same holds for `beianInfo`. `logoHash`/`faviconHash` are not taken here (the logo routes set them). */
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
