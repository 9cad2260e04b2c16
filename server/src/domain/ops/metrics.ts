/**
 * The platform's own gauges (docs/operations.md#metrics), read at scrape time: the submission queue
 * in PostgreSQL, the container rows, the PostgreSQL pool and the proxy's open connections. A
 * failing read leaves that gauge out of the scrape (Prometheus then sees it absent), never fails
 * the scrape.
 */
import type { Logger } from 'pino'
import type { Orm } from '../../db/orm.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ContainerRuntime } from '../../containers/runtime.js'
import { nativePool } from '../../db/pg.js'

/** What the gauges read (a part of `Services`: services.ts calls this while building them). */
interface Sources {
  metrics: Metrics
  orm: Orm
  log: Logger
  containers: Pick<ContainerRuntime, 'connections'>
}

export function registerPlatformMetrics(services: Sources): void {
  const { metrics, orm, log } = services
  const query = async <T>(sql: string): Promise<T[]> => {
    try {
      return await orm.em.fork().getConnection().execute<T[]>(sql)
    } catch (err) {
      log.warn({ err }, 'metrics: query failed')
      return []
    }
  }
  metrics.gauge('flagwave_submission_queue_depth', 'Submissions waiting for a verdict (the durable queue, cluster-wide)', [], async () => {
    const rows = await query<{ n: string }>(`select count(*) as n from submissions where status = 'FlagSubmitted'`)
    return rows.map((r) => ({ value: Number(r.n) }))
  })
  metrics.gauge('flagwave_submission_queue_oldest_seconds', 'Age of the oldest submission waiting for a verdict (0 when none waits)', [], async () => {
    const rows = await query<{ age: string | null }>(`select extract(epoch from now() - min(submit_time)) as age from submissions where status = 'FlagSubmitted'`)
    return rows.map((r) => ({ value: r.age === null ? 0 : Math.max(0, Number(r.age)) }))
  })
  metrics.gauge('flagwave_containers', 'Challenge containers known to the database (cluster-wide), by status', ['status'], async () => {
    const rows = await query<{ status: string; n: string }>('select status, count(*) as n from containers group by status')
    return rows.map((r) => ({ labels: { status: r.status }, value: Number(r.n) }))
  })
  metrics.gauge('flagwave_proxy_connections', 'Open container proxy connections on this node', [], async () => [
    { value: [...services.containers.connections.values()].reduce((a, b) => a + b, 0) },
  ])
  metrics.gauge('flagwave_db_pool_connections', "This node's PostgreSQL pool: open (total), idle, in use, callers waiting, and its maximum", ['state'], async () => {
    const pool = await nativePool(orm)
    return [
      { labels: { state: 'total' }, value: pool.totalCount },
      { labels: { state: 'idle' }, value: pool.idleCount },
      { labels: { state: 'used' }, value: pool.totalCount - pool.idleCount },
      { labels: { state: 'waiting' }, value: pool.waitingCount },
      { labels: { state: 'max' }, value: pool.options.max ?? 0 },
    ]
  })
}
