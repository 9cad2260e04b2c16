/**
 * First boot: create the `Admin` account. Its password comes from ADMIN_PASSWORD, or is
 * generated and returned so main.ts can print it once. It is registered now (lists and the admin
 * page sort by registration; 1970 looked like a broken import) with an address under PUBLIC_URL's
 * host, where the operator can make it a real mailbox; `flagwave.local` without one.
 */
import { randomUUID } from 'node:crypto'
import { isIP } from 'node:net'
import type { Config } from '../../config.js'
import type { EntityManager } from '@mikro-orm/postgresql'
import { User } from '../../entities/User.js'
import { generatePassword, hashPassword } from './passwords.js'
import { newSecurityStamp } from './sessions.js'

/** `admin@<PUBLIC_URL's host name>`; an IP address or no PUBLIC_URL names no mail domain. */
function adminEmail(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname : ''
  return host && isIP(host.replace(/^\[|\]$/g, '')) === 0 ? `admin@${host}` : 'admin@flagwave.local'
}

export async function ensureAdmin(
  em: EntityManager,
  config: Pick<Config, 'ADMIN_PASSWORD' | 'PUBLIC_URL'>,
): Promise<{ created: boolean; password?: string }> {
  const existing = await em.count(User, { role: 'Admin' })
  if (existing > 0) return { created: false }
  const configuredPassword = config.ADMIN_PASSWORD
  const password = configuredPassword ?? generatePassword()
  const email = adminEmail(config.PUBLIC_URL)
  em.create(User, {
    id: randomUUID(),
    userName: 'Admin',
    normalizedUserName: 'ADMIN',
    email,
    normalizedEmail: email.toUpperCase(),
    emailConfirmed: true,
    registerTime: new Date(),
    passwordHash: await hashPassword(password),
    securityStamp: newSecurityStamp(),
    role: 'Admin',
  })
  await em.flush()
  return { created: true, password: configuredPassword ? undefined : password }
}
