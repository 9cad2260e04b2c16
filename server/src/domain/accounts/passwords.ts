/** Password hashing (argon2id) and the Identity password policy (docs/compatibility.md#identity-rules). */
import argon2 from 'argon2'
import { randomInt } from 'node:crypto'

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id })

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password)
  } catch {
    return false
  }
}

/** The first Identity error for a password, or null when it satisfies the policy. */
export function passwordPolicyError(password: string): string | null {
  if (password.length < 6) return '密码长度 6 太短'
  if (!/\d/.test(password)) return '密码中需要数字'
  if (!/[a-z]/.test(password)) return '密码中需要小写字母'
  if (!/[A-Z]/.test(password)) return '密码中需要大写字母'
  return null
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const DIGITS = '0123456789'
const SYMBOLS = '!@#$%^&*()-_=+'

/** 16 random characters with at least one digit, lower, upper and symbol (docs/compatibility.md#group-admin). */
export function generatePassword(length = 16): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS
  const chars = [LOWER, UPPER, DIGITS, SYMBOLS].map((set) => set[randomInt(set.length)])
  while (chars.length < length) chars.push(all[randomInt(all.length)])
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[chars[i], chars[j]] = [chars[j], chars[i]]
  }
  return chars.join('')
}
