import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'

/**
 * A server-side login session. The cookie carries a random token; only its SHA-256 is stored,
 * so a database leak does not leak live sessions. Deleting rows ends sessions at once.
 */
export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    securityStamp: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
    ip: p.string().length(64).default(''),
    userAgent: p.string().length(512).default(''),
  },
})
export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session)
