/**
 * First boot: create the `Admin` account. Its password comes from ADMIN_PASSWORD, or is
 * generated and returned so main.ts can print it once.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { User } from '../../entities/User.js'
import { generatePassword, hashPassword } from './passwords.js'
import { newSecurityStamp } from './sessions.js'

export async function ensureAdmin(em: EntityManager, configuredPassword: string | undefined): Promise<{ created: boolean; password?: string }> {
  const existing = await em.count(User, { role: 'Admin' })
  if (existing > 0) return { created: false }
  const password = configuredPassword ?? generatePassword()
  em.create(User, {
    id: randomUUID(),
    userName: 'Admin',
    normalizedUserName: 'ADMIN',
    email: 'admin@flagwave.local',
    normalizedEmail: 'ADMIN@FLAGWAVE.LOCAL',
    emailConfirmed: true,
    passwordHash: await hashPassword(password),
    securityStamp: newSecurityStamp(),
    role: 'Admin',
  })
  await em.flush()
  return { created: true, password: configuredPassword ? undefined : password }
}
