/**
 * Password hashing (argon2id) and the Identity password policy (docs/compatibility.md#identity-rules).
 * Hashing is the costliest thing a request can ask for, so it is rationed
 * (docs/operations.md#password-hashing): OWASP's argon2id parameters on one lane each, at most one
 * hash per core but one at a time, and a bounded queue behind them — a sign-in burst at the start
 * of an event waits its turn or is told to retry, while every other request keeps a core.
 */
import os from 'node:os'
import argon2 from 'argon2'
import { randomInt } from 'node:crypto'
import { tooManyRequests } from '../../lib/errors.js'
import { Slots, SlotsFull } from '../../lib/slots.js'

/** OWASP's argon2id recommendation (19 MiB, 2 passes, 1 lane): about 30 ms of one core. */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const
const HASH_JOBS = Math.max(1, Math.min(4, os.availableParallelism() - 1))
/** Callers queued beyond this get a 429: a few seconds of hashing on one core. */
const HASH_QUEUE_MAX = 256
const RETRY_AFTER_SECONDS = 5
const hashJobs = new Slots(HASH_JOBS, HASH_QUEUE_MAX)

async function rationed<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await hashJobs.run(job)
  } catch (err) {
    if (err instanceof SlotsFull) throw tooManyRequests(`Too many requests, retry after ${RETRY_AFTER_SECONDS} seconds.`, RETRY_AFTER_SECONDS)
    throw err
  }
}

export const hashPassword = (password: string): Promise<string> => rationed(() => argon2.hash(password, HASH_OPTIONS))

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return rationed(async () => {
    try {
      return await argon2.verify(hash, password)
    } catch {
      return false
    }
  })
}

/** A stored hash made with other parameters (older accounts): re-hashed at the next sign-in. */
export function hashIsOutdated(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, HASH_OPTIONS)
  } catch {
    return true
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
