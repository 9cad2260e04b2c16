/**
 * Spreadsheet exports (docs/compatibility.md#group-game-monitors): real .xlsx files that parse back with exceljs,
 * with the contract's sheet names, columns and download names; the error quirks (404 with body
 * status 400, `遇到问题，请重试` for an empty board) and the Monitor role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createSubmission } from '../support/factories/play.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import { Challenge } from '../../server/src/entities/Challenge.js'

let server: TestServer
let monitor: ApiClient
let user: TestUser
const HOUR = 3600_000

beforeAll(async () => {
  server = await startTestServer()
  monitor = (await createUser(server, { role: 'Monitor' })).client
  user = await createUser(server)
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()

async function download(path: string): Promise<{ res: Response; workbook: ExcelJS.Workbook }> {
  const res = await fetch(server.url + path, { headers: { cookie: monitor.cookieHeader } })
  expect(res.status).toBe(200)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(await res.arrayBuffer())
  return { res, workbook }
}

/** Every row as an array of cell values; an empty cell (exceljs drops empty strings) reads as ''. */
const rowsOf = (sheet: ExcelJS.Worksheet): unknown[][] => {
  const rows: unknown[][] = []
  const width = sheet.getRow(1).cellCount
  sheet.eachRow((row) => rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).value ?? '')))
  return rows
}

const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

const downloadName = (res: Response) => {
  const header = res.headers.get('content-disposition') ?? ''
  const star = /filename\*=UTF-8''([^;]+)/.exec(header)
  return star ? decodeURIComponent(star[1]!) : /filename="([^"]+)"/.exec(header)![1]
}

