/**
 * `GET /api/game/{id}/scoreboard` (docs/compatibility.md#group-game-challenges-and-flags, #scoreboard-shapes; docs/scoring.md#dynamic-score; docs/realtime.md#scoreboard-versions-and-gap-repair): the shape, scores,
 * bloods and ranks after real submissions, the version validator (ETag / 304), the errors, and the
 * rebuild requested through `requestScoreboardRebuild`.
 */
import { gunzipSync } from 'node:zlib'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { toWireDate } from '@flagwave/shared/format'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { requestScoreboardRebuild } from '../../server/src/domain/scoreboard/hooks.js'
import { loadGameData } from '../../server/src/domain/scoreboard/load.js'
import { ScoreboardState } from '../../server/src/domain/scoreboard/board.js'
import { nativePool } from '../../server/src/db/pg.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstance, createInstances, createPlayer, isolateIds, queueDrained, settled, submit, type Player } from '../support/factories/play.js'

let server: TestServer
let game: Game
let web: Challenge
let misc: Challenge
let pwn: Challenge
let a: Player
let b: Player
let c: Player
let suspended: Player
const HOUR = 3600_000

const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

const path = (id: number) => `/api/game/${id}/scoreboard`
const get = (id = game.id, headers: Record<string, string> = {}) => server.client().get<ScoreboardModel>(path(id), headers)

async function solve(p: Player, challenge: Challenge, flag = 'flag{test}') {
  const id = await submit(p.client, game.id, challenge.id, flag)
  expect(await settled(p.client, game.id, challenge.id, id)).toBe('Accepted')
}

/** The board as a fresh full rebuild from the database sees it. */
async function rebuilt(gameId: number): Promise<ScoreboardModel> {
  const data = await loadGameData(await nativePool(server.services.orm), gameId)
  return ScoreboardState.build(data!).snapshot(Date.now()).model
}
// `updateTimeUtc` is the same time under GZ::CTF 0.18's name.
const withoutTime = ({ updateTimeUTC: _t, updateTimeUtc: _u, ...rest }: ScoreboardModel) => rest

/** Wait until the served board satisfies `ok` (engine pushes are coalesced, ≤ 100 ms). */
async function eventually(ok: (board: ScoreboardModel, version: number) => boolean, timeoutMs = 5000): Promise<{ board: ScoreboardModel; version: number }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await get()
    const version = Number(res.headers.get('x-scoreboard-version'))
    if (res.status === 200 && ok(res.body, version)) return { board: res.body, version }
    if (Date.now() > deadline) throw new Error(`board not as expected: ${res.text.slice(0, 500)}`)
    await new Promise((r) => setTimeout(r, 30))
  }
}

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  game = await createGame(server, { organizations: ['North', 'South'] })
  web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 500, minScoreRate: 0.25, difficulty: 5 })
  misc = await createChallenge(server, game, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
  pwn = await createChallenge(server, game, { title: 'Heap', tag: 'Pwn', originalScore: 300 })
  await createChallenge(server, game, { title: 'Hidden', tag: 'Crypto', isEnabled: false })
  a = await createPlayer(server, game, { organization: 'North' })
  b = await createPlayer(server, game, { organization: 'South' })
  c = await createPlayer(server, game, { organization: 'North' })
  suspended = await createPlayer(server, game, { status: 'Suspended' })
  await createInstances(server, [a.participation, b.participation, c.participation, suspended.participation], [web, misc])
  await createInstance(server, a.participation, pwn)
})
afterAll(async () => {
  await server?.close()
})

