/**
 * The audit log's live push: every entry goes to the admins' room as `ReceivedLog`. An entry
 * is written in its own transaction after the action it records, so it is pushed at once.
 */
import { rooms } from '@flagwave/shared/events'
import type { LogEntry } from '../../entities/LogEntry.js'
import type { Publish } from '../../realtime/sink.js'
import { presentLiveLog } from '../../presenters/logs.js'

export type LoggedEntry = Pick<LogEntry, 'time' | 'level' | 'userName' | 'ip' | 'message' | 'status'>

export function announceLogEntry(events: Publish, entry: LoggedEntry): void {
  events.publish('admin', rooms.admins, 'ReceivedLog', presentLiveLog(entry))
}
