/** Reading the audit log (docs/compatibility.md#group-admin). */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LogEntry } from '../../entities/LogEntry.js'

export interface LogQuery {
  /** Compared exactly with the stored level; null = every level. */
  level: string | null
  count: number
  skip: number
}

/** A page of the audit log, newest first. `count`/`skip` are validated non-negative by the route. */
export async function listLogs(em: EntityManager, query: LogQuery): Promise<LogEntry[]> {
  if (query.count <= 0) return []
  const where = query.level === null ? {} : { level: query.level as LogEntry['level'] }
  return em.find(LogEntry, where, { orderBy: { time: 'desc', id: 'desc' }, limit: query.count, offset: query.skip })
}
