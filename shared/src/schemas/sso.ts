/**
 * Single sign-on with OpenID Connect, a Flagwave addition (docs/compatibility.md#single-sign-on).
 * Providers are configured by admins (`/api/admin/sso`), listed by name for the sign-in page
 * (`GET /api/account/sso`), and linked to accounts (`/api/account/identities`).
 */
import { z } from 'zod'

/** A provider's id: the `{provider}` path segment of its routes and redirect URI. */
export const SsoProviderId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, '标识只能包含小写字母、数字和连字符，至多 32 个字符')

/**
 * Why a sign-in through a provider ended on the sign-in page (`/account/login?ssoError=…`);
 * the client shows a message for each.
 */
export const SsoErrorCode = [
  'unknown_provider',
  'provider_unavailable',
  'invalid_state',
  'denied',
  'exchange_failed',
  'email_unverified',
  'email_domain',
  'registration_disabled',
  'pending_approval',
  'banned',
  'identity_taken',
  'already_linked',
  'account_conflict',
] as const
export type SsoErrorCode = (typeof SsoErrorCode)[number]

/** `GET /api/account/sso`: what the sign-in page needs — names only. */
export const SsoInfoModel = z.object({
  /** Password sign-in and registration are refused (docs/compatibility.md#single-sign-on). */
  ssoOnly: z.boolean(),
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
})
export type SsoInfoModel = z.infer<typeof SsoInfoModel>

/** `GET /api/account/sso/{provider}` and the link route: where to come back to after the provider. */
export const SsoStartQuery = z.object({
  returnTo: z.string().max(512, '地址过长').optional(),
})

/** `POST /api/account/sso/{provider}/link`: the provider's authorization URL for the browser to open. */
export const SsoLinkResponse = z.object({ url: z.string() })
export type SsoLinkResponse = z.infer<typeof SsoLinkResponse>

/** `GET /api/account/identities`: the caller's linked identities. */
export const SsoIdentityModel = z.object({
  provider: z.string(),
  providerName: z.string(),
  email: z.string(),
  linkedAt: z.string(),
  lastUsed: z.string().nullable(),
})
export type SsoIdentityModel = z.infer<typeof SsoIdentityModel>

const commaList = (max: number) => z.string().max(max, `列表至多 ${max} 个字符`)

/** `PUT /api/admin/sso/providers/{provider}`: replace a provider's settings; a null secret keeps the stored one. */
export const SsoProviderInput = z.object({
  name: z.string().trim().min(1, '名称是必需的').max(64, '名称过长'),
  issuer: z.url({ protocol: /^https?$/, error: '发行者地址无效' }).max(512, '发行者地址过长'),
  clientId: z.string().min(1, '客户端 ID 是必需的').max(256, '客户端 ID 过长'),
  clientSecret: z.string().max(1024, '客户端密钥过长').nullish(),
  scopes: z
    .string()
    .max(256, '范围过长')
    .regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, '范围之间用一个空格分隔')
    .default('openid email profile'),
  /** The claim holding the user's groups or roles (`groups`); empty = no role mapping. */
  roleClaim: z.string().max(64, '声明名称过长').default(''),
  /** Comma-separated claim values that make an Admin, and a Monitor. */
  adminValues: commaList(512).default(''),
  monitorValues: commaList(512).default(''),
  /** Comma-separated e-mail domains allowed through this provider; empty = any. */
  allowedDomains: commaList(512).default(''),
  enabled: z.boolean().default(true),
})
export type SsoProviderInput = z.input<typeof SsoProviderInput>
export type SsoProviderSettings = z.output<typeof SsoProviderInput>

/** `POST /api/admin/sso/providers`: a new provider, with its id. */
export const SsoProviderCreateInput = SsoProviderInput.extend({ id: SsoProviderId })
export type SsoProviderCreateInput = z.input<typeof SsoProviderCreateInput>

/** A provider as the admin screen shows it: never the secret. */
export const SsoProviderAdminModel = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  hasSecret: z.boolean(),
  scopes: z.string(),
  roleClaim: z.string(),
  adminValues: z.string(),
  monitorValues: z.string(),
  allowedDomains: z.string(),
  enabled: z.boolean(),
  /** What to register at the provider: built from PUBLIC_URL. */
  redirectUri: z.string(),
})
export type SsoProviderAdminModel = z.infer<typeof SsoProviderAdminModel>

/** `GET /api/admin/sso`. */
export const SsoAdminModel = z.object({
  ssoOnly: z.boolean(),
  providers: z.array(SsoProviderAdminModel),
})
export type SsoAdminModel = z.infer<typeof SsoAdminModel>

/** `PUT /api/admin/sso`: the policy. */
export const SsoPolicyInput = z.object({ ssoOnly: z.boolean({ error: 'ssoOnly 必须是布尔值' }) })
export type SsoPolicyInput = z.input<typeof SsoPolicyInput>
