/**
 * The webhook sender (docs/webhooks.md#outbox): every WEBHOOK_POLL_MS each node inserts the game
 * starts and ends that became due, then claims due deliveries up to WEBHOOK_CONCURRENCY in flight
 * and sends them; a finished delivery frees its slot and wakes the loop. `stop()` aborts the
 * requests in flight and hands them back (due at once) so another node sends them.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { nativePool } from '../db/pg.js'
import { enqueueMilestones } from '../domain/webhooks/outbox.js'
import { attempt, claimDeliveries, recordOutcome, type ClaimedDelivery } from '../domain/webhooks/deliver.js'

export async function startWebhooks(services: Services): Promise<Worker | null> {
  const { config, log } = services
  if (config.WEBHOOK_CONCURRENCY === 0) return null
  const pool = await nativePool(services.orm)
  const abort = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let round: Promise<void> | null = null

  const send = (d: ClaimedDelivery) => {
    const job = attempt(config, d, abort.signal)
      .catch((err: unknown) => ({ ok: false, retry: true, responseCode: null, error: `internal error: ${(err as Error).message}` }))
      .then((outcome) => recordOutcome(pool, config, d, outcome))
      .catch((err: unknown) => log.error({ err, delivery: d.deliveryId }, 'webhooks: recording an outcome failed'))
      .finally(() => {
        inFlight.delete(job)
        if (!stopped) wake()
      })
    inFlight.add(job)
  }

  const tick = async () => {
    await enqueueMilestones(pool)
    for (;;) {
      const free = config.WEBHOOK_CONCURRENCY - inFlight.size
      if (stopped || free <= 0) return
      const claimed = await claimDeliveries(pool, config, free)
      for (const d of claimed) send(d)
      if (claimed.length < free) return
    }
  }

  const wake = () => {
    if (round || stopped) return
    if (timer) clearTimeout(timer)
    timer = null
    round = tick()
      .catch((err: unknown) => log.error({ err }, 'webhooks: round failed'))
      .finally(() => {
        round = null
        if (!stopped) {
          timer = setTimeout(wake, config.WEBHOOK_POLL_MS)
          timer.unref()
        }
      })
  }
  wake()

  return {
    name: 'webhooks',
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await round
      abort.abort()
      await Promise.all(inFlight)
    },
  }
}
