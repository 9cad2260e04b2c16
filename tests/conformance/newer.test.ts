/**
 * The newer GZ::CTF shapes served beside v0.17.6 (docs/compatibility.md#newer-gzctf-versions): every changed shape
 * carries its v0.17.6 members and its newer members (tests/support/contract.ts SHAPE_MEMBERS), the
 * opt-in `X-GZCTF-Compat: 1.8` turns times into Unix milliseconds and game-ended into 10002,
 * renamed routes answer under both paths, and the newer endpoints (NEWER_ENDPOINTS) answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DetailedGameInfoModel, GameDetailModel, GameInfoModel, GameNotice, GameEvent } from '@flagwave/shared/schemas/games'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { ChallengeEditDetailModel, ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { ChallengeTrafficModel } from '@flagwave/shared/schemas/admin'
import { startTestServer, type TestServer } from '../support/server.js'
import { buildWorld, type World } from '../support/fixtures.js'
import { SHAPE_MEMBERS } from '../support/contract.js'
import { countRows, createGame, createParticipation, storeCapture } from '../support/factories/games.js'
import { createEvent } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'

let server: TestServer
let world: World
const NEWER = { 'X-GZCTF-Compat': '1.8' }
const WIRE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?\+00:00$/

beforeAll(async () => {
  server = await startTestServer()
  world = await buildWorld(server)
})
afterAll(async () => {
  await server?.close()
})

/** Both member sets of a shape are present on `value`. */
function expectBothForms(shape: keyof typeof SHAPE_MEMBERS, value: unknown): void {
  const members = SHAPE_MEMBERS[shape]!
  const keys = Object.keys(value as object)
  expect(keys, `${shape}: v0.17.6 members`).toEqual(expect.arrayContaining(members.v0176))
  expect(keys, `${shape}: newer members`).toEqual(expect.arrayContaining(members.newer))
}

describe('notices', () => {
  it('carry content and values; the list has a validator; the opt-in sends milliseconds', async () => {
    const res = await server.client().get(`/api/game/${world.game.id}/notices`)
    expect(res.status).toBe(200)
    const notices = res.body as GameNotice[]
    for (const notice of notices) {
      expectBothForms('GameNotice', notice)
      expect(GameNotice.parse(notice)).toEqual(notice)
      expect(notice.time).toMatch(WIRE_DATE)
    }
    expect(notices.find((n) => n.type === 'Normal' && n.content === 'Welcome to the world game')?.values).toEqual(['Welcome to the world game'])
    expect(notices.find((n) => n.type === 'FirstBlood')?.values).toEqual(['Team A', 'Static'])

    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^W\/".+"$/)
    expect((await server.client().get(`/api/game/${world.game.id}/notices`, { 'If-None-Match': etag! })).status).toBe(304)

    const ms = await server.client().get(`/api/game/${world.game.id}/notices`, NEWER)
    const first = (ms.body as { time: unknown; content: string }[])[0]!
    expect(typeof first.time).toBe('number')
    expect(first.time).toBe(Date.parse(notices[0]!.time))
    expect(first.content).toBe(notices[0]!.content)
  })
})

