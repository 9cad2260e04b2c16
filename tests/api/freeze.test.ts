/**
 * The scoreboard freeze (docs/scoring.md#freeze): from the freeze on, every channel a player or
 * the public reaches — the board in its GZ::CTF shapes, details' rank, the CTFtime feed, API-token
 * reads, notices, hot reads and their validators — shows the board as it stood at the freeze,
 * while the solving team still sees its own result and staff may read the live board
 * (`view=live`). A freeze time passing takes effect by itself; the unfreeze publishes the live board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { ApiClient } from '../support/client.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, createSubmission, isolateIds, sameSessionOn, settled, startSecondNode, submit, type Player } from '../support/factories/play.js'
import { unzip } from '../support/zip.js'
import { createUser, type TestUser } from '../support/factories/users.js'

let server: TestServer
let admin: ApiClient
let monitor: TestUser
let game: Game
let web: Challenge
let misc: Challenge
let a: Player
let b: Player
const HOUR = 3600_000

const boardPath = (id: number, query = '') => `/api/game/${id}/scoreboard${query}`
const cellOf = (board: ScoreboardModel, teamId: number, challengeId: number) => board.items.find((i) => i.id === teamId)!.challenges.find((c) => c.id === challengeId)!
const rowOf = (board: ScoreboardModel, teamId: number) => board.items.find((i) => i.id === teamId)!
const challengeOf = (board: ScoreboardModel, id: number) =>
  Object.values(board.challenges)
    .flatMap((list) => list ?? [])
    .find((c) => c.id === id)!

async function solve(p: Player, gameId: number, challenge: Challenge) {
  const id = await submit(p.client, gameId, challenge.id, 'flag{test}')
  expect(await settled(p.client, gameId, challenge.id, id)).toBe('Accepted')
}

/** Poll `read` until `ok` holds (engine pushes are coalesced, ≤ 100 ms). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`not as expected: ${JSON.stringify(value).slice(0, 400)}`)
    await new Promise((r) => setTimeout(r, 40))
  }
}

const live = async (client: ApiClient, gameId: number) => (await client.get<ScoreboardModel>(boardPath(gameId, '?view=live'))).body

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
  monitor = await createUser(server, { role: 'Monitor' })
  game = await createGame(server, { ctftimeFeed: true })
  web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 500, minScoreRate: 0.25, difficulty: 5 })
  misc = await createChallenge(server, game, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
  a = await createPlayer(server, game)
  b = await createPlayer(server, game)
  await createInstances(server, [a.participation, b.participation], [web, misc])
})
afterAll(async () => {
  await server?.close()
})

describe('scoreboard freeze', () => {
  it('hides a post-freeze solve from every player channel while its team sees its own result, and the unfreeze reveals it', async () => {
    await solve(a, game.id, web)
    const before = await eventually(
      async () => (await server.client().get<ScoreboardModel>(boardPath(game.id))).body,
      (board) => cellOf(board, a.team.id, web.id).type === 'FirstBlood',
    )
    expect(before).toMatchObject({ frozen: false, freezeTime: null })
    const webScoreBefore = challengeOf(before, web.id).score

    const frozeRes = await admin.post(`/api/edit/games/${game.id}/freeze`)
    expect(frozeRes.status, frozeRes.text).toBe(200)
    expect(frozeRes.body.freezeTime).toEqual(expect.any(String))
    const frozen = await server.client().get<ScoreboardModel>(boardPath(game.id))
    expect(frozen.body).toMatchObject({ frozen: true, freezeTime: frozeRes.body.freezeTime })
    expect(frozen.body.live).toBeUndefined()
    const etag = frozen.headers.get('etag')!
    const version = frozen.headers.get('x-scoreboard-version')
    // Freezing again keeps the freeze as it is.
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).body.freezeTime).toBe(frozeRes.body.freezeTime)
    expect((await admin.get(`/api/game/${game.id}`)).body).toMatchObject({ frozen: true, freezeTime: frozeRes.body.freezeTime })

    const detailsA0 = await a.client.get(`/api/game/${game.id}/details`)
    const token = (await a.client.post('/api/account/tokens', { name: 'bot', scopes: ['read'], expiresInDays: 1 })).body.token as string
    const feedBefore = (await server.client().get(`/api/game/${game.id}/ctftime`)).text

    // b solves after the freeze: the second blood of web, and its dynamic value moves.
    await solve(b, game.id, web)
    const liveBoard = await eventually(
      () => live(admin, game.id),
      (board) => cellOf(board, b.team.id, web.id).type === 'SecondBlood',
    )
    expect(liveBoard).toMatchObject({ frozen: false, live: true })
    expect(challengeOf(liveBoard, web.id).score).toBeLessThan(webScoreBefore)
    // A monitor reads the live board too.
    expect(cellOf(await live(monitor.client, game.id), b.team.id, web.id).type).toBe('SecondBlood')

    // Every public shape: plain, gzipped, GZ::CTF's newer forms, with `view=live` from a player or anonymous, a bearer token, admins without `view=live`.
    const readers: [string, () => Promise<{ status: number; body: ScoreboardModel; headers: Headers }>][] = [
      ['anonymous', () => server.client().get<ScoreboardModel>(boardPath(game.id))],
      ['gzip', () => server.client().get<ScoreboardModel>(boardPath(game.id), { 'accept-encoding': 'gzip' })],
      ['newer forms', () => server.client().get<ScoreboardModel>(boardPath(game.id), { 'x-gzctf-compat': '1.7' })],
      ['player view=live', () => b.client.get<ScoreboardModel>(boardPath(game.id, '?view=live'))],
      ['anonymous view=live', () => server.client().get<ScoreboardModel>(boardPath(game.id, '?view=live'))],
      ['hostile view', () => b.client.get<ScoreboardModel>(boardPath(game.id, '?view=live&view=live&view[]=x'))],
      ['token', () => new ApiClient(server.url).get<ScoreboardModel>(boardPath(game.id), { authorization: `Bearer ${token}` })],
      ['admin default', () => admin.get<ScoreboardModel>(boardPath(game.id))],
    ]
    for (const [name, read] of readers) {
      const res = await read()
      expect(res.status, name).toBe(200)
      expect(res.body.frozen, name).toBe(true)
      expect(cellOf(res.body, b.team.id, web.id).type, name).toBe('Unaccepted')
      expect(rowOf(res.body, b.team.id).score, name).toBe(0)
      expect(challengeOf(res.body, web.id), name).toMatchObject({ score: webScoreBefore, solved: 1 })
      expect(challengeOf(res.body, web.id).bloods, name).toHaveLength(1)
      expect(res.headers.get('etag'), name).toBe(etag)
    }
    // The validator and version stood still: a poll is a 304.
    const again = await server.client().get(boardPath(game.id), { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.headers.get('x-scoreboard-version')).toBe(version)

    // Details: another team sees neither the solve nor the value change; b sees its own result, marked.
    const detailsA = await a.client.get(`/api/game/${game.id}/details`)
    expect(detailsA.text).toBe(detailsA0.text)
    expect(detailsA.body.solvedAfterFreeze).toEqual([])
    const detailsB = await b.client.get(`/api/game/${game.id}/details`)
    expect(detailsB.status).toBe(200)
    expect(detailsB.body.solvedAfterFreeze).toEqual([web.id])
    expect(detailsB.body.rank).toMatchObject({ score: 0, solvedCount: 0 })
    expect(Object.values(detailsB.body.challenges as ScoreboardModel['challenges']).flat().find((c) => c!.id === web.id)).toMatchObject({ score: webScoreBefore, solved: 1 })
    // A challenge's own page shows the frozen value too, to every team.
    for (const p of [a, b]) expect((await p.client.get(`/api/game/${game.id}/challenges/${web.id}`)).body.score).toBe(webScoreBefore)
    // The hot-read copy of a's answer keeps its validator.
    const detailsA2 = await a.client.get(`/api/game/${game.id}/details`, { 'if-none-match': detailsA.headers.get('etag')! })
    expect(detailsA2.status).toBe(304)

    // The CTFtime feed and the notices (b's blood notice is held back).
    expect((await server.client().get(`/api/game/${game.id}/ctftime`)).text).toBe(feedBefore)
    const notices = (await a.client.get<{ type: string; content: string }[]>(`/api/game/${game.id}/notices`)).body
    expect(notices.filter((n) => n.type === 'SecondBlood')).toEqual([])
    expect(notices.filter((n) => n.type === 'FirstBlood')).toHaveLength(1)

    // The unfreeze: everyone reads the live board, the held notice appears.
    const lifted = await admin.post(`/api/edit/games/${game.id}/unfreeze`)
    expect(lifted.status).toBe(200)
    const after = await server.client().get<ScoreboardModel>(boardPath(game.id))
    expect(after.body).toMatchObject({ frozen: false, freezeTime: null })
    expect(after.body.live).toBeUndefined()
    expect(cellOf(after.body, b.team.id, web.id).type).toBe('SecondBlood')
    expect((await a.client.get(`/api/game/${game.id}/challenges/${web.id}`)).body.score).toBe(challengeOf(after.body, web.id).score)
    expect(challengeOf(after.body, web.id).score).toBeLessThan(webScoreBefore)
    expect(after.headers.get('etag')).not.toBe(etag)
    expect((await a.client.get(`/api/game/${game.id}/ctftime`)).text).not.toBe(feedBefore)
    expect((await b.client.get(`/api/game/${game.id}/details`)).body.solvedAfterFreeze).toBeUndefined()
    const released = (await a.client.get<{ type: string }[]>(`/api/game/${game.id}/notices`)).body
    expect(released.filter((n) => n.type === 'SecondBlood')).toHaveLength(1)
    // Unfreezing again changes nothing.
    expect((await admin.post(`/api/edit/games/${game.id}/unfreeze`)).status).toBe(200)
  })

  it('takes effect by itself when the freeze time passes: no cached answer outlives it', async () => {
    const g = await createGame(server)
    const sanity = await createChallenge(server, g, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
    const p = await createPlayer(server, g)
    await createInstances(server, [p.participation], [sanity])
    const freezeAt = Date.now() + 2000
    const info = (await admin.get(`/api/edit/games/${g.id}`)).body
    const put = await admin.put(`/api/edit/games/${g.id}`, { ...info, freezeTime: freezeAt })
    expect(put.status, put.text).toBe(200)
    // Warm every cache before the freeze: the board (fast path), the game, the details.
    const warm = await eventually(
      async () => server.client().get<ScoreboardModel>(boardPath(g.id)),
      (res) => res.status === 200 && res.body.freezeTime !== null,
    )
    expect(warm.body.frozen).toBe(false)
    expect((await p.client.get(`/api/game/${g.id}`)).body.frozen).toBe(false)
    await p.client.get(`/api/game/${g.id}/details`)
    await new Promise((r) => setTimeout(r, Math.max(0, freezeAt - Date.now()) + 50))

    const frozen = await server.client().get<ScoreboardModel>(boardPath(g.id))
    expect(frozen.body.frozen).toBe(true)
    expect(frozen.headers.get('etag')).not.toBe(warm.headers.get('etag'))
    expect((await p.client.get(`/api/game/${g.id}`)).body.frozen).toBe(true)

    await solve(p, g.id, sanity)
    await eventually(
      () => live(admin, g.id),
      (board) => cellOf(board, p.team.id, sanity.id).type === 'FirstBlood',
    )
    const still = await server.client().get<ScoreboardModel>(boardPath(g.id))
    expect(cellOf(still.body, p.team.id, sanity.id).type).toBe('Unaccepted')
    expect(still.headers.get('etag')).toBe(frozen.headers.get('etag'))
    expect((await p.client.get(`/api/game/${g.id}/details`)).body.solvedAfterFreeze).toEqual([sanity.id])

    // The engine restarts (another owner takes over): the frozen board keeps its version, which the
    // new owner finds in Redis or, without Redis, recorded in the database (docs/scoring.md#freeze).
    await server.services.scoreboard.stop()
    await server.services.scoreboard.start()
    const restarted = await server.client().get<ScoreboardModel>(boardPath(g.id))
    expect(restarted.body.frozen).toBe(true)
    expect(cellOf(restarted.body, p.team.id, sanity.id).type).toBe('Unaccepted')
    expect(restarted.headers.get('etag')).toBe(frozen.headers.get('etag'))
    // The live board's versions go on after the frozen one's, so the staff's screens take them.
    const liveAfter = await admin.get(boardPath(g.id, '?view=live'))
    expect(Number(liveAfter.headers.get('x-scoreboard-version'))).toBeGreaterThan(Number(restarted.headers.get('x-scoreboard-version')))
  })

  it('stays frozen after the end until unfrozen, and so does the static archive', async () => {
    const now = Date.now()
    const g = await createGame(server, { start: new Date(now - 3 * HOUR), end: new Date(now - HOUR), freezeTime: new Date(now - 2 * HOUR) })
    const sanity = await createChallenge(server, g, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
    const early = await createPlayer(server, g, { teamName: 'Early' })
    const late = await createPlayer(server, g, { teamName: 'Late' })
    await createInstances(server, [early.participation, late.participation], [sanity])
    await createSubmission(server, g, sanity, early.participation, early.user, { submitTime: new Date(now - 2.5 * HOUR) })
    await createSubmission(server, g, sanity, late.participation, late.user, { submitTime: new Date(now - 1.5 * HOUR) })
    const board = (await server.client().get<ScoreboardModel>(boardPath(g.id))).body
    expect(board.frozen).toBe(true)
    expect(cellOf(board, early.team.id, sanity.id).type).toBe('FirstBlood')
    expect(cellOf(board, late.team.id, sanity.id).type).toBe('Unaccepted')
    expect(cellOf(await live(admin, g.id), late.team.id, sanity.id).type).toBe('SecondBlood')

    const archived = await fetch(`${server.url}/api/edit/games/${g.id}/archive`, {
      method: 'POST',
      headers: { cookie: admin.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ challenges: false, attachments: false }),
    })
    expect(archived.status).toBe(200)
    const html = (await unzip(Buffer.from(await archived.arrayBuffer()))).get('index.html')!.toString('utf8')
    const site = JSON.parse(html.slice(html.indexOf('window.FLAGWAVE_ARCHIVE = ') + 26, html.indexOf(';</script>', html.indexOf('window.FLAGWAVE_ARCHIVE')))) as { board: ScoreboardModel }
    expect(site.board.frozen).toBe(true)
    expect(cellOf(site.board, late.team.id, sanity.id).type).toBe('Unaccepted')

    // Monitor-only sheets stay live: both teams have solved.
    const sheet = await fetch(`${server.url}/api/game/${g.id}/scoreboardsheet`, { headers: { cookie: monitor.client.cookieHeader } })
    expect(sheet.status).toBe(200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await sheet.arrayBuffer())
    const header = workbook.worksheets[0]!.getRow(1).values as unknown[]
    const solvedColumn = header.indexOf('解题数量')
    const solvedCounts: Record<string, unknown> = {}
    workbook.worksheets[0]!.eachRow((row, index) => {
      if (index > 1) solvedCounts[String(row.getCell(2).value)] = row.getCell(solvedColumn).value
    })
    expect(solvedCounts).toEqual({ Early: 1, Late: 1 })

    expect((await admin.post(`/api/edit/games/${g.id}/unfreeze`)).status).toBe(200)
    expect(cellOf((await server.client().get<ScoreboardModel>(boardPath(g.id))).body, late.team.id, sanity.id).type).toBe('SecondBlood')
  })

  it('another node serves the frozen board to the public and the live one to staff', async () => {
    const g = await createGame(server)
    const sanity = await createChallenge(server, g, { title: 'Sanity', tag: 'Misc', originalScore: 100 })
    const p = await createPlayer(server, g)
    await createInstances(server, [p.participation], [sanity])
    await server.client().get(boardPath(g.id))
    expect((await admin.post(`/api/edit/games/${g.id}/freeze`)).status).toBe(200)
    await solve(p, g.id, sanity)
    await eventually(
      () => live(admin, g.id),
      (board) => cellOf(board, p.team.id, sanity.id).type === 'FirstBlood',
    )
    const other = await startSecondNode(server)
    try {
      const onOther = (c: ApiClient) => sameSessionOn(other, c)
      for (const client of [new ApiClient(other.url), onOther(p.client)]) {
        const res = await client.get<ScoreboardModel>(boardPath(g.id, '?view=live'))
        expect(res.body.frozen).toBe(true)
        expect(cellOf(res.body, p.team.id, sanity.id).type).toBe('Unaccepted')
      }
      const staffLive = (await onOther(admin).get<ScoreboardModel>(boardPath(g.id, '?view=live'))).body
      expect(staffLive).toMatchObject({ frozen: false, live: true })
      expect(cellOf(staffLive, p.team.id, sanity.id).type).toBe('FirstBlood')
      expect((await onOther(p.client).get(`/api/game/${g.id}/details`)).body.solvedAfterFreeze).toEqual([sanity.id])
    } finally {
      await other.close()
    }
  })

  it('refuses the freeze commands to non-admins and unknown games', async () => {
    for (const action of ['freeze', 'unfreeze']) {
      expect((await server.client().post(`/api/edit/games/${game.id}/${action}`)).status).toBe(401)
      expect((await a.client.post(`/api/edit/games/${game.id}/${action}`)).status).toBe(403)
      expect((await monitor.client.post(`/api/edit/games/${game.id}/${action}`)).status).toBe(403)
      expect((await admin.post(`/api/edit/games/999999/${action}`)).body).toEqual({ title: '比赛未找到', status: 404 })
      expect((await admin.post(`/api/edit/games/abc/${action}`)).status).toBe(404)
    }
  })
})
