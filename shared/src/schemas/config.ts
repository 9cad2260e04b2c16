/**
 * Platform configuration (docs/compatibility.md#configuration-shapes, #group-admin, #group-info).
 * Response shapes are `AccountPolicy`, `GlobalConfig`, `GamePolicy`, `ConfigEditModel`,
 * `ClientCaptchaInfoModel`; the `PUT /api/admin/config` body is `ConfigEditInput`, where a
 * null section and, inside a section, a null or omitted leaf mean "keep the stored value".
 */
import { z } from 'zod'
import { CaptchaProvider, PortMapping } from '../enums.js'
import { CONTAINER_LIFETIME_MS, CONTAINER_PROLONG_WINDOW_MS } from '../limits.js'
import { intOut, keep, optionalString, wireBool, wireInt } from './fields.js'
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

/**
 * GZ::CTF 0.18+'s `containerPolicy` (docs/compatibility.md#newer-gzctf-versions): `gamePolicy`'s switch plus the
 * container times in minutes, which are fixed in Flagwave (a prolong adds a full lifetime inside the
 * renewal window), and the exercise container cap, which has no effect: Flagwave has no exercises.
 */
const ContainerPolicy = GamePolicy.extend({
  maxExerciseContainerCountPerUser: intOut(),
  defaultLifetime: intOut(),
  extensionDuration: intOut(),
  renewalWindow: intOut(),
})

const MINUTE_MS = 60_000
/** The fixed members of `containerPolicy`, also the only values its request accepts. */
export const FIXED_CONTAINER_POLICY = Object.freeze({
  maxExerciseContainerCountPerUser: 1,
  defaultLifetime: CONTAINER_LIFETIME_MS / MINUTE_MS,
  extensionDuration: CONTAINER_LIFETIME_MS / MINUTE_MS,
  renewalWindow: CONTAINER_PROLONG_WINDOW_MS / MINUTE_MS,
})

/**
 * The admin view of GlobalConfig with GZ::CTF 1.x's other members beside it, neutral because
 * Flagwave does not have their features: `description`, `customTheme` null, `apiEncryption` false.
 */
const AdminGlobalConfig = GlobalConfig.extend({
  description: z.string().nullable(),
  customTheme: z.string().nullable(),
  apiEncryption: z.boolean(),
})

/** Response of `GET /api/admin/config` (every section is non-null there in practice); `containerPolicy` is GZ::CTF 0.18's. */
export const ConfigEditModel = z.object({
  accountPolicy: AccountPolicy.nullable(),
  globalConfig: AdminGlobalConfig.nullable(),
  gamePolicy: GamePolicy.nullable(),
  containerPolicy: ContainerPolicy.nullable(),
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

/** An optional text member of a feature Flagwave does not have: null or empty only. */
const absentText = (message: string) => optionalString().refine((v) => v === null || v === '', message)

/**
 * `footerInfo: null` does not clear the footer (send `""`); the same holds for `beianInfo`. GZ::CTF
 * 1.x's members are accepted with the neutral values a newer client sends back; any other value is
 * refused rather than dropped (docs/compatibility.md#newer-gzctf-versions). `logoHash`/`faviconHash`
 * are read back and sent again by newer clients: accepted and ignored, only the logo routes set them.
 */
const GlobalConfigInput = z.object({
  title: optionalString(),
  slogan: optionalString(),
  footerInfo: optionalString(),
  beianInfo: optionalString(),
  description: absentText('不支持平台描述'),
  customTheme: absentText('不支持自定义主题'),
  logoHash: optionalString(),
  faviconHash: optionalString(),
  apiEncryption: keep(wireBool()).refine((v) => v !== true, '不支持载荷加密'),
})

const GamePolicyInput = z.object({
  autoDestroyOnLimitReached: keep(wireBool()),
})

/** A fixed `containerPolicy` member: absent, null or its fixed value. */
const fixedInt = (value: number, message: string) => keep(wireInt()).refine((v) => v === null || v === value, message)

/** GZ::CTF 0.18's name of `gamePolicy`, whose switch it carries (it wins when both are sent). */
const ContainerPolicyInput = GamePolicyInput.extend({
  maxExerciseContainerCountPerUser: fixedInt(FIXED_CONTAINER_POLICY.maxExerciseContainerCountPerUser, '不支持练习容器'),
  defaultLifetime: fixedInt(FIXED_CONTAINER_POLICY.defaultLifetime, '容器时长不可修改'),
  extensionDuration: fixedInt(FIXED_CONTAINER_POLICY.extensionDuration, '容器时长不可修改'),
  renewalWindow: fixedInt(FIXED_CONTAINER_POLICY.renewalWindow, '容器时长不可修改'),
})

/** Body of `PUT /api/admin/config`: a null or omitted section is left untouched. */
export const ConfigEditInput = z.object({
  accountPolicy: keep(AccountPolicyInput),
  globalConfig: keep(GlobalConfigInput),
  gamePolicy: keep(GamePolicyInput),
  containerPolicy: keep(ContainerPolicyInput),
})
export type ConfigEditInput = z.infer<typeof ConfigEditInput>