describe('games', () => {
  it('GET /api/game/{id} carries organization(s) and division(s) and writeupRequired', async () => {
    const res = await world.clients.captain.get(`/api/game/${world.game.id}`)
    expect(res.status).toBe(200)
    expectBothForms('DetailedGameInfoModel', res.body)
    expect(DetailedGameInfoModel.parse(res.body)).toMatchObject({ division: null, divisions: [], writeupRequired: false, organization: null })
  })

  it('GET /api/game is a bare array without paging and the {data, length, total} page with it', async () => {
    const bare = await server.client().get('/api/game')
    expect(Array.isArray(bare.body)).toBe(true)
    const page = await server.client().get('/api/game?count=1&skip=0')
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({ length: 1, total: expect.any(Number) })
    expect((page.body as { data: unknown[] }).data).toHaveLength(1)
    expect((page.body as { total: number }).total).toBeGreaterThanOrEqual(bare.body.length)
    expect(await server.client().get('/api/game?count=51')).toMatchObject({ status: 400, body: { title: 'The field count must be between 0 and 50.', status: 400 } })
    const ms = await server.client().get('/api/game?skip=0', NEWER)
    expect(typeof (ms.body as { data: { start: unknown }[] }).data[0]!.start).toBe('number')
  })

  it('GET /api/game/recent lists recent games with a validator', async () => {
    const res = await server.client().get('/api/game/recent?limit=2')
    expect(res.status).toBe(200)
    expect((res.body as unknown[]).length).toBeLessThanOrEqual(2)
    expect((await server.client().get('/api/game/recent?limit=2', { 'If-None-Match': res.headers.get('etag')! })).status).toBe(304)
  })

  it('GET /api/game/{id}/check lists the caller’s teams in the game', async () => {
    expect((await world.clients.captain.get(`/api/game/${world.game.id}/check`)).body).toEqual({ joinedTeams: [{ id: world.teams.a.id, division: null }], joinableDivisions: [] })
    expect((await world.clients.otherTeam.get(`/api/game/${world.game.id}/check`)).body).toEqual({ joinedTeams: [], joinableDivisions: [] })
    expect(await world.clients.captain.get('/api/game/999999/check')).toMatchObject({ status: 404, body: { title: '比赛未找到', status: 404 } })
  })

  it('the edit shape carries wpddl and writeupDeadline; either name is accepted', async () => {
    const current = await world.clients.admin.get(`/api/edit/games/${world.spareGame.id}`)
    expectBothForms('GameInfoModel', current.body)
    const deadline = new Date(Date.now() + 5 * 3600_000).toISOString()
    const res = await world.clients.admin.put(`/api/edit/games/${world.spareGame.id}`, { title: 'Spare game', writeupDeadline: deadline, writeupNote: 'newer note', writeupRequired: true })
    expect(res.status).toBe(200)
    const game = GameInfoModel.parse(res.body)
    expect(Date.parse(game.wpddl)).toBe(Date.parse(deadline))
    expect(game.writeupDeadline).toBe(game.wpddl)
    expect(game).toMatchObject({ wpNote: 'newer note', writeupNote: 'newer note', writeupRequired: true })
    // A v0.17.6 client's full replace does not know writeupRequired: it stays.
    const old = await world.clients.admin.put(`/api/edit/games/${world.spareGame.id}`, { title: 'Spare game', wpddl: deadline })
    expect(old.body).toMatchObject({ writeupRequired: true, wpNote: '' })
  })
})

