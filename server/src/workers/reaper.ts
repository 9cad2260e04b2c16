/**
 * The container reaper (docs/architecture.md#containers): at boot and then every CONTAINER_REAPER_INTERVAL_MS
 * (60 s by default; the reference runs every 3 minutes) it reconciles the engine with the
 * database, destroys expired containers and pushes `expiring` notices. One node works at a
 * time: each round holds a PostgreSQL advisory lock for its duration.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { notifyExpiring, reapExpired, reconcileContainers } from '../containers/reaper.js'

const LOCK_KEY = 0x666c6177 // "flaw"

export async function startReaper(services: Services): Promise<Worker | null> {
  if (services.containers.provider.name === 'none') return null
  const notified = new Map<string, number>()
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> = Promise.resolve()

  const round = async () => {
    await services.orm.em.fork().transactional(async (tem) => {
      const [row] = await tem.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [LOCK_KEY])
      if (!row?.locked) return
      await reconcileContainers(services).catch((err: unknown) => services.log.warn({ err }, 'reaper: reconciliation failed'))
      if (stopped) return
      await reapExpired(services)
      if (stopped) return
      await notifyExpiring(services, notified)
    })
  }

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = round()
        .catch((err: unknown) => services.log.error({ err }, 'reaper: round failed'))
        .finally(schedule)
    }, services.config.CONTAINER_REAPER_INTERVAL_MS)
    timer.unref()
  }

  // The boot round runs in the background so a slow engine never delays the start.
  running = round()
    .catch((err: unknown) => services.log.error({ err }, 'reaper: boot round failed'))
    .finally(schedule)

  return {
    name: 'container-reaper',
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
