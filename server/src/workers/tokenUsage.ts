/**
 * Writes the last use of API tokens (docs/architecture.md#api-tokens): requests record uses in
 * memory (no write per request on the hot path), this worker writes them in one statement every
 * TOKEN_USAGE_FLUSH_MS, and once more when the node stops.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { flushTokenUsage } from '../domain/accounts/apiTokens.js'
import { startPeriodic } from './periodic.js'

const TOKEN_USAGE_FLUSH_MS = 10_000

export async function startTokenUsage(services: Services): Promise<Worker> {
  const flush = () => flushTokenUsage(services.orm.em.fork())
  const periodic = startPeriodic('token-usage', TOKEN_USAGE_FLUSH_MS, services.log, async () => {
    await flush()
  })
  return {
    name: periodic.name,
    async stop() {
      await periodic.stop()
      await flush().catch((err: unknown) => services.log.error({ err }, 'token-usage: final flush failed'))
    },
  }
}
