/** Audit-log entries → LogMessageModel (docs/compatibility.md#administration-shapes; docs/realtime.md#admin-hub-events). */
import type { LogMessageModel } from '@flagwave/shared/schemas/admin'
import { toWireDate } from '@flagwave/shared/format'
import type { LogEntry } from '../entities/LogEntry.js'

type LogFields = Pick<LogEntry, 'time' | 'level' | 'userName' | 'ip' | 'message' | 'status'>

/** `GET /api/admin/logs`: UTC time, the stored TaskStatus name or null. */
export function presentLog(entry: LogFields): LogMessageModel {
  return {
    time: toWireDate(entry.time),
    name: entry.userName ?? null,
    level: entry.level ?? null,
    ip: entry.ip ?? null,
    msg: entry.message ?? null,
    status: entry.status ?? null,
  }
}

/** The `ReceivedLog` push on `/hub/admin`: the server's local offset, and always a TaskStatus name. */
export function presentLiveLog(entry: LogFields): LogMessageModel {
  return {
    ...presentLog(entry),
    time: toLocalWireDate(entry.time),
    status: entry.status ?? 'Success',
  }
}

/** An instant as ISO-8601 in the server's local time zone, with its offset (docs/compatibility.md#dates; docs/realtime.md#admin-hub-events). */
function toLocalWireDate(d: Date): string {
  const offsetMin = -d.getTimezoneOffset()
  if (offsetMin === 0) return toWireDate(d)
  const local = new Date(d.getTime() + offsetMin * 60_000)
  const sign = offsetMin > 0 ? '+' : '-'
  const abs = Math.abs(offsetMin)
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  return toWireDate(local).slice(0, -'+00:00'.length) + offset
}
