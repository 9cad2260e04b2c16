/**
 * A worker that runs one round at boot (in the background, so a slow round never delays the
 * start) and then one round every `intervalMs` after the previous one ended; `stop()` cancels the
 * next round and waits for the one in flight. A failed round is logged and the next one still runs.
 */
import type { Logger } from 'pino'
import type { Worker } from './worker.js'

export function startPeriodic(name: string, intervalMs: number, log: Logger, round: (stopping: () => boolean) => Promise<void>): Worker {
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  const run = (what: string) =>
    round(() => stopped)
      .catch((err: unknown) => log.error({ err }, `${name}: ${what} failed`))
      .finally(schedule)
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = run('round')
    }, intervalMs)
    timer.unref()
  }
  let running: Promise<void> = run('boot round')
  return {
    name,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
