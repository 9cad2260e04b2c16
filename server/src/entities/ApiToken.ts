import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'

/**
 * An API token (docs/architecture.md#api-tokens). `kind` is `Flagwave` for the scoped tokens of
 * `/api/account/tokens`, whose secret is random and stored only as its SHA-256 (`secretHash`), or
 * `GzCtf` for the admin tokens of GZ::CTF 1.5's `/api/tokens`, which carry no secret: they are
 * Ed25519-signed `{jti, iat, exp}` payloads verified with the installation's key, and this row is
 * what makes them revocable. Revoked rows stay so that the owner's list shows them.
 */
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    kind: p.string().length(16),
    name: p.string().length(64),
    secretHash: p.string().length(64).nullable().unique(),
    scopes: p.array().default([]),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
})
export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken)
