/**
 * How every bounded string column (an entity property with a `length`) is kept within its bound
 * (docs/compatibility.md#storage-bounds): the request members that write it, each refusing a longer value in
 * its shared zod schema, or the server code that truncates, validates or makes the value. Read by
 * tests/unit/columnBounds.test.ts (which fails on a bounded column without an entry) and by the
 * hostile-input test (which sends each member one character over its column to every route).
 */
import { expect } from 'vitest'
import type { z } from 'zod'
import { entities } from '../../server/src/entities/index.js'
import { isValidEmail } from '../../server/src/domain/accounts/identity.js'
import { resolveClientAddress } from '../../server/src/lib/clientAddress.js'
import { RegisterModel, MailChangeModel, ProfileUpdateModel } from '@flagwave/shared/schemas/account'
import { AdminUserInfoModel, UserCreateModel } from '@flagwave/shared/schemas/users'
import { AdminTeamModel, TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { PostEditModel } from '@flagwave/shared/schemas/posts'
import { DivisionInput, GameInfoInput, GameJoinModel } from '@flagwave/shared/schemas/games'
import { ChallengeCreateModel, ChallengeUpdateModel, FlagCreateModel } from '@flagwave/shared/schemas/challenges'
import { FlagSubmitModel } from '@flagwave/shared/schemas/play'
import { SsoProviderCreateInput, SsoProviderInput } from '@flagwave/shared/schemas/sso'
import { GzTokenCreateModel, TokenCreateModel } from '@flagwave/shared/schemas/tokens'

export type Member = [schema: z.ZodObject, field: string, value?: (length: number) => unknown]

export type Guard =
  /** Request members that write the column; each must refuse a value longer than the column. */
  | { members: Member[] }
  /** Server code that truncates or validates the value (it comes from a header, or is derived), with a check where one can run here. */
  | { guardedBy: string; check?: (length: number) => void }
  /** The server makes the value (hashes, ids, tokens, engine answers); no request sets it. */
  | { generated: string }

const email = (n: number) => `${'a'.repeat(Math.max(1, n - 4))}@b.c`
const phone = (n: number) => '1'.repeat(n)
/** A flag template whose longest generated flag has `n` characters: `[GUID]`s grow to 36 characters each. */
export const templateExpandingTo = (n: number) => {
  const guids = Math.min(3, Math.floor(n / 36))
  return '[GUID]'.repeat(guids) + 'a'.repeat(n - guids * 36)
}
const ipColumn = {
  guardedBy: 'lib/clientAddress.ts: an address is a validated IPv4/IPv6 text of at most 45 characters, or empty',
  check: (length: number) => {
    const trust = { enabled: true, isTrusted: () => true }
    for (const forged of ['1'.repeat(length + 1), `${'a'.repeat(length)}, 127.0.0.1`, '::ffff:' + '1.'.repeat(length)]) {
      expect(resolveClientAddress(forged, forged, trust).ip.length).toBeLessThanOrEqual(45)
    }
  },
}

const longIssuer = (n: number) => `https://idp.example/${'a'.repeat(n - 20)}`

/** `Entity.property` → how its bound is kept. */
export const COLUMN_GUARDS: Record<string, Guard> = {
  'User.userName': { members: [[RegisterModel, 'userName'], [ProfileUpdateModel, 'userName'], [AdminUserInfoModel, 'userName'], [UserCreateModel, 'userName']] },
  'User.normalizedUserName': {
    guardedBy: 'domain/accounts/identity.ts userValidationError: user names are ASCII (USER_NAME_PATTERN), so upper-casing keeps their length',
  },
  'User.email': { members: [[RegisterModel, 'email', email], [MailChangeModel, 'newMail', email], [AdminUserInfoModel, 'email', email], [UserCreateModel, 'email', email]] },
  'User.normalizedEmail': {
    guardedBy: 'domain/accounts/identity.ts isValidEmail: the upper-cased address must fit too (ß → SS)',
    check: (length) => {
      expect(isValidEmail(`${'ß'.repeat(Math.ceil(length / 2))}@b.c`)).toBe(false)
      expect(isValidEmail(`${'ß'.repeat(Math.floor((length - 4) / 2))}@b.c`)).toBe(true)
    },
  },
  'User.securityStamp': { generated: 'domain/accounts: a random stamp' },
  'User.bio': { members: [[ProfileUpdateModel, 'bio'], [AdminUserInfoModel, 'bio']] },
  'User.phone': { members: [[ProfileUpdateModel, 'phone', phone], [AdminUserInfoModel, 'phone', phone], [UserCreateModel, 'phone', phone]] },
  'User.realName': { members: [[ProfileUpdateModel, 'realName'], [AdminUserInfoModel, 'realName'], [UserCreateModel, 'realName']] },
  'User.stdNumber': { members: [[ProfileUpdateModel, 'stdNumber'], [AdminUserInfoModel, 'stdNumber'], [UserCreateModel, 'stdNumber']] },
  'User.avatarHash': { generated: 'a SHA-256 hex digest' },
  'User.ip': ipColumn,
  'Session.id': { generated: 'the SHA-256 hex digest of the session token' },
  'Session.securityStamp': { generated: "the user's stamp" },
  'Session.ip': ipColumn,
  'Session.userAgent': { guardedBy: 'domain/accounts/sessions.ts createSession: the User-Agent header is cut to 512 characters' },
  'ConfigEntry.key': { generated: 'domain/config: the dotted setting names are fixed in code' },
  'LogEntry.userName': { guardedBy: 'domain/logs/audit.ts AuditLog.write: cut to the column (64)' },
  'LogEntry.ip': { guardedBy: 'domain/logs/audit.ts AuditLog.write: cut to the column (64), after lib/clientAddress.ts validated it' },
  'LocalFile.hash': { generated: 'a SHA-256 hex digest' },
  'LocalFile.name': { guardedBy: 'domain/assets/assets.ts uploadAssets: a name above 256 characters is refused (遇到IO错误); other files get fixed names' },
  'Team.name': { members: [[TeamUpdateModel, 'name'], [AdminTeamModel, 'name'], [UserCreateModel, 'teamName']] },
  'Team.bio': { members: [[TeamUpdateModel, 'bio'], [AdminTeamModel, 'bio']] },
  'Team.avatarHash': { generated: 'a SHA-256 hex digest' },
  'Team.inviteToken': { generated: '32 random hex characters' },
  'Post.id': { generated: '8 random hex characters' },
  'Post.title': { members: [[PostEditModel, 'title']] },
  'Game.title': { members: [[GameInfoInput, 'title']] },
  'Game.inviteCode': { members: [[GameInfoInput, 'inviteCode']] },
  'Game.posterHash': { generated: 'a SHA-256 hex digest' },
  'Game.publicKey': { generated: 'Base64 of an Ed25519 public key' },
  'Game.privateKey': { generated: 'Base64 of an Ed25519 seed' },
  // A join names a division by `organization` or `division`; longer names can match none and are refused first.
  'Division.name': { members: [[DivisionInput, 'name'], [GameJoinModel, 'organization'], [GameJoinModel, 'division'], [GameInfoInput, 'organizations', (n) => ['a'.repeat(n)]]] },
  'Division.inviteCode': { members: [[DivisionInput, 'inviteCode']] },
  'Participation.token': { generated: 'domain/games/keys.ts teamToken: `{teamId}:{signature}`' },
  'Attachment.fileName': { guardedBy: "domain/challenges/attachments.ts: the stored file's own name (LocalFile.name, the same bound)" },
  'Participation.writeupName': { generated: 'domain/writeups/writeups.ts writeupFileName: `Writeup-{game}-{team}-{yyyyMMdd-HH.mm.ss}Z.pdf`' },
  'LocalFile.contentType': { generated: 'domain/files/contentType.ts: one of a fixed list of media types' },
  'Submission.ip': ipColumn,
  'Attachment.fileHash': { guardedBy: 'domain/challenges/attachments.ts: only a 64-character hex hash of a stored file is kept' },
  'Challenge.title': { members: [[ChallengeCreateModel, 'title'], [ChallengeUpdateModel, 'title']] },
  'Challenge.flagTemplate': { members: [[ChallengeUpdateModel, 'flagTemplate']] },
  'Challenge.fileName': { members: [[ChallengeUpdateModel, 'fileName']] },
  'Challenge.containerImage': { members: [[ChallengeUpdateModel, 'containerImage']] },
  'Flag.flag': { members: [[FlagCreateModel, 'flag']] },
  'Container.containerId': { generated: 'the engine’s container id' },
  'Container.image': { members: [[ChallengeUpdateModel, 'containerImage']] },
  'Container.ip': { generated: 'the engine’s container address' },
  'Container.publicIp': { generated: 'the engine’s or the configured public address' },
  'Container.flag': { members: [[ChallengeUpdateModel, 'flagTemplate', templateExpandingTo]] },
  'GameInstance.dynamicFlag': { members: [[ChallengeUpdateModel, 'flagTemplate', templateExpandingTo]] },
  'Submission.answer': { members: [[FlagSubmitModel, 'flag']] },
  'SsoProvider.id': { members: [[SsoProviderCreateInput, 'id']] },
  'SsoProvider.name': { members: [[SsoProviderInput, 'name'], [SsoProviderCreateInput, 'name']] },
  'SsoProvider.issuer': { members: [[SsoProviderInput, 'issuer', longIssuer], [SsoProviderCreateInput, 'issuer', longIssuer]] },
  'SsoProvider.clientId': { members: [[SsoProviderInput, 'clientId'], [SsoProviderCreateInput, 'clientId']] },
  'SsoProvider.scopes': { members: [[SsoProviderInput, 'scopes'], [SsoProviderCreateInput, 'scopes']] },
  'SsoProvider.roleClaim': { members: [[SsoProviderInput, 'roleClaim'], [SsoProviderCreateInput, 'roleClaim']] },
  'SsoProvider.adminValues': { members: [[SsoProviderInput, 'adminValues'], [SsoProviderCreateInput, 'adminValues']] },
  'SsoProvider.monitorValues': { members: [[SsoProviderInput, 'monitorValues'], [SsoProviderCreateInput, 'monitorValues']] },
  'SsoProvider.allowedDomains': { members: [[SsoProviderInput, 'allowedDomains'], [SsoProviderCreateInput, 'allowedDomains']] },
  'UserIdentity.subject': { guardedBy: 'domain/sso/flow.ts redeem: an ID token whose sub exceeds 255 characters (OpenID Connect Core §2) is refused' },
  'UserIdentity.email': { guardedBy: 'domain/sso/accounts.ts: a verified address passed isValidEmail (256); others are cut to 256' },
  'SsoLogin.id': { generated: 'a SHA-256 hex digest of the state' },
  'SsoLogin.provider': { guardedBy: 'routes/sso.ts: the provider id of the path, at most 32 characters' },
  'SsoLogin.codeVerifier': { generated: 'openid-client randomPKCECodeVerifier (43 characters)' },
  'SsoLogin.nonce': { generated: 'openid-client randomNonce (43 characters)' },
  'SsoLogin.returnTo': { guardedBy: 'domain/sso/flow.ts safeReturnTo: longer paths (also after percent-encoding) become "/"' },
  'User.twoFactorSecret': { generated: 'domain/accounts/twoFactor.ts: an otplib Base32 secret (32 characters)' },
  'User.twoFactorPendingSecret': { generated: 'domain/accounts/twoFactor.ts: an otplib Base32 secret (32 characters)' },
  'User.twoFactorDeviceStamp': { generated: '16 random hex characters' },
  'ApiToken.kind': { generated: 'domain/accounts/apiTokens.ts: Flagwave or GzCtf' },
  'ApiToken.name': { members: [[TokenCreateModel, 'name'], [GzTokenCreateModel, 'name']] },
  'ApiToken.secretHash': { generated: 'the SHA-256 hex digest of the token' },
}

/** Every `Entity.property` with a length, and that length. */
export function boundedColumns(): Map<string, number> {
  const out = new Map<string, number>()
  for (const schema of entities) {
    const meta = schema.meta
    for (const [name, prop] of Object.entries(meta.properties)) {
      const length = (prop as { length?: number }).length
      if (typeof length === 'number') out.set(`${meta.className}.${name}`, length)
    }
  }
  return out
}
