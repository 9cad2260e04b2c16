/** The scoreboard as the server serves it, for tests that wait for or compare boards. */
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { TestServer } from './server.js'

/** The anonymous board with its version (`X-Scoreboard-Version`). */
export async function boardOf(server: Pick<TestServer, 'client'>, gameId: number): Promise<{ version: number; board: ScoreboardModel }> {
  const res = await server.client().get(`/api/game/${gameId}/scoreboard`)
  return { version: Number(res.headers.get('x-scoreboard-version')), board: ScoreboardModel.parse(res.body) }
}

/** Wait until the served board satisfies `ok`. */
export async function servedBoard(server: Pick<TestServer, 'client'>, gameId: number, ok: (board: ScoreboardModel) => boolean, timeoutMs = 5000): Promise<ScoreboardModel> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await server.client().get<ScoreboardModel>(`/api/game/${gameId}/scoreboard`)
    if (res.status === 200 && ok(res.body)) return ScoreboardModel.parse(res.body)
    if (Date.now() > deadline) throw new Error(`board not as expected: ${res.text.slice(0, 800)}`)
    await new Promise((r) => setTimeout(r, 30))
  }
}
