/**
 * API tokens (docs/compatibility.md#api-tokens): Flagwave's scoped tokens of `/api/account/tokens`
 * and GZ::CTF 1.5's admin tokens of `/api/tokens`. Secrets appear only in the answer that creates
 * them.
 */
import { z } from 'zod'
import { wireDateOut } from './fields.js'

/**
 * What a token may do. `read` = every GET a signed-in user may make (game data, scoreboard,
 * profile); `submit` = `read` + submitting flags for the owner's team; `monitor` = `read` + the
 * Monitor routes and hub; `admin` = everything the owner's role allows. A token never exceeds its
 * owner's current role.
 */
export const TOKEN_SCOPES = ['read', 'submit', 'monitor', 'admin'] as const
export const TokenScope = z.enum(TOKEN_SCOPES)
export type TokenScope = z.infer<typeof TokenScope>

const TOKEN_NAME_MAX = 64
/** Longest lifetime of a Flagwave token, in days. */
const TOKEN_LIFETIME_MAX_DAYS = 365

const tokenName = z
  .string({ error: '令牌名称不能为空' })
  .trim()
  .min(1, '令牌名称不能为空')
  .max(TOKEN_NAME_MAX, `令牌名称不能超过 ${TOKEN_NAME_MAX} 个字符`)

/** Body of `POST /api/account/tokens`. `expiresInDays` null or absent = never expires. */
export const TokenCreateModel = z.object({
  name: tokenName,
  scopes: z.array(z.enum(TOKEN_SCOPES, { error: '令牌权限无效' }), { error: '令牌权限无效' }).min(1, '请至少选择一项令牌权限').max(TOKEN_SCOPES.length, '令牌权限无效'),
  expiresInDays: z
    .number({ error: '有效期无效' })
    .int('有效期无效')
    .min(1, '有效期无效')
    .max(TOKEN_LIFETIME_MAX_DAYS, `有效期不能超过 ${TOKEN_LIFETIME_MAX_DAYS} 天`)
    .nullish()
    .transform((v) => v ?? null),
})
export type TokenCreateModel = z.infer<typeof TokenCreateModel>

/** One of the caller's tokens (`GET /api/account/tokens`); never its secret. */
export const TokenInfoModel = z.object({
  id: z.string(),
  name: z.string(),
  /** `Flagwave` (scoped) or `GzCtf` (an admin token of `/api/tokens`). */
  kind: z.enum(['Flagwave', 'GzCtf']),
  scopes: z.array(TokenScope),
  createdAt: wireDateOut(),
  expiresAt: wireDateOut().nullable(),
  lastUsedAt: wireDateOut().nullable(),
  revoked: z.boolean(),
})
export type TokenInfoModel = z.infer<typeof TokenInfoModel>

/** Answer of `POST /api/account/tokens`: the token and, this once, its secret. */
export const TokenCreatedModel = TokenInfoModel.extend({ token: z.string() })
export type TokenCreatedModel = z.infer<typeof TokenCreatedModel>

/* ---- GZ::CTF 1.5 `/api/tokens` (admin) ---- */

/** Body of `POST /api/tokens`: `expiresIn` in days, absent/null/0 = never. */
export const GzTokenCreateModel = z.object({
  name: tokenName,
  expiresIn: z
    .number({ error: '有效期无效' })
    .int('有效期无效')
    .min(0, '有效期无效')
    .max(36500, '有效期无效')
    .nullish()
    .transform((v) => v ?? null),
})
export type GzTokenCreateModel = z.infer<typeof GzTokenCreateModel>

/** An item of `GET /api/tokens`. */
export const GzTokenModel = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: wireDateOut(),
  expiresAt: wireDateOut().nullable(),
  lastUsedAt: wireDateOut().nullable(),
  isRevoked: z.boolean(),
  creatorId: z.string().nullable(),
  creatorName: z.string().nullable(),
})
export type GzTokenModel = z.infer<typeof GzTokenModel>

/** Answer of `POST /api/tokens`. */
export const GzTokenCreatedModel = GzTokenModel.extend({ token: z.string() })
export type GzTokenCreatedModel = z.infer<typeof GzTokenCreatedModel>

/** Query of `DELETE /api/tokens/{id}`: `delete=true` deletes the row instead of revoking it. */
export const GzTokenDeleteQuery = z.object({
  delete: z
    .enum(['true', 'false', 'True', 'False'], { error: '参数无效' })
    .optional()
    .transform((v) => v?.toLowerCase() === 'true'),
})
