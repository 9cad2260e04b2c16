/**
 * Write-ups (docs/compatibility.md#group-game-write-ups, #group-admin): the team's view and upload (PDF rules in
 * order before the gate, gate steps 1–4 so ended games still take write-ups, the deadline, the
 * previous file released), the admin list and the zip of every write-up.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { BasicWriteupInfoModel, WriteupInfoModel } from '@flagwave/shared/schemas/play'
import { toWireDate } from '@flagwave/shared/format'
import { startTestServer, type TestServer } from '../support/server.js'
import { unzip } from '../support/zip.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { blobExists, countRows, createGame, createParticipation } from '../support/factories/games.js'
import { Participation } from '../../server/src/entities/Participation.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Team } from '../../server/src/entities/Team.js'

let server: TestServer
let admin: ApiClient
let monitor: TestUser
let banned: TestUser
const HOUR = 3600_000
const DAY = 24 * HOUR

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  monitor = await createUser(server, { role: 'Monitor' })
  banned = await createUser(server, { role: 'Banned' })
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const pdf = (size = 64) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(size)])
const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

interface Player extends TestUser {
  team: Team
  participation: Participation
}
async function player(game: Game, status: Participation['status'] = 'Accepted', teamName?: string): Promise<Player> {
  const u = await createUser(server)
  const team = await createTeam(server, u.user, [], teamName ? { name: teamName } : {})
  const participation = await createParticipation(server, game, team, [u.user], status)
  return { ...u, team, participation }
}
const upload = (client: ApiClient, gameId: number, data: Uint8Array | string, name = 'wp.pdf', type = 'application/pdf', field = 'file') =>
  client.upload('POST', `/api/game/${gameId}/writeup`, [[field, name, data, type]])
const writeupOf = async (p: Participation) => (await em().findOneOrFail(Participation, { id: p.id }, { populate: ['writeup'] })).writeup

describe('GET/POST /api/game/{id}/writeup', () => {
  it('shows nothing before an upload, then the stored file; a new upload replaces and releases the old one', async () => {
    const game = await createGame(server, { wpNote: 'PDF only, please' })
    const p = await player(game)
    const empty = await p.client.get(`/api/game/${game.id}/writeup`)
    expect(empty.status).toBe(200)
    expect(BasicWriteupInfoModel.parse(empty.body)).toEqual({ submitted: false, name: '#', fileSize: 0, note: 'PDF only, please' })

    const first = pdf(100)
    const res = await upload(p.client, game.id, first)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    const info = BasicWriteupInfoModel.parse((await p.client.get(`/api/game/${game.id}/writeup`)).body)
    expect(info).toMatchObject({ submitted: true, fileSize: first.length, note: 'PDF only, please' })
    expect(info.name).toMatch(new RegExp(`^Writeup-${game.id}-${p.team.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.pdf$`))
    const firstFile = await writeupOf(p.participation)
    expect(await blobExists(server, firstFile!.hash)).toBe(true)

    const second = pdf(200)
    expect((await upload(p.client, game.id, second)).status).toBe(200)
    const secondFile = await writeupOf(p.participation)
    expect(secondFile!.hash).not.toBe(firstFile!.hash)
    expect(Number(secondFile!.fileSize)).toBe(second.length)
    expect(await blobExists(server, firstFile!.hash)).toBe(false)
    expect(await countRows(server, 'files', 'hash = ?', [firstFile!.hash])).toBe(0)
    // the same bytes again keep exactly one reference
    expect((await upload(p.client, game.id, second)).status).toBe(200)
    expect((await writeupOf(p.participation))!.referenceCount).toBe(1)
    const logs = await em().getConnection().execute(`select 1 from logs where message like ?`, [`%${p.team.name}%Writeup%`])
    expect(logs.length).toBe(3)
  })

  it('checks the file first, in order, then the gate and the deadline; nothing is stored on a refusal', { timeout: 120_000 }, async () => {
    const game = await createGame(server)
    const p = await player(game)
    const outsider = await createUser(server)
    const files = await countRows(server, 'files')
    const noFile = await p.client.upload('POST', `/api/game/${game.id}/writeup`, [['other', 'wp.pdf', pdf(), 'application/pdf']])
    expectError(noFile, 400, 'The file field is required.')
    expectError(await upload(outsider.client, game.id, ''), 400, '文件非法')
    expectError(await upload(outsider.client, game.id, new Uint8Array(20 * 1024 * 1024 + 1)), 400, '文件过大')
    expectError(await upload(outsider.client, game.id, pdf(), 'wp.pdf', 'application/octet-stream'), 400, '请上传 pdf 文件')
    expectError(await upload(outsider.client, game.id, pdf(), 'wp.PDF'), 400, '请上传 pdf 文件')
    expectError(await upload(outsider.client, game.id, pdf(), 'wp.pdf.exe'), 400, '请上传 pdf 文件')
    expectError(await upload(outsider.client, 999999, pdf()), 404, '比赛未找到')
    expectError(await upload(outsider.client, game.id, pdf()), 400, '您尚未参赛')
    const pending = await player(game, 'Pending')
    expectError(await upload(pending.client, game.id, pdf()), 400, '您的参赛申请尚未通过或被禁赛')
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + DAY) })
    const early = await player(future)
    expectError(await upload(early.client, future.id, pdf()), 400, '比赛未开始')
    const closed = await createGame(server, { start: new Date(Date.now() - 2 * DAY), end: new Date(Date.now() - DAY), wpddl: new Date(Date.now() - HOUR), practiceMode: false })
    const late = await player(closed)
    expectError(await upload(late.client, closed.id, pdf()), 400, '提交截止时间已过')
    expect(await countRows(server, 'files')).toBe(files)
    expect(await writeupOf(p.participation)).toBeNull()

    expect((await server.client().upload('POST', `/api/game/${game.id}/writeup`, [['file', 'wp.pdf', pdf(), 'application/pdf']])).status).toBe(401)
    expect((await upload(banned.client, game.id, pdf())).status).toBe(403)
    expect((await p.client.post(`/api/game/${game.id}/writeup`, { file: 'x' })).status).toBe(415)
  })

  it('works after the end of a non-practice game until the deadline (gate steps 1–4 only)', async () => {
    const game = await createGame(server, { start: new Date(Date.now() - 2 * DAY), end: new Date(Date.now() - DAY), wpddl: new Date(Date.now() + DAY), practiceMode: false })
    const p = await player(game)
    expect((await p.client.get(`/api/game/${game.id}/details`)).body).toEqual({ title: '比赛已结束', status: 400 })
    expect((await p.client.get(`/api/game/${game.id}/writeup`)).status).toBe(200)
    expect((await upload(p.client, game.id, pdf())).status).toBe(200)
    expect((await p.client.get(`/api/game/${game.id}/writeup`)).body.submitted).toBe(true)
    expectError(await p.client.get('/api/game/999999/writeup'), 404, '比赛未找到')
    expect((await server.client().get(`/api/game/${game.id}/writeup`)).status).toBe(401)
  })
})

describe('admin write-ups', () => {
  it('lists uploaded write-ups newest first and zips them all, named by team', async () => {
    const game = await createGame(server, { title: 'WP Game' })
    const a = await player(game, 'Accepted', '队伍/甲')
    const b = await player(game, 'Accepted', 'Bravo')
    await player(game) // no write-up
    const aData = pdf(300)
    const bData = pdf(400)
    expect((await upload(a.client, game.id, aData)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 20))
    expect((await upload(b.client, game.id, bData)).status).toBe(200)

    const res = await admin.get(`/api/admin/writeups/${game.id}`)
    expect(res.status).toBe(200)
    const list = z.array(WriteupInfoModel).parse(res.body)
    expect(list.map((w) => w.id)).toEqual([b.participation.id, a.participation.id])
    const bFile = await writeupOf(b.participation)
    const bPart = await em().findOneOrFail(Participation, { id: b.participation.id })
    expect(list[0]).toEqual({
      id: b.participation.id,
      team: { id: b.team.id, name: 'Bravo', bio: null, avatar: null, locked: false, members: null },
      url: `/assets/${bFile!.hash}/${bFile!.name}`,
      uploadTimeUTC: toWireDate(bPart.writeupTime!),
      uploadTimeUtc: toWireDate(bPart.writeupTime!),
    })

    const zip = await fetch(`${server.url}/api/admin/writeups/${game.id}/all`, { headers: { cookie: admin.cookieHeader } })
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/zip')
    expect(zip.headers.get('content-disposition')).toMatch(/^attachment; filename="Writeups-WP Game-\d{8}-\d{2}\.\d{2}\.\d{2}Z\.zip"$/)
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()))
    expect([...entries.keys()].sort()).toEqual([`Bravo-${b.team.id}.pdf`, `队伍_甲-${a.team.id}.pdf`].sort())
    expect(entries.get(`Bravo-${b.team.id}.pdf`)!.equals(bData)).toBe(true)
    expect(entries.get(`队伍_甲-${a.team.id}.pdf`)!.equals(aData)).toBe(true)
  })

  it('an empty game gives an empty list and an empty zip; unknown games and non-admins are refused', async () => {
    const game = await createGame(server)
    expect((await admin.get(`/api/admin/writeups/${game.id}`)).body).toEqual([])
    const zip = await fetch(`${server.url}/api/admin/writeups/${game.id}/all`, { headers: { cookie: admin.cookieHeader } })
    expect(zip.status).toBe(200)
    expect((await unzip(Buffer.from(await zip.arrayBuffer()))).size).toBe(0)
    expectError(await admin.get('/api/admin/writeups/999999'), 404, '比赛未找到')
    expectError(await admin.get('/api/admin/writeups/999999/all'), 404, '比赛未找到')
    for (const path of [`/api/admin/writeups/${game.id}`, `/api/admin/writeups/${game.id}/all`]) {
      expect((await monitor.client.get(path)).status).toBe(403)
      expect((await server.client().get(path)).status).toBe(401)
    }
  })
})
