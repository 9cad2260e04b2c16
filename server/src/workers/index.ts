/**
 * Background work of a node. Each worker has start/stop; stop() drains what is in flight.
 * (The submission checker, scoreboard engine, container reaper and others register here.)
 */
import type { Services } from '../services.js'
import { startScoreboard } from './scoreboard.js'
import { startChecker } from './checker.js'
import { startPurge } from './purge.js'
import { startWebhooks } from './webhooks.js'
import { startTokenUsage } from './tokenUsage.js'
import { startReleases } from './release.js'
import { startRevealAutoPlay } from './reveal.js'
import type { Worker } from './worker.js'

export interface Workers {
  list: Worker[]
  stop(): Promise<void>
}

type WorkerFactory = (services: Services) => Promise<Worker | null>

/** Every background worker of a node, started in order and stopped in reverse order. */
const factories: WorkerFactory[] = [
  startScoreboard,
  startChecker,
  async (services) => (await import('./reaper.js')).startReaper(services),
  startPurge,
  startWebhooks,
  startTokenUsage,
  startReleases,
  startRevealAutoPlay,
]

export async function startWorkers(services: Services): Promise<Workers> {
  const list: Worker[] = []
  for (const factory of factories) {
    const worker = await factory(services)
    if (worker) list.push(worker)
  }
  return {
    list,
    async stop() {
      for (const worker of [...list].reverse()) {
        await worker.stop().catch((err) => services.log.error({ err, worker: worker.name }, 'worker stop failed'))
      }
    },
  }
}
