/**
 * `GET /readyz` (docs/operations.md#health-checks): whether this node can serve — the database,
 * Redis (when configured), the container engine (when a provider is configured) and the file
 * store answer within a few seconds. `GET /healthz` only says the process is alive.
 */
import type { Services } from '../../services.js'

/** Each check's upper bound: a probe must answer before the orchestrator's own timeout. */
const CHECK_TIMEOUT_MS = 3_000

type CheckResult = 'ok' | 'failed' | 'skipped'

export interface Readiness {
  ready: boolean
  checks: { database: CheckResult; redis: CheckResult; containers: CheckResult; storage: CheckResult }
}

async function check(work: (() => Promise<unknown>) | null, log: Services['log'], part: string): Promise<CheckResult> {
  if (!work) return 'skipped'
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${part}: no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([work(), timeout])
    return 'ok'
  } catch (err) {
    log.warn({ err, part }, 'readiness check failed')
    return 'failed'
  } finally {
    clearTimeout(timer)
  }
}

export async function readiness(services: Services): Promise<Readiness> {
  const { orm, redis, containers, storage, log } = services
  const [database, redisCheck, engine, store] = await Promise.all([
    check(() => orm.em.fork().getConnection().execute('select 1'), log, 'database'),
    check(redis ? () => redis.ping() : null, log, 'redis'),
    check(containers.provider.name === 'none' ? null : () => containers.provider.list(), log, 'containers'),
    check(() => storage.ready(), log, 'storage'),
  ])
  const checks = { database, redis: redisCheck, containers: engine, storage: store }
  return { ready: Object.values(checks).every((c) => c !== 'failed'), checks }
}
