/**
 * What the admin does while the simulated event runs: posts the notices and opens the late
 * challenges, spread over the event (each one's push latency to the players is measured by the
 * NoticeTracker), and keeps an eye on the teams (the participations list every minute).
 */
import type { Browser } from './http.js'
import type { World } from './player.js'
import { sleep } from './player.js'

interface Action {
  at: number
  run: () => Promise<void>
}

export async function direct(admin: Browser, world: World, startedAt: number): Promise<void> {
  const { plan, options, notices } = world
  const gameId = plan.gameId
  const length = world.deadline - startedAt
  const actions: Action[] = []
  // Notices from 15 % to 90 % of the event, late challenges from 25 % to 75 %.
  for (let i = 0; i < options.notices; i++) {
    const at = startedAt + length * (0.15 + (0.75 * i) / Math.max(1, options.notices - 1))
    const token = `#${i + 1}-${Math.random().toString(36).slice(2, 8)}`
    actions.push({
      at,
      run: async () => {
        notices.expect('Normal', token, 'notice posted', world.connected.size)
        await admin.post(`/api/edit/games/${gameId}/notices`, { content: `Announcement ${token}: the hint for the crypto track is out.` }, 'admin: POST /api/edit/games/{id}/notices')
      },
    })
  }
  const late = plan.challenges.filter((c) => c.hidden)
  late.forEach((challenge, i) => {
    actions.push({
      at: startedAt + length * (0.25 + (0.5 * i) / Math.max(1, late.length - 1)),
      run: async () => {
        notices.expect('NewChallenge', challenge.title, 'challenge opened (NewChallenge notice)', world.connected.size)
        await admin.put(`/api/edit/games/${gameId}/challenges/${challenge.id}`, { isEnabled: true }, 'admin: PUT …/challenges/{cid} (open)')
      },
    })
  })
  for (let at = startedAt + 60_000; at < world.deadline; at += 60_000) {
    actions.push({ at, run: async () => void (await admin.get(`/api/game/${gameId}/participations`, 'admin: GET /api/game/{id}/participations')) })
  }
  actions.sort((a, b) => a.at - b.at)
  for (const action of actions) {
    await sleep(Math.max(0, action.at - performance.now()))
    if (performance.now() >= world.deadline) break
    await action.run().catch(() => undefined)
  }
}
