/**
 * Staged reveals' auto-play on every node (docs/scoring.md#staged-reveal): a sweep every
 * REVEAL_SWEEP_MS takes over a reveal whose next step is overdue — the node that played it
 * stopped or restarted — so the big screen keeps moving; the reveal's row decides who steps.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { startPeriodic } from './periodic.js'
import { resumeStalledReveals, stopAutoPlay } from '../domain/scoreboard/reveal/reveal.js'

const REVEAL_SWEEP_MS = 2000

export function startRevealAutoPlay(services: Services): Promise<Worker> {
  const sweep = startPeriodic('reveal-auto-play', REVEAL_SWEEP_MS, services.log, () => resumeStalledReveals(services))
  return Promise.resolve({
    name: sweep.name,
    async stop() {
      await sweep.stop()
      stopAutoPlay(services)
    },
  })
}
