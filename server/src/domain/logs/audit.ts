/**
 * The platform's audit log (docs/compatibility.md#group-admin; docs/realtime.md#admin-hub-events): every entry is persisted and pushed to
 * admin sockets as ReceivedLog. Entries are written in their own transaction, after the
 * action they describe has committed. `write` never throws: a log line that cannot be stored
 * is reported to the process log and still pushed, and the caller's action goes on.
 */
import { LogLevel, TaskStatus } from '@flagwave/shared/enums'
import type { Logger } from 'pino'
import type { Orm } from '../../db/orm.js'
import { LogEntry } from '../../entities/LogEntry.js'
import type { Realtime } from '../../realtime/publish.js'
import { announceLogEntry } from './events.js'
import type { Actor } from '../actor.js'

export interface AuditEntry {
  message: string
  level?: LogLevel
  /** User name of the actor; "Anonymous" when unknown, "System" for the platform itself. */
  userName?: string | null
  ip?: string | null
  status?: TaskStatus | null
}

/** Width of the `user_name` and `ip` columns. */
const COLUMN_MAX = 64

export class AuditLog {
  constructor(
    private readonly orm: Orm,
    private readonly realtime: Realtime,
    private readonly log: Logger,
  ) {}

  /**
   * The entry of a successful action `actor` took; commands call it after their change
   * committed. The one way commands audit (docs/architecture.md, "Commands").
   */
  success(actor: Actor, message: string, level: LogLevel = 'Information'): Promise<void> {
    return this.write({ message, level, userName: actor.user.userName, ip: actor.ip, status: 'Success' })
  }

  async write(entry: AuditEntry): Promise<void> {
    try {
      const record = {
        time: new Date(),
        level: (LogLevel as readonly string[]).includes(entry.level ?? '') ? (entry.level as LogLevel) : 'Information',
        userName: (entry.userName || 'System').slice(0, COLUMN_MAX),
        ip: (entry.ip ?? '').slice(0, COLUMN_MAX),
        message: String(entry.message ?? ''),
        status: (TaskStatus as readonly string[]).includes(entry.status ?? '') ? (entry.status as TaskStatus) : null,
      }
      try {
        const em = this.orm.em.fork()
        em.create(LogEntry, record)
        await em.flush()
      } catch (err) {
        this.log.error({ err, audit: record.message }, 'audit log write failed')
      }
      this.log.info({ audit: record.message, user: record.userName, status: record.status }, 'audit')
      announceLogEntry(this.realtime, record)
    } catch (err) {
      try {
        this.log.error({ err }, 'audit log failed')
      } catch {
        // nothing left to report to
      }
    }
  }
}
