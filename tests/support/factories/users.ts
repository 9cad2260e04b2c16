/**
 * Users for tests, created directly through the domain (not the rate-limited register
 * endpoint) — only what a test does not pass in is made up.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Role } from '@flagwave/shared/enums'
import { User } from '../../../server/src/entities/User.js'
import { hashPassword } from '../../../server/src/domain/accounts/passwords.js'
import { newSecurityStamp } from '../../../server/src/domain/accounts/sessions.js'
import type { TestServer } from '../server.js'
import type { ApiClient } from '../client.js'

export const DEFAULT_PASSWORD = 'Passw0rd!'

export interface TestUser {
  user: User
  password: string
  /** A client already signed in as this user (not for Banned users, who cannot log in). */
  client: ApiClient
}

/**
 * One hash per password for the whole run: a salt per user buys a test nothing, and hashing is
 * rationed to one core (domain/accounts/passwords.ts), so tests making dozens of users at once
 * would otherwise queue behind it.
 */
const hashes = new Map<string, Promise<string>>()
const hashOf = (password: string): Promise<string> => {
  let hash = hashes.get(password)
  if (!hash) hashes.set(password, (hash = hashPassword(password)))
  return hash
}

export async function createUser(
  server: TestServer,
  overrides: Partial<Pick<User, 'userName' | 'email' | 'role' | 'emailConfirmed' | 'realName' | 'stdNumber' | 'phone' | 'bio'>> & { password?: string } = {},
): Promise<TestUser> {
  const em = server.services.orm.em.fork()
  const suffix = randomBytes(4).toString('hex')
  const userName = overrides.userName ?? `u${suffix}`
  const email = overrides.email ?? `${userName}@example.com`
  const password = overrides.password ?? DEFAULT_PASSWORD
  const role: Role = overrides.role ?? 'User'
  const user = em.create(User, {
    id: randomUUID(),
    userName,
    normalizedUserName: userName.toUpperCase(),
    email,
    normalizedEmail: email.toUpperCase(),
    emailConfirmed: overrides.emailConfirmed ?? true,
    passwordHash: await hashOf(password),
    securityStamp: newSecurityStamp(),
    role: role === 'Banned' ? 'User' : role,
    realName: overrides.realName ?? '',
    stdNumber: overrides.stdNumber ?? '',
    phone: overrides.phone ?? null,
    bio: overrides.bio ?? '',
  })
  await em.flush()
  const client = server.client()
  if (user.emailConfirmed) await client.login(userName, password)
  if (role === 'Banned') {
    // Banned after signing in, so the client holds a session that now answers 403.
    user.role = 'Banned'
    await em.flush()
  }
  return { user, password, client }
}
