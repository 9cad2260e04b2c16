/**
 * The scoreboard engine's background side (domain/scoreboard/service.ts): the dedicated
 * connection for LISTEN and ownership locks, the rebuilds of running games at start, the takeover
 * of games whose owner died, and the coalesced pushes. Stopping pushes what is pending and
 * releases every game so another node can take it over at once.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'

export async function startScoreboard(services: Services): Promise<Worker> {
  await services.scoreboard.start()
  return { name: 'scoreboard', stop: () => services.scoreboard.stop() }
}
