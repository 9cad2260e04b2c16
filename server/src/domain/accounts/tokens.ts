/**
 * E-mail tokens (docs/compatibility.md#identity-rules, #group-account): e-mail confirmation, password reset and e-mail change.
 *
 * A token is stateless: `version ‖ purpose ‖ expiry ‖ HMAC-SHA256`, where the MAC covers the
 * purpose, the user id, the user's current security stamp, the bound (normalized) e-mail address
 * — the new one for an e-mail change — and the expiry. Tokens live 3 hours. Anything that moves
 * the security stamp (password change or reset, e-mail change) voids every outstanding token,
 * and a token works for nothing but its own purpose, user and address.
 *
 * The HMAC key is generated once per installation and kept in the `configs` table under
 * `internal.tokenSecret` (outside the admin-editable settings), so every node shares it.
 * Links carry the token as standard Base64 (`+`, `/`, `=` unescaped), exactly as the contract has it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { User } from '../../entities/User.js'
import { base64Input, encodeBase64Text, normalizeKey } from './identity.js'

export type TokenPurpose = 'EmailConfirmation' | 'ResetPassword' | 'ChangeEmail'

export const TOKEN_LIFETIME_MS = 3 * 3600 * 1000
const TOKEN_SECRET_KEY = 'internal.tokenSecret'

const VERSION = 1
const PURPOSE_CODES: Record<TokenPurpose, number> = { EmailConfirmation: 1, ResetPassword: 2, ChangeEmail: 3 }
const TOKEN_BYTES = 1 + 1 + 4 + 32

/** One cached value per ORM and key (a process may run several servers in tests). */
const secrets = new WeakMap<object, Map<string, Promise<string>>>()

/**
 * A value generated once per installation and kept in `configs` under `key` (an `internal.*` key,
 * outside the admin-editable settings), so every node shares it: read, or created on first use
 * race-free across nodes (the first insert wins).
 */
export function installationSecret(em: EntityManager, key: string, create: () => string): Promise<string> {
  const owner = em.getConnection()
  let byKey = secrets.get(owner)
  if (!byKey) secrets.set(owner, (byKey = new Map()))
  let secret = byKey.get(key)
  if (!secret) {
    secret = loadSecret(em, key, create)
    byKey.set(key, secret)
    secret.catch(() => byKey.delete(key))
  }
  return secret
}

async function loadSecret(em: EntityManager, key: string, create: () => string): Promise<string> {
  const conn = em.fork().getConnection()
  await conn.execute('insert into configs (key, value) values (?, ?) on conflict (key) do nothing', [key, create()])
  const rows = await conn.execute<{ value: string }[]>('select value from configs where key = ?', [key])
  const value = rows[0]?.value
  if (!value) throw new Error(`${key} missing`)
  return value
}

/** The installation's HMAC key (e-mail tokens, two-factor tickets and remembered devices). */
export const tokenSecret = async (em: EntityManager): Promise<Buffer> =>
  Buffer.from(await installationSecret(em, TOKEN_SECRET_KEY, () => randomBytes(32).toString('base64')), 'base64')

function mac(secret: Buffer, purpose: TokenPurpose, user: User, email: string, expiry: number): Buffer {
  return createHmac('sha256', secret)
    .update(['flagwave-token', VERSION, purpose, user.id, user.securityStamp, normalizeKey(email), expiry].join('\n'))
    .digest()
}

/** A new token for `user` and `purpose`, bound to `email` (the account's, or the new address). Raw bytes. */
export async function generateToken(em: EntityManager, purpose: TokenPurpose, user: User, email: string, now = Date.now()): Promise<Buffer> {
  const expiry = Math.floor((now + TOKEN_LIFETIME_MS) / 1000)
  const token = Buffer.alloc(TOKEN_BYTES)
  token[0] = VERSION
  token[1] = PURPOSE_CODES[purpose]
  token.writeUInt32BE(expiry, 2)
  mac(await tokenSecret(em), purpose, user, email, expiry).copy(token, 6)
  return token
}

/** True when `token` (raw bytes) was issued for this purpose, user, stamp and address and has not expired. */
export async function verifyToken(em: EntityManager, purpose: TokenPurpose, user: User, email: string, token: Buffer, now = Date.now()): Promise<boolean> {
  if (token.length !== TOKEN_BYTES || token[0] !== VERSION || token[1] !== PURPOSE_CODES[purpose]) return false
  const expiry = token.readUInt32BE(2)
  const expected = mac(await tokenSecret(em), purpose, user, email, expiry)
  const valid = timingSafeEqual(expected, token.subarray(6))
  return valid && expiry * 1000 > now
}

/** Standard Base64 of a token, as it travels in links and request bodies. */
export const encodeToken = (token: Buffer): string => token.toString('base64')

/** The raw bytes of a Base64 token from a request; an empty buffer when it does not decode. */
export function decodeToken(value: string): Buffer {
  const s = base64Input(value)
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return Buffer.alloc(0)
  return Buffer.from(s, 'base64')
}

/** `{origin}/account/{page}?token={Base64 token}&email={Base64 address}` (docs/compatibility.md#group-account, #identifiers-and-e-mail-links). */
export const accountLink = (origin: string, page: 'verify' | 'reset' | 'confirm', token: Buffer, email: string): string =>
  `${origin}/account/${page}?token=${encodeToken(token)}&email=${encodeBase64Text(email)}`
