/**
 * The platform's audit log (CONTRACT §3.2.14, §6.4): every entry is persisted and pushed to
 * admin sockets as ReceivedLog. Entries are written in their own transaction, after the
 * action they describe has committed.
 */
import type { LogLevel, TaskStatus } from '@flagwave/shared/enums'
import { rooms } from '@flagwave/shared/events'
import { toWireDate } from '@flagwave/shared/format'
import type { Orm } from '../../db/orm.js'
import { LogEntry } from '../../entities/LogEntry.js'
import type { Realtime } from '../../realtime/publish.js'
import type { Logger } from 'pino'

export interface AuditEntry {
  message: string
  level?: LogLevel
  /** User name of the actor; "Anonymous" when unknown, "System" for the platform itself. */
  userName?: string | null
  ip?: string | null
  status?: TaskStatus | null
}

export class AuditLog {
  constructor(
    private readonly orm: Orm,
    private readonly realtime: Realtime,
    private readonly log: Logger,
  ) {}

  async write(entry: AuditEntry): Promise<void> {
    const time = new Date()
    const level = entry.level ?? 'Information'
    const userName = entry.userName ?? 'System'
    const ip = entry.ip ?? ''
    const status = entry.status ?? null
    try {
      const em = this.orm.em.fork()
      em.create(LogEntry, { time, level, userName, ip, message: entry.message, status })
      await em.flush()
    } catch (err) {
      this.log.error({ err }, 'audit log write failed')
    }
    this.log.info({ audit: entry.message, user: userName, status }, 'audit')
    this.realtime.publish('admin', rooms.admins, 'ReceivedLog', {
      time: toLocalWireDate(time),
      name: userName,
      level,
      ip,
      msg: entry.message,
      status: status ?? 'Success',
    })
  }
}

/** The hub's log time carries the server's local offset (CONTRACT §6.4). */
function toLocalWireDate(d: Date): string {
  const offsetMin = -d.getTimezoneOffset()
  if (offsetMin === 0) return toWireDate(d)
  const local = new Date(d.getTime() + offsetMin * 60000)
  const sign = offsetMin >= 0 ? '+' : '-'
  const abs = Math.abs(offsetMin)
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  return toWireDate(local).replace('+00:00', offset)
}
