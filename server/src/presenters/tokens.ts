/** API tokens → wire shapes (docs/compatibility.md#api-tokens). Secrets appear only in the creation answers. */
import { toWireDate } from '@flagwave/shared/format'
import type { GzTokenModel, TokenInfoModel, TokenScope } from '@flagwave/shared/schemas/tokens'
import type { ApiToken } from '../entities/ApiToken.js'
import type { User } from '../entities/User.js'

/** A token and its last use (domain/accounts/apiTokens.ts TokenRecord). */
interface ShownToken {
  token: ApiToken
  lastUsedAt: Date | null
}

const wireOrNull = (date: Date | null | undefined) => (date ? toWireDate(date) : null)

export function presentToken({ token, lastUsedAt }: ShownToken): TokenInfoModel {
  return {
    id: token.id,
    name: token.name,
    kind: token.kind === 'GzCtf' ? 'GzCtf' : 'Flagwave',
    scopes: token.scopes as TokenScope[],
    createdAt: toWireDate(token.createdAt),
    expiresAt: wireOrNull(token.expiresAt),
    lastUsedAt: wireOrNull(lastUsedAt),
    revoked: token.revokedAt !== null && token.revokedAt !== undefined,
  }
}

export function presentGzToken({ token, lastUsedAt }: ShownToken): GzTokenModel {
  const creator = token.user as User | undefined
  return {
    id: token.id,
    name: token.name,
    createdAt: toWireDate(token.createdAt),
    expiresAt: wireOrNull(token.expiresAt),
    lastUsedAt: wireOrNull(lastUsedAt),
    isRevoked: token.revokedAt !== null && token.revokedAt !== undefined,
    creatorId: creator?.id ?? null,
    creatorName: creator?.userName ?? null,
  }
}
