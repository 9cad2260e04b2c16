/**
 * The container reaper (docs/architecture.md#containers): at boot and then every CONTAINER_REAPER_INTERVAL_MS
 * (60 s by default; the reference runs every 3 minutes) it reconciles the engine with the
 * database, destroys expired containers and pushes `expiring` notices. One node works at a
 * time: each round holds a PostgreSQL advisory lock for its duration.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { notifyExpiring, reapExpired, reconcileContainers } from '../containers/reaper.js'
import { startPeriodic } from './periodic.js'

const LOCK_KEY = 0x666c6177 // "flaw"

export async function startReaper(services: Services): Promise<Worker | null> {
  if (services.containers.provider.name === 'none') return null
  const notified = new Map<string, number>()
  return startPeriodic('container-reaper', services.config.CONTAINER_REAPER_INTERVAL_MS, services.log, async (stopping) => {
    await services.orm.em.fork().transactional(async (tem) => {
      const [row] = await tem.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [LOCK_KEY])
      if (!row?.locked) return
      await reconcileContainers(services).catch((err: unknown) => services.log.warn({ err }, 'reaper: reconciliation failed'))
      if (stopping()) return
      await reapExpired(services)
      if (stopping()) return
      await notifyExpiring(services, notified)
    })
  })
}
