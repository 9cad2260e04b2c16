/**
 * Team invite codes (docs/compatibility.md#team-invite-code, #group-team): `{teamName}:{teamId}:{token}`, the token being 32
 * lowercase hex characters. Team names may contain colons, so a code is read from the end.
 */
import { randomBytes } from 'node:crypto'
import { badRequest } from '../../lib/errors.js'

export const newInviteToken = (): string => randomBytes(16).toString('hex')

export const inviteCode = (team: { name: string; id: number; inviteToken: string }): string => `${team.name}:${team.id}:${team.inviteToken}`

export interface ParsedInviteCode {
  teamName: string
  teamId: number
  token: string
}

/** .NET `int.TryParse` with its default style: optional white space, an optional sign, digits, in Int32 range. */
function tryParseInt32(text: string): number | null {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) return null
  const value = Number(text.trim())
  return Number.isSafeInteger(value) && value >= -2147483648 && value <= 2147483647 ? value : null
}

/**
 * Parse an invite code, throwing the contract's titles in its order: `Code 无效` when the code
 * holds no `:digits:` followed by 32 lowercase hex characters; otherwise the last 32 characters
 * are the token and the rest, without its last 33 characters, is split at its **last** colon
 * into name and id, `队伍 Id 转换错误：{text}` when the id part is not an int.
 */
export function parseInviteCode(code: string): ParsedInviteCode {
  if (!/:\d+:[0-9a-f]{32}/.test(code)) throw badRequest('Code 无效')
  const token = code.slice(-32)
  const prefix = code.slice(0, -33)
  const colon = prefix.lastIndexOf(':')
  const idText = prefix.slice(colon + 1)
  const teamId = tryParseInt32(idText)
  if (teamId === null) throw badRequest(`队伍 Id 转换错误：${idText}`)
  return { teamName: colon < 0 ? '' : prefix.slice(0, colon), teamId, token }
}
