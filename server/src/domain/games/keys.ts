/**
 * A game's Ed25519 key pair (docs/compatibility.md#game-notice-and-event-shapes, #team-token): the public key travels as Base64 of its raw
 * 32 bytes; the private seed is stored Base64, XOR-protected with XOR_KEY so a database dump
 * alone cannot forge team tokens.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto'

export interface GameKeys {
  publicKey: string
  privateKey: string
}

const xor = (data: Buffer, key: string): Buffer => {
  if (!key) return data
  const k = Buffer.from(key, 'utf8')
  return Buffer.from(data.map((b, i) => b ^ k[i % k.length]))
}

export function generateGameKeys(xorKey: string): GameKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url')
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d as string, 'base64url')
  return { publicKey: pub.toString('base64'), privateKey: xor(seed, xorKey).toString('base64') }
}

function privateKeyObject(stored: string, publicKey: string, xorKey: string) {
  const seed = xor(Buffer.from(stored, 'base64'), xorKey)
  return createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  })
}

/** `{teamId}:{Base64 Ed25519 signature of "GZCTF_TEAM_{teamId}"}` (docs/compatibility.md#team-token). */
export function teamToken(game: { privateKey: string; publicKey: string }, teamId: number, xorKey: string): string {
  const signature = sign(null, Buffer.from(`GZCTF_TEAM_${teamId}`, 'utf8'), privateKeyObject(game.privateKey, game.publicKey, xorKey))
  return `${teamId}:${signature.toString('base64')}`
}

/** Salt of the [TEAM_HASH] placeholder: SHA-256 of `GZCTF@{privateKey}@PK` (docs/compatibility.md#group-edit, #dynamic-flags). */
export function teamHashSalt(game: { privateKey: string }): string {
  return createHash('sha256').update(`GZCTF@${game.privateKey}@PK`, 'utf8').digest('hex')
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/**
 * `POST /api/team/verify` (GZ::CTF 1.x): whether `teamToken` (`{teamId}:{signature}`) is signed by
 * the game key `publicKey` (Base64 of the raw 32 bytes). Null when either is malformed.
 */
export function verifyTeamToken(token: string, publicKey: string): boolean | null {
  const colon = token.indexOf(':')
  const teamId = token.slice(0, colon)
  const signature = Buffer.from(token.slice(colon + 1), 'base64')
  const key = Buffer.from(publicKey, 'base64')
  if (colon <= 0 || !/^\d{1,10}$/.test(teamId) || signature.length !== 64 || key.length !== 32) return null
  const keyObject = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }, format: 'jwk' })
  return verify(null, Buffer.from(`GZCTF_TEAM_${teamId}`, 'utf8'), keyObject, signature)
}