describe('the team view and the board', () => {
  it('details carry wpddl and writeupDeadline, challengeCount and the full row; 304 on a repeat; milliseconds on opt-in', async () => {
    const res = await world.clients.captain.get(`/api/game/${world.game.id}/details`)
    expect(res.status).toBe(200)
    const detail = GameDetailModel.parse(res.body)
    expectBothForms('GameDetailModel', res.body)
    expectBothForms('ScoreboardItem', detail.rank)
    expect(detail.writeupDeadline).toBe(detail.wpddl)
    expect(detail.rank.solvedChallenges).toEqual(detail.rank.challenges)
    expect(detail.challengeCount).toBe(Object.values(detail.challenges).flat().length)
    for (const info of Object.values(detail.challenges).flat()) expectBothForms('ChallengeInfo', info)

    const etag = res.headers.get('etag')!
    expect((await world.clients.captain.get(`/api/game/${world.game.id}/details`, { 'If-None-Match': etag })).status).toBe(304)
    const ms = await world.clients.captain.get(`/api/game/${world.game.id}/details`, NEWER)
    expect(ms.body).toMatchObject({ wpddl: Date.parse(detail.wpddl), writeupDeadline: Date.parse(detail.wpddl), teamToken: detail.teamToken })
  })

  it('the scoreboard carries both names of every changed member; the opt-in version has milliseconds', async () => {
    const res = await server.client().get(`/api/game/${world.game.id}/scoreboard`)
    expect(res.status).toBe(200)
    const board = ScoreboardModel.parse(res.body)
    expectBothForms('ScoreboardModel', res.body)
    expect(board.updateTimeUtc).toBe(board.updateTimeUTC)
    expect(board.timelines).toEqual([{ divisionId: 0, teams: board.timeLines.all }])
    expect(board.divisions).toEqual([])
    for (const item of board.items) {
      expectBothForms('ScoreboardItem', item)
      expect(item.solvedChallenges).toEqual(item.challenges)
    }
    const infos = Object.values(board.challenges).flat()
    expect(board.challengeCount).toBe(infos.length)
    for (const info of infos) {
      expectBothForms('ChallengeInfo', info)
      expect(info.category).toBe(info.tag)
      for (const blood of info.bloods) {
        expectBothForms('Blood', blood)
        expect(blood.submitTimeUtc).toBe(blood.submitTimeUTC)
      }
    }
    const ms = await server.client().get(`/api/game/${world.game.id}/scoreboard`, NEWER)
    expect(ms.headers.get('etag')).toBe(res.headers.get('etag'))
    expect(ms.headers.get('vary')).toContain('X-GZCTF-Compat')
    expect(ms.body).toMatchObject({ updateTimeUTC: Date.parse(board.updateTimeUTC), updateTimeUtc: Date.parse(board.updateTimeUTC) })
    expect((ms.body as { items: { lastSubmissionTime: unknown }[] }).items[0]!.lastSubmissionTime).toBe(Date.parse(board.items[0]!.lastSubmissionTime))
  })

  it('a challenge carries tag and category and the attempt members (docs/challenge-rules.md)', async () => {
    const res = await world.clients.captain.get(`/api/game/${world.game.id}/challenges/${world.challenges.static.id}`)
    expect(res.status).toBe(200)
    expectBothForms('ChallengeDetailModel', res.body)
    // `attempts` counts the team's submissions to the challenge, every status, limit or not.
    const attempts = await countRows(server, 'submissions', 'participation_id = ? and challenge_id = ?', [world.participations.a.id, world.challenges.static.id])
    expect(ChallengeDetailModel.parse(res.body)).toMatchObject({ category: world.challenges.static.tag, limit: 0, attempts, deadline: null })
  })
})

describe('monitors and admins', () => {
  it('events carry values', async () => {
    await createEvent(server, world.game, { type: 'FlagSubmit', user: world.users.captain.user, teamId: world.teams.a.id, content: '[答案错误] flag{a  b}  Static#7' })
    await createEvent(server, world.game, { type: 'ContainerStart', user: world.users.captain.user, teamId: world.teams.a.id, content: 'Box#9 启动容器实例' })
    const res = await world.clients.monitor.get(`/api/game/${world.game.id}/events?count=100`)
    expect(res.status).toBe(200)
    const events = res.body as GameEvent[]
    for (const event of events) expectBothForms('GameEvent', event)
    expect(events.find((e) => e.content === '[答案错误] flag{a  b}  Static#7')?.values).toEqual(['WrongAnswer', 'flag{a  b}', 'Static', '7'])
    expect(events.find((e) => e.content === 'Box#9 启动容器实例')?.values).toEqual(['9', 'Box'])
  })

  it('participations, users and write-ups carry both names', async () => {
    const parts = await world.clients.admin.get(`/api/game/${world.game.id}/participations`)
    for (const p of parts.body as object[]) expectBothForms('ParticipationInfoModel', p)
    const users = await world.clients.admin.get('/api/admin/users?count=5')
    for (const u of (users.body as { data: object[] }).data) expectBothForms('UserInfoModel', u)
    const plain = await world.clients.admin.get(`/api/admin/writeups/${world.game.id}`)
    expect(Array.isArray(plain.body)).toBe(true)
    const newer = await world.clients.admin.get(`/api/admin/writeups/${world.game.id}`, NEWER)
    expect(newer.body).toEqual({ divisions: {}, writeups: expect.any(Array) })
  })

  it('PUT /api/admin/participation/{id} takes {status, divisionId} beside the path form', async () => {
    const captain = await createUser(server)
    const team = await createTeam(server, captain.user, [], { name: `nw${Date.now() % 100000}` })
    const part = await createParticipation(server, world.game, team, [captain.user], 'Pending')
    expect(await world.clients.admin.put(`/api/admin/participation/${part.id}`, { divisionId: 3 })).toMatchObject({ status: 400, body: { title: '分组不存在', status: 400 } })
    expect((await world.clients.admin.put(`/api/admin/participation/${part.id}`, { status: 'Rejected' })).status).toBe(200)
    const after = await world.clients.admin.get(`/api/game/${world.game.id}/participations`)
    expect((after.body as { id: number; status: string }[]).find((p) => p.id === part.id)?.status).toBe('Rejected')
    expect((await world.clients.admin.put(`/api/admin/participation/${part.id}/Pending`)).status).toBe(200)
    // An unknown participation is 404 even when the body changes nothing.
    for (const body of [{}, { status: null }, { divisionId: 3 }]) {
      expect(await world.clients.admin.put('/api/admin/participation/999999', body)).toMatchObject({ status: 404, body: { title: '参与状态未找到', status: 404 } })
    }
  })
})

