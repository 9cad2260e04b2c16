/**
 * The release scheduler (docs/challenge-rules.md#timed-release). Every CHALLENGE_RELEASE_POLL_MS a
 * node looks for the next opening time; one that falls before the next look gets a timer of its
 * own, so a challenge opens within milliseconds of its time, not of the poll. Opening runs on one
 * node at a time (a PostgreSQL advisory lock for the round, as the container reaper); the
 * challenge's row lock makes a second opening a no-op anyway.
 */
import type { Services } from '../services.js'
import type { Worker } from './worker.js'
import { dueReleases, nextRelease, openScheduledChallenge } from '../domain/challenges/release.js'

const LOCK_KEY = 0x666c7265 // "flre"

export async function startReleases(services: Services): Promise<Worker> {
  const { config, log } = services
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> = Promise.resolve()

  /** One round: open what is due (if this node holds the lock), then the delay until the next look. */
  const round = async (): Promise<number> => {
    const em = services.orm.em.fork()
    await em.transactional(async (tem) => {
      const [row] = await tem.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [LOCK_KEY])
      if (!row?.locked) return
      for (const id of await dueReleases(tem, new Date())) {
        if (stopped) return
        const scope = { em: services.orm.em.fork(), services, events: services.realtime, log }
        await openScheduledChallenge(scope, id).catch((err: unknown) => log.error({ err, challengeId: id }, 'release: opening failed'))
      }
    })
    const next = await nextRelease(em)
    const until = next ? next.getTime() - Date.now() : Infinity
    return Math.max(0, Math.min(config.CHALLENGE_RELEASE_POLL_MS, until))
  }

  const schedule = (delay: number) => {
    if (stopped) return
    timer = setTimeout(() => {
      running = round()
        .catch((err: unknown) => {
          log.error({ err }, 'release: round failed')
          return config.CHALLENGE_RELEASE_POLL_MS
        })
        .then(schedule)
    }, delay)
    timer.unref()
  }
  schedule(0)

  return {
    name: 'challenge-release',
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