describe('GET /api/game/{id}/scoreboardsheet', () => {
  it('exports the board: rank, team, organization, captain, members, numbers, phones, solves, time, score, per-challenge points', async () => {
    const game = await createGame(server, { title: '校赛 2026', organizations: ['Uni A', 'Uni B'], bloodBonus: 0 })
    await createChallenge(server, game, { title: 'Warmup', tag: 'Misc', originalScore: 100 })
    const c2 = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 200 })
    const cap = await createUser(server, { realName: '张三', stdNumber: '001', phone: '13800000001' })
    const mate = await createUser(server, { realName: '李四', stdNumber: '002', phone: '13800000002' })
    const team = await createTeam(server, cap.user, [mate.user], { name: 'Alpha' })
    const loner = await createUser(server, { realName: '王五', stdNumber: '003' })
    const team2 = await createTeam(server, loner.user, [], { name: 'Beta' })
    const p1 = await createParticipation(server, game, team, [cap.user, mate.user], 'Accepted', 'Uni A')
    const p2 = await createParticipation(server, game, team2, [loner.user], 'Accepted', 'Uni B')
    await ensureInstances(em(), p1.id, game.id)
    await ensureInstances(em(), p2.id, game.id)
    const solvedAt = new Date(Date.now() - 10 * 60_000)
    solvedAt.setUTCMilliseconds(0)
    await createSubmission(server, game, c2, p1, mate.user, { status: 'Accepted', submitTime: solvedAt })
    await em().nativeUpdate(Challenge, { id: c2.id }, { acceptedCount: 1 })
    await server.services.scoreboard.rebuild(game.id) // rows were written behind the engine's back

    const before = new Date()
    const { res, workbook } = await download(`/api/game/${game.id}/scoreboardsheet`)
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    const name = downloadName(res)
    expect(name).toMatch(/^校赛 2026_Scoreboard_\d{14}\.xlsx$/)
    const stamp = name.slice(-19, -5)
    const local = (d: Date) => `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`
    expect(stamp.slice(0, 8)).toBe(local(before))

    // The overall sheet first, then one sheet per division (docs/scoring.md#divisions), ranked within it.
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['排行榜', 'Uni A', 'Uni B'])
    expect(rowsOf(workbook.worksheets[1]!).slice(1).map((r) => r.slice(0, 3))).toEqual([[1, 'Alpha', 'Uni A']])
    expect(rowsOf(workbook.worksheets[2]!).slice(1).map((r) => r.slice(0, 3))).toEqual([[1, 'Beta', 'Uni B']])
    const rows = rowsOf(workbook.worksheets[0]!)
    expect(rows[0]).toEqual(['排名', '战队', '所属组织', '队长', '队员', '学号', '手机号', '解题数量', '得分时间', '总分', 'Warmup', 'SQLi'])
    expect(rows).toHaveLength(3)
    const [alpha, beta] = [rows[1]!, rows[2]!]
    expect(alpha.slice(0, 3)).toEqual([1, 'Alpha', 'Uni A'])
    expect(alpha[3]).toBe('张三')
    expect(String(alpha[4]).split('/').sort()).toEqual(['张三', '李四'].sort())
    expect(String(alpha[5]).split('/').sort()).toEqual(['001', '002'])
    expect(String(alpha[6]).split('/').sort()).toEqual(['13800000001', '13800000002'])
    expect(alpha.slice(7)).toEqual([1, `${solvedAt.toISOString().slice(0, 10)} ${solvedAt.toISOString().slice(11, 19)}Z`, 200, 0, 200])
    expect(beta.slice(0, 7)).toEqual([2, 'Beta', 'Uni B', '王五', '王五', '003', ''])
    expect(beta.slice(7, 8)).toEqual([0])
    expect(beta.slice(9)).toEqual([0, 0, 0])
  })

  it('leaves out the organization column when the game lists none', async () => {
    const game = await createGame(server)
    await createChallenge(server, game, { title: 'Only' })
    const t = await createTeam(server, user.user)
    const p = await createParticipation(server, game, t, [user.user])
    await ensureInstances(em(), p.id, game.id)
    await server.services.scoreboard.rebuild(game.id)
    const { workbook } = await download(`/api/game/${game.id}/scoreboardsheet`)
    expect(rowsOf(workbook.getWorksheet('排行榜')!)[0]).toEqual(['排名', '战队', '队长', '队员', '学号', '手机号', '解题数量', '得分时间', '总分', 'Only'])
  })

  it('takes costed hint deductions off the total and lists them in a last column (docs/challenge-rules.md#costed-hints)', async () => {
    const game = await createGame(server, { bloodBonus: 0 })
    const c = await createChallenge(server, game, { title: 'Paid', originalScore: 300 })
    const t = await createTeam(server, user.user)
    const p = await createParticipation(server, game, t, [user.user])
    await ensureInstances(em(), p.id, game.id)
    await createSubmission(server, game, c, p, user.user, { status: 'Accepted', submitTime: new Date(Date.now() - 60_000) })
    await em().nativeUpdate(Challenge, { id: c.id }, { acceptedCount: 1 })
    await em()
      .getConnection()
      .execute(`insert into hint_unlocks (game_id, challenge_id, participation_id, hint_id, cost, unlocked_at) values (?, ?, ?, 1, 40, now() - interval '2 minutes'), (?, ?, ?, 2, 15, now() - interval '1 minute')`, [
        game.id, c.id, p.id, game.id, c.id, p.id,
      ])
    await server.services.scoreboard.rebuild(game.id)
    const { workbook } = await download(`/api/game/${game.id}/scoreboardsheet`)
    const rows = rowsOf(workbook.getWorksheet('排行榜')!)
    expect(rows[0]).toEqual(['排名', '战队', '队长', '队员', '学号', '手机号', '解题数量', '得分时间', '总分', 'Paid', '提示扣分'])
    expect(rows[1]!.slice(8)).toEqual([300 - 55, 300, 55])
  })

  it('404 with body status 400, not started, empty board, roles', async () => {
    expectError(await monitor.get('/api/game/999999/scoreboardsheet'), 404, '比赛未找到', 400)
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    expectError(await monitor.get(`/api/game/${future.id}/scoreboardsheet`), 400, '比赛未开始')
    const empty = await createGame(server)
    expectError(await monitor.get(`/api/game/${empty.id}/scoreboardsheet`), 400, '遇到问题，请重试')
    expect((await user.client.get(`/api/game/${empty.id}/scoreboardsheet`)).status).toBe(403)
    expect((await server.client().get(`/api/game/${empty.id}/scoreboardsheet`)).status).toBe(401)
  })
})