describe('renamed routes and newer endpoints', () => {
  it('hashsalt answers as teamhashsalt', async () => {
    const old = await world.clients.admin.get(`/api/edit/games/${world.game.id}/teamhashsalt`)
    const renamed = await world.clients.admin.get(`/api/edit/games/${world.game.id}/hashsalt`)
    expect(renamed.status).toBe(200)
    expect(renamed.body).toBe(old.body)
  })

  it('…/extend is …/prolong: the same gate', async () => {
    const path = `/api/game/${world.game.id}/container/${world.challenges.container.id}/extend`
    expect(await world.clients.otherTeam.post(path)).toMatchObject({ status: 400, body: { title: '您尚未参赛', status: 400 } })
    expect((await server.client().post(path)).status).toBe(401)
  })

  it('POST /api/team/verify checks a team token against the game key', async () => {
    const { teamToken } = (await world.clients.captain.get(`/api/game/${world.game.id}/details`)).body as { teamToken: string }
    const publicKey = world.game.publicKey
    expect((await server.client().post('/api/team/verify', { teamToken, publicKey })).status).toBe(200)
    const other = await createGame(server, { title: 'Other key' })
    expect(await server.client().post('/api/team/verify', { teamToken, publicKey: other.publicKey })).toMatchObject({ status: 401, body: { title: '签名无效', status: 401 } })
    expect(await server.client().post('/api/team/verify', { teamToken: 'nonsense', publicKey })).toMatchObject({ status: 400, body: { title: '队伍 Token 无效', status: 400 } })
  })

  it('GET /api/config carries the newer members with their neutral values', async () => {
    const res = await server.client().get('/api/config')
    expect(res.body).toMatchObject({ title: expect.any(String), defaultLifetime: 120, extensionDuration: 120, renewalWindow: 10, customTheme: null, logoUrl: null, portMapping: 'Default', apiPublicKey: null })
  })

  it('scoreboard flush and the (empty) division list', async () => {
    expect((await world.clients.admin.post(`/api/edit/games/${world.game.id}/scoreboard/flush`)).status).toBe(200)
    expect((await world.clients.admin.get(`/api/edit/games/${world.game.id}/divisions`)).body).toEqual([])
    expect((await world.clients.admin.get('/api/edit/games/999999/divisions')).status).toBe(404)
  })

  it('joining accepts the 1.0 name of the organization (a division); a division id not of the game is refused', async () => {
    const game = await createGame(server, { title: 'Orgs', organizations: ['Uni'], start: new Date(Date.now() - 3600_000), end: new Date(Date.now() + 3600_000) })
    const captain = await createUser(server)
    const team = await createTeam(server, captain.user, [], { name: `dv${Date.now() % 100000}` })
    expect(await captain.client.post(`/api/game/${game.id}`, { teamId: team.id, divisionId: 999_999 })).toMatchObject({ status: 400, body: { title: '分组不存在' } })
    expect((await captain.client.post(`/api/game/${game.id}`, { teamId: team.id, division: 'Uni' })).status).toBe(200)
    const info = (await captain.client.get(`/api/game/${game.id}`)).body
    expect(info).toMatchObject({ organization: 'Uni', organizations: ['Uni'], divisions: [{ id: info.division, name: 'Uni', inviteCodeRequired: false }] })
    expect(info.division).toEqual(expect.any(Number))
  })

  it('game ended: 400 for v0.17.6 clients, 10002 under the opt-in', async () => {
    const ended = await createGame(server, { title: 'Ended', practiceMode: false, start: new Date(Date.now() - 7200_000), end: new Date(Date.now() - 3600_000) })
    const captain = await createUser(server)
    const team = await createTeam(server, captain.user, [], { name: `en${Date.now() % 100000}` })
    await createParticipation(server, ended, team, [captain.user], 'Accepted')
    expect(await captain.client.get(`/api/game/${ended.id}/details`)).toMatchObject({ status: 400, body: { title: '比赛已结束', status: 400 } })
    expect(await captain.client.get(`/api/game/${ended.id}/details`, NEWER)).toMatchObject({ status: 400, body: { title: '比赛已结束', status: 10002 } })
  })

  it('the new categories are accepted and shown', async () => {
    const res = await world.clients.admin.post(`/api/edit/games/${world.spareGame.id}/challenges`, { title: 'Prompt injection', tag: 'AI', type: 'StaticAttachment' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ tag: 'AI' })
    const osint = await world.clients.admin.post(`/api/edit/games/${world.spareGame.id}/challenges`, { title: 'Find me', tag: 12, type: 'StaticAttachment' })
    expect(osint.body).toMatchObject({ tag: 'OSINT' })
  })
})

