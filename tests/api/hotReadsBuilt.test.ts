/**
 * A team's board built on the fast path (docs/performance.md#the-teams-board-at-an-opening): when no
 * answer is kept for the current board version — a solve moved the board, an opening dropped every
 * team's answer — `GET /api/game/{id}/details` is built ahead of Koa from the cached rows with the
 * route's own presenter, once the route has answered someone. The answer must be the route's byte
 * for byte (body, ETag, headers, 304), per team and division, and every rule of the route still
 * holds; while frozen, or without the cached rows, the route answers.
 */
import { describe, expect, it, vi } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient, ApiResponse } from '../support/client.js'
import { createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, settled, submit, type Player } from '../support/factories/play.js'
import { afterAll, beforeAll } from 'vitest'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const HOUR = 3600_000
const fromFastPath = (res: ApiResponse) => res.headers.get('x-request-id') === null
const titles = (res: ApiResponse<any>) => Object.values(res.body.challenges as Record<string, { title: string }[]>).flat().map((c) => c.title).sort()

/** Read until the fast path answers. */
async function hot(client: ApiClient, path: string): Promise<ApiResponse<any>> {
  for (let i = 0; i < 4; i++) {
    const res = await client.get(path)
    expect(res.status, `${path}: ${res.text}`).toBe(200)
    if (fromFastPath(res)) return res
  }
  throw new Error(`${path} never came from the fast path`)
}

/** The fast path's answer is the route's: the same body, validator and headers; its ETag revalidates to 304. */
async function sameAsRoute(client: ApiClient, path: string, fast: ApiResponse<any>): Promise<void> {
  const route = await client.get(`${path}?via=route`)
  expect(fromFastPath(route)).toBe(false)
  expect(fast.text).toBe(route.text)
  for (const name of ['etag', 'content-type', 'x-content-type-options', 'content-security-policy', 'x-frame-options', 'cache-control']) {
    expect([name, fast.headers.get(name)]).toEqual([name, route.headers.get(name)])
  }
  const revalidated = await client.get(path, { 'if-none-match': fast.headers.get('etag')! })
  expect([revalidated.status, fromFastPath(revalidated)]).toEqual([304, true])
}

async function solve(p: Player, gameId: number, challengeId: number) {
  expect(await settled(p.client, gameId, challengeId, await submit(p.client, gameId, challengeId, 'flag{test}'))).toBe('Accepted')
}

async function runningGame() {
  const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR), practiceMode: false })
  const first = await createChallenge(server, game, { title: 'First', flags: ['flag{test}'] })
  // Closed for now; the students may not view it once it opens.
  const fresh = await createChallenge(server, game, { title: 'Fresh', isEnabled: false, flags: ['flag{test}'] })
  const students = await createDivision(server, game, {
    name: 'Students',
    challengeConfigs: [{ challengeId: fresh.id, permissions: GamePermission.All & ~GamePermission.ViewChallenge }],
  })
  const a = await createPlayer(server, game)
  const b = await createPlayer(server, game, { organization: students })
  await createInstances(server, [a.participation, b.participation], [first])
  await server.services.scoreboard.rebuild(game.id)
  return { game, first, fresh, a, b, details: `/api/game/${game.id}/details` }
}

describe('the team’s board built on the fast path', () => {
  it('after a solve moved the board: built ahead of Koa, the route’s answer for each team', async () => {
    const { game, first, a, b, details } = await runningGame()
    await hot(a.client, details)
    await hot(b.client, details)
    const version = server.services.scoreboard.inMemory(game.id)!.version
    await solve(a, game.id, first.id)
    await expect.poll(() => server.services.scoreboard.inMemory(game.id)!.version).toBeGreaterThan(version)
    for (const p of [a, b]) {
      const fast = await p.client.get(details)
      expect(fromFastPath(fast)).toBe(true)
      expect(fast.body.teamToken).toBe(p.participation.token)
      expect(fast.body.rank.id).toBe(p.team.id)
      await sameAsRoute(p.client, details, fast)
    }
    expect((await a.client.get(details)).body.rank.challenges.find((c: { id: number }) => c.id === first.id).type).toBe('FirstBlood')
  })

  it('after an opening: the game’s rules are loaded once for the herd, and the teams’ boards are built ahead of Koa, each with its division’s view', async () => {
    const { game, fresh, a, b, details } = await runningGame()
    const c = await createPlayer(server, game)
    await hot(a.client, details)
    await hot(b.client, details)
    // c has not opened its board yet, only the game page (its session and registration are cached).
    await hot(c.client, `/api/game/${game.id}`)
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${fresh.id}`, { isEnabled: true })).status).toBe(200)
    // The opening dropped every kept board and the game's rules; every team reads at once. The first
    // read starts loading the rules and goes to the route, the others wait for that load.
    const route = vi.spyOn(server.services.scoreboard, 'snapshot')
    let herd: ApiResponse<any>[]
    try {
      herd = await Promise.all([a, b, c].map((p) => p.client.get(details)))
      expect(route.mock.calls.length).toBeLessThanOrEqual(1)
    } finally {
      route.mockRestore()
    }
    expect(herd.filter(fromFastPath).length).toBeGreaterThanOrEqual(2)
    const listed = [['First', 'Fresh'], ['First'], ['First', 'Fresh']]
    for (const [i, p] of [a, b, c].entries()) {
      expect(titles(herd[i]!)).toEqual(listed[i])
      if (fromFastPath(herd[i]!)) await sameAsRoute(p.client, details, herd[i]!)
    }
    // Once the rules are back, a team's read after the next version is built here too.
    const again = await b.client.get(details)
    expect(fromFastPath(again)).toBe(true)
    await sameAsRoute(b.client, details, again)
  })

  it('never answers what the route refuses, and leaves the frozen board to the route', async () => {
    const { game, first, a, b, details } = await runningGame()
    await hot(a.client, details)
    await hot(b.client, details)
    // Suspended: the refusal is the route's, also right after the board moved.
    expect((await admin.put(`/api/admin/participation/${b.participation.id}/Suspended`)).status).toBe(200)
    await solve(a, game.id, first.id)
    expect((await b.client.get(details)).body).toEqual({ title: '您的参赛申请尚未通过或被禁赛', status: 400 })
    expect((await server.client().get(details)).body).toEqual({ title: '请先登录', status: 401 })
    // Frozen: the team's own solves since the freeze come from the live board; the route builds it.
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    await expect.poll(() => server.services.scoreboard.inMemory(game.id)?.model.frozen).toBe(true)
    const frozen = await a.client.get(details)
    expect(fromFastPath(frozen)).toBe(false)
  })
})
