/**
 * The signed-in caller of a command: who acts, and from where (audit entries, last IP). Its own
 * file because services (the audit log) need it and Scope needs services.
 */
import type { User } from '../entities/User.js'

export interface Actor {
  user: User
  ip: string
}