describe('challenge editing', () => {
  it('the edit detail and list carry tag and category, containerExposePort and exposePort, and the neutral members', async () => {
    const base = `/api/edit/games/${world.spareGame.id}/challenges`
    const created = await world.clients.admin.post(base, { title: 'Newer names', category: 'Pentest', tag: 'Web', type: 'StaticContainer' })
    expect(created.status).toBe(200)
    expectBothForms('ChallengeEditDetailModel', created.body)
    expect(ChallengeEditDetailModel.parse(created.body)).toMatchObject({
      tag: 'Pentest',
      category: 'Pentest',
      containerExposePort: 80,
      exposePort: 80,
      disableBloodBonus: false,
      submissionLimit: 0,
      deadlineUtc: null,
      networkMode: 'Open',
    })
    const url = `${base}/${created.body.id}`
    // The newer names win over the old ones; the neutral values a newer client sends back are accepted.
    const newer = { category: 'OSINT', tag: 'Misc', exposePort: 8080, containerExposePort: 9090, disableBloodBonus: false, submissionLimit: 0, deadlineUtc: null, networkMode: 'Open' }
    expect((await world.clients.admin.put(url, newer)).body).toMatchObject({ tag: 'OSINT', category: 'OSINT', containerExposePort: 8080, exposePort: 8080 })
    // v0.17.6 names alone still work.
    expect((await world.clients.admin.put(url, { tag: 'AI', containerExposePort: 31337 })).body).toMatchObject({ tag: 'AI', category: 'AI', exposePort: 31337 })
    const list = ChallengeInfoModel.array().parse((await world.clients.admin.get(base)).body)
    for (const item of list) expect(item.category).toBe(item.tag)
    expectBothForms('ChallengeInfoModel', list.find((c) => c.id === created.body.id))
  })

  it('takes the challenge rules, and refuses values of features Flagwave does not have instead of dropping them', async () => {
    const url = `/api/edit/games/${world.game.id}/challenges/${world.challenges.spare.id}`
    const refused = (title: string) => ({ status: 400, body: { title, status: 400 } })
    // Attempt limits and deadlines exist (docs/challenge-rules.md): taken, and read back under their newer names.
    const deadline = Date.now() + 3600_000
    const ruled = await world.clients.admin.put(url, { submissionLimit: 3, deadlineUtc: deadline })
    expect(ruled.status).toBe(200)
    expect(ChallengeEditDetailModel.parse(ruled.body)).toMatchObject({ submissionLimit: 3, deadlineUtc: expect.stringMatching(WIRE_DATE) })
    expect(Date.parse((ruled.body as { deadlineUtc: string }).deadlineUtc)).toBe(deadline)
    expect(await world.clients.admin.put(url, { submissionLimit: -1 })).toMatchObject(refused('提交次数限制必须介于 0 - 10000'))
    expect((await world.clients.admin.put(url, { submissionLimit: 0, deadlineUtc: null })).body).toMatchObject({ submissionLimit: 0, deadlineUtc: null })
    expect(await world.clients.admin.put(url, { disableBloodBonus: true })).toMatchObject(refused('不支持关闭单题的血量奖励'))
    expect(await world.clients.admin.put(url, { networkMode: 'Isolated' })).toMatchObject(refused('不支持该网络模式'))
    expect(await world.clients.admin.put(url, { networkMode: 2 })).toMatchObject(refused('不支持该网络模式'))
    expect(await world.clients.admin.put(url, { networkMode: 'Mesh' })).toMatchObject(refused("The value 'Mesh' is not valid."))
    expect(await world.clients.admin.put(url, { submissionLimit: 'x' })).toMatchObject({ status: 400 })
    expect((await world.clients.admin.put(url, { networkMode: 0, submissionLimit: null })).status).toBe(200)
  })
})