describe('GET /api/game/{id}/scoreboard', () => {
  it('serves the board of accepted teams before any solve', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const board = ScoreboardModel.parse(res.body)
    expect(board.bloodBonus).toBe(52459530)
    expect(Object.keys(board.challenges)).toEqual(['Misc', 'Pwn', 'Web'])
    expect(board.challenges.Web).toEqual([
      { id: web.id, title: 'SQLi', tag: 'Web', score: 500, solved: 0, bloods: [], category: 'Web', disableBloodBonus: false, deadline: null },
    ])
    // no solve yet: all tied at 0 with the game start as last submission, in team id order
    expect(board.items.map((i) => i.id)).toEqual([a.team.id, b.team.id, c.team.id])
    expect(board.items[0]).toMatchObject({ rank: 1, organization: 'North', organizationRank: 1, score: 0, solvedCount: 0, lastSubmissionTime: toWireDate(game.start) })
    expect(board.items[0]!.challenges.map((x) => x.id)).toEqual([web.id, misc.id, pwn.id].sort((x, y) => x - y))
    expect(board.items[1]!.challenges).toHaveLength(2)
    expect(Object.keys(board.timeLines)).toEqual(['all', 'North', 'South'])
  })

  it('scores solves with decay and blood bonus, ranks and bloods in solve order', async () => {
    await solve(b, web)
    let { board } = await eventually((x) => x.challenges.Web![0]!.solved === 1)
    expect(board.items[0]).toMatchObject({ id: b.team.id, rank: 1, score: 525, solvedCount: 1, organizationRank: 1 })

    await solve(a, web)
    await solve(a, misc)
    // A team suspended after its solve: the solve still counts for the decay, the team is not on the board.
    const setStatus = (status: string) => server.services.orm.em.fork().getConnection().execute('update participations set status = ? where id = ?', [status, suspended.participation.id])
    await setStatus('Accepted')
    await solve(suspended, web)
    await setStatus('Suspended')
    await server.services.scoreboard.rebuild(game.id)
    ;({ board } = await eventually((x) => x.challenges.Web![0]!.solved === 3 && x.challenges.Misc![0]!.solved === 1))
    // Web: 3 solvers → ⌊500 · (0.25 + 0.75 · e^(−2/5))⌋ = 376; b first (394.8 → 395), a second (387.28 → 387)
    expect(board.challenges.Web![0]).toMatchObject({ score: 376, solved: 3 })
    expect(board.challenges.Web![0]!.bloods.map((x) => x.id)).toEqual([b.team.id, a.team.id])
    expect(board.challenges.Misc![0]).toMatchObject({ score: 100, solved: 1, bloods: [{ id: a.team.id, name: a.team.name, avatar: null }] })
    const rowA = board.items.find((i) => i.id === a.team.id)!
    const rowB = board.items.find((i) => i.id === b.team.id)!
    expect(rowA).toMatchObject({ rank: 1, score: 387 + 105, solvedCount: 2, organizationRank: 1 })
    expect(rowA.challenges.find((x) => x.id === web.id)).toMatchObject({ score: 387, type: 'SecondBlood', userName: a.user.userName })
    expect(rowA.challenges.find((x) => x.id === misc.id)).toMatchObject({ score: 105, type: 'FirstBlood' })
    expect(rowA.challenges.find((x) => x.id === pwn.id)).toEqual({ id: pwn.id, score: 0, type: 'Unaccepted', userName: null, time: null })
    expect(rowB).toMatchObject({ rank: 2, score: 395, organizationRank: 1 })
    expect(board.items.find((i) => i.id === c.team.id)).toMatchObject({ rank: 3, score: 0, organizationRank: 2 })
    expect(board.items.some((i) => i.id === suspended.team.id)).toBe(false)
    expect(board.timeLines.all!.map((t) => t.id)).toEqual([a.team.id, b.team.id, c.team.id])
    expect(board.timeLines.all![0]!.items.map((p) => p.score)).toEqual([387, 492])
    expect(board.timeLines.North!.map((t) => t.id)).toEqual([a.team.id, c.team.id])
    expect(board.timeLines.South!.map((t) => t.id)).toEqual([b.team.id])
    expect(withoutTime(board)).toEqual(withoutTime(await rebuilt(game.id)))
  })

  it('carries its version in ETag and X-Scoreboard-Version; If-None-Match answers 304', async () => {
    await queueDrained(server)
    await new Promise((r) => setTimeout(r, 300)) // pushes of earlier solves are coalesced (≤ 100 ms)
    const first = await get()
    const version = Number(first.headers.get('x-scoreboard-version'))
    expect(version).toBeGreaterThan(0)
    const etag = first.headers.get('etag')!
    expect(etag).toBe(`W/"${version}"`)
    const again = await get(game.id, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect((await get(game.id, { 'if-none-match': `"${version}"` })).status).toBe(304)
    expect((await get(game.id, { 'if-none-match': `W/"1", ${etag}` })).status).toBe(304)
    expect((await get(game.id, { 'if-none-match': 'W/"1"' })).status).toBe(200)

    await solve(c, misc)
    const { version: next } = await eventually((_x, v) => v > version)
    expect(next).toBe(version + 1)
    const changed = await get(game.id, { 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).toBe(`W/"${next}"`)
  })

  it('serves a gzipped copy to clients that accept it', async () => {
    const { status, headers, body } = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(server.url + path(game.id), { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (d) => chunks.push(d))
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
        })
        .on('error', reject)
    })
    expect(status).toBe(200)
    expect(headers['content-encoding']).toBe('gzip')
    expect(headers.vary).toMatch(/accept-encoding/i)
    expect(headers['x-content-type-options']).toBe('nosniff')
    const plain = await get()
    expect(JSON.parse(gunzipSync(body).toString('utf8'))).toEqual(plain.body)
  })

  it('answers the board in memory before Koa, with the same headers and bytes as the route', async () => {
    await get()
    const raw = (method: string, url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .request(server.url + url, { method, headers }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (d) => chunks.push(d))
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
          })
          .on('error', reject)
          .end()
      })
    for (const encoding of ['gzip, deflate', 'identity']) {
      // The first request with an Accept-Encoding value not seen yet goes through Koa, which learns it.
      const viaRoute = await raw('GET', `${path(game.id)}?via=route`, { 'accept-encoding': encoding })
      const direct = await raw('GET', path(game.id), { 'accept-encoding': encoding })
      expect(viaRoute.headers['x-request-id']).toBeDefined()
      expect(direct.headers['x-request-id']).toBeUndefined()
      expect(direct.status).toBe(200)
      expect(direct.body.equals(viaRoute.body)).toBe(true)
      expect(Number(direct.headers['content-length'])).toBe(direct.body.length)
      for (const name of ['etag', 'x-scoreboard-version', 'cache-control', 'vary', 'x-content-type-options', 'content-type', 'content-encoding']) {
        expect([name, direct.headers[name]]).toEqual([name, viaRoute.headers[name]])
      }
      const head = await raw('HEAD', path(game.id), { 'accept-encoding': encoding })
      expect(head.status).toBe(200)
      expect(head.body.length).toBe(0)
      expect(head.headers['content-length']).toBe(direct.headers['content-length'])
      const revalidated = await raw('GET', path(game.id), { 'accept-encoding': encoding, 'if-none-match': String(direct.headers.etag) })
      expect(revalidated.status).toBe(304)
      expect(revalidated.body.length).toBe(0)
      expect(revalidated.headers.etag).toBe(direct.headers.etag)
    }
  })

  it('answers a new version before Koa even while its gzipped copy is still being made (an announced board is read by every watcher at once)', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(server.url + path(game.id), { headers }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (d) => chunks.push(d))
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
          })
          .on('error', reject)
      })
    await raw({ 'accept-encoding': 'gzip' }) // the value is known to the fast path
    // A new version (the rebuild publishes it at once), read before its gzipped copy exists.
    const before = server.services.scoreboard.inMemory(game.id)!.version
    await server.services.scoreboard.rebuild(game.id)
    const fresh = server.services.scoreboard.inMemory(game.id)!
    expect(fresh.version).toBeGreaterThan(before)
    expect(Buffer.byteLength(fresh.json)).toBeGreaterThanOrEqual(2048)
    expect(fresh.gzippedNow()).toBeUndefined()
    const reads = await Promise.all([raw({ 'accept-encoding': 'gzip' }), raw({ 'accept-encoding': 'gzip' })])
    for (const read of reads) {
      expect(read.status).toBe(200)
      expect(read.headers['x-request-id']).toBeUndefined()
      expect(read.headers['content-encoding']).toBe('gzip')
      expect(read.headers['x-scoreboard-version']).toBe(String(fresh.version))
      expect(gunzipSync(read.body).toString('utf8')).toBe(fresh.json)
    }
  })

  it('counts the global rate limit per forwarded address before Koa, and answers its 429 through the route', async () => {
    const limited = await startTestServer({ env: { DISABLE_RATE_LIMIT: 'false', TRUST_PROXY: 'true', TRUSTED_PROXIES: '127.0.0.1/8' } })
    try {
      const g = await createGame(limited, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR) })
      await limited.services.scoreboard.rebuild(g.id)
      const from = (ip: string) => limited.client().get(`/api/game/${g.id}/scoreboard`, { 'x-forwarded-for': ip })
      const statuses: number[] = []
      for (let i = 0; i < 151; i++) statuses.push((await from('203.0.113.9')).status)
      expect(statuses.slice(0, 150).every((s) => s === 200)).toBe(true)
      const refused = await from('203.0.113.9')
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({ status: 429 })
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
      expect((await from('203.0.113.10')).status).toBe(200)
    } finally {
      await limited.close()
    }
  })

  it('404 for an unknown game, 400 before the start; anonymous callers are welcome', async () => {
    expectError(await get(999_999_999), 404, '比赛未找到')
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    expectError(await get(future.id), 400, '比赛未开始')
    expect((await server.client().get('/api/game/abc/scoreboard')).status).toBe(404)
    expect((await a.client.get(path(game.id))).status).toBe(200)
  })

  it('rebuilds from the database after requestScoreboardRebuild', async () => {
    const { version } = await eventually(() => true)
    const em = server.services.orm.em.fork()
    await em.getConnection().execute('update teams set name = ? where id = ?', ['Renamed', c.team.id])
    await em.getConnection().execute('update challenges set original_score = 1000 where id = ?', [misc.id])
    await requestScoreboardRebuild(server.services, game.id)
    const { board, version: after } = await eventually((x) => x.items.some((i) => i.name === 'Renamed'))
    expect(after).toBeGreaterThan(version)
    // Misc now has 2 solvers of 1000 → 864; a is first blood (907.2 → 907)
    expect(board.challenges.Misc![0]).toMatchObject({ score: 864, solved: 2 })
    expect(board.items.find((i) => i.id === a.team.id)!.challenges.find((x) => x.id === misc.id)!.score).toBe(907)
    expect(withoutTime(board)).toEqual(withoutTime(await rebuilt(game.id)))
  })

  it('services.scoreboard.get and .snapshot serve the same version to the other endpoints', async () => {
    const snapshot = (await server.services.scoreboard.snapshot(game.id))!
    expect(JSON.parse(snapshot.json)).toEqual(snapshot.model)
    expect(await server.services.scoreboard.get(game.id)).toBe(snapshot.model)
    expect(await server.services.scoreboard.snapshot(999_999_999)).toBeNull()
    await expect(server.services.scoreboard.get(999_999_999)).rejects.toMatchObject({ status: 404, title: '比赛未找到' })
  })
})