describe('GET /api/game/{id}/submissionsheet', () => {
  it('exports every submission newest first with the contract columns', async () => {
    const game = await createGame(server, { title: 'Sheet Game' })
    const challenge = await createChallenge(server, game, { title: 'Rev 1' })
    const player = await createUser(server, { email: 'player@example.com' })
    const team = await createTeam(server, player.user, [], { name: 'Gamma' })
    const part = await createParticipation(server, game, team, [player.user])
    const t = Date.now()
    await createSubmission(server, game, challenge, part, player.user, { status: 'WrongAnswer', answer: 'flag{1}', submitTime: new Date(t - 3000) })
    await createSubmission(server, game, challenge, part, player.user, { status: 'Accepted', answer: 'flag{2}', submitTime: new Date(t - 2000) })
    await createSubmission(server, game, challenge, part, null, { status: 'CheatDetected', answer: 'flag{3}', submitTime: new Date(t - 1000) })
    const { res, workbook } = await download(`/api/game/${game.id}/submissionsheet`)
    expect(downloadName(res)).toMatch(/^Sheet Game_Submissions_\d{14}\.xlsx$/)
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['全部提交'])
    const rows = rowsOf(workbook.worksheets[0]!)
    expect(rows[0]).toEqual(['提交状态', '提交时间', '战队', '用户', '题目', '提交内容', '用户邮箱'])
    const u = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)} ${new Date(ms).toISOString().slice(11, 19)}Z`
    expect(rows.slice(1)).toEqual([
      ['作弊检测', u(t - 1000), 'Gamma', '', 'Rev 1', 'flag{3}', ''],
      ['答案正确', u(t - 2000), 'Gamma', player.user.userName, 'Rev 1', 'flag{2}', 'player@example.com'],
      ['答案错误', u(t - 3000), 'Gamma', player.user.userName, 'Rev 1', 'flag{1}', 'player@example.com'],
    ])
  })

  it('streams large games page by page without losing or repeating rows (ties and microseconds included)', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const t = await createTeam(server, user.user)
    const part = await createParticipation(server, game, t, [user.user])
    await em().execute(
      `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
       select ?, ?, ?, ?, 'a' || g, 'WrongAnswer', now() - ((g % 700) * interval '1 microsecond') - ((g % 3) * interval '1 millisecond')
         from generate_series(1, 2300) g`,
      [game.id, challenge.id, part.id, user.user.id],
    )
    const { workbook } = await download(`/api/game/${game.id}/submissionsheet`)
    const rows = rowsOf(workbook.worksheets[0]!).slice(1)
    expect(rows).toHaveLength(2300)
    expect(new Set(rows.map((r) => r[5])).size).toBe(2300)
    const times = rows.map((r) => String(r[1]))
    expect([...times].sort().reverse()).toEqual(times)
  })

  it('404 with body status 400, not started, roles', async () => {
    expectError(await monitor.get('/api/game/999999/submissionsheet'), 404, '比赛未找到', 400)
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    expectError(await monitor.get(`/api/game/${future.id}/submissionsheet`), 400, '比赛未开始')
    const game = await createGame(server)
    expect((await user.client.get(`/api/game/${game.id}/submissionsheet`)).status).toBe(403)
    expect((await server.client().get(`/api/game/${game.id}/submissionsheet`)).status).toBe(401)
    // an empty game still yields a sheet with the header only
    const { workbook } = await download(`/api/game/${game.id}/submissionsheet`)
    expect(rowsOf(workbook.worksheets[0]!)).toHaveLength(1)
  })
})