describe('admin lists and captures', () => {
  it('capture lists and the instance list carry tag and category', async () => {
    const traffic = await world.clients.monitor.get(`/api/game/games/${world.game.id}/captures`)
    expect(traffic.status).toBe(200)
    for (const item of ChallengeTrafficModel.array().parse(traffic.body)) {
      expectBothForms('ChallengeTrafficModel', item)
      expect(item.category).toBe(item.tag)
    }
    const instances = await world.clients.admin.get('/api/admin/instances')
    expect(instances.status).toBe(200)
    for (const instance of (instances.body as { data: { challenge: object | null }[] }).data) {
      if (instance.challenge) expectBothForms('ChallengeModel', instance.challenge)
    }
  })

  it('DELETE /api/game/captures/{cid}/{pid}/{filename} and …/all remove captures', async () => {
    const cid = world.challenges.container.id
    const pid = world.participations.c.id
    await storeCapture(server, cid, pid, '20240101-00.00.01-one.pcap', Buffer.from('one'))
    await storeCapture(server, cid, pid, '20240101-00.00.02-two.pcap', Buffer.from('two'))
    await storeCapture(server, cid, pid, '20240101-00.00.03-three.pcap', Buffer.from('three'))
    const files = async () => ((await world.clients.monitor.get(`/api/game/captures/${cid}/${pid}`)).body as { fileName: string }[]).map((f) => f.fileName)
    expect(await files()).toHaveLength(3)

    expect((await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/20240101-00.00.01-one.pcap`)).status).toBe(200)
    expect(await files()).toEqual(['20240101-00.00.02-two.pcap', '20240101-00.00.03-three.pcap'])
    // The same file again, a name outside the team's captures, another team's file: 404 (body status 400), nothing removed.
    const missing = { status: 404, body: { title: '未找到相关捕获信息', status: 400 } }
    expect(await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/20240101-00.00.01-one.pcap`)).toMatchObject(missing)
    expect(await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/..%2F..%2F${world.participations.a.id}%2F${world.capture.fileName}`)).toMatchObject({ status: 404 })
    expect(await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/${world.capture.fileName}`)).toMatchObject(missing)
    expect((await world.clients.monitor.get(`/api/game/captures/${cid}/${world.participations.a.id}/${world.capture.fileName}`)).status).toBe(200)
    expect((await world.clients.captain.delete(`/api/game/captures/${cid}/${pid}/all`)).status).toBe(403)

    expect((await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/all`)).status).toBe(200)
    expect((await world.clients.monitor.get(`/api/game/captures/${cid}/${pid}`)).status).toBe(404)
    expect(((await world.clients.monitor.get(`/api/game/captures/${cid}`)).body as { id: number }[]).map((t) => t.id)).not.toContain(pid)
    expect(await world.clients.monitor.delete(`/api/game/captures/${cid}/${pid}/all`)).toMatchObject({ status: 404, body: { title: '未找到相关捕获信息', status: 404 } })
  })
})
