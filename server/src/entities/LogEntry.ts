import { defineEntity, p } from '@mikro-orm/core'
import { LogLevel, TaskStatus } from '@flagwave/shared/enums'

/** The persistent audit log behind GET /api/admin/logs (docs/compatibility.md#administration-shapes LogMessageModel). */
export const LogEntrySchema = defineEntity({
  name: 'LogEntry',
  tableName: 'logs',
  properties: {
    id: p.bigint('number').primary(),
    time: p.datetime().index(),
    level: p.enum(LogLevel),
    userName: p.string().length(64).nullable(),
    ip: p.string().length(64).nullable(),
    message: p.text(),
    status: p.enum(TaskStatus).nullable(),
  },
})
export class LogEntry extends LogEntrySchema.class {}
LogEntrySchema.setClass(LogEntry)
