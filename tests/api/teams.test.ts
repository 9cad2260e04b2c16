/**
 * Group `team` (docs/compatibility.md#group-team): the 12 endpoints with their checks in order, exact titles and
 * body statuses (including the HTTP 400 `队伍未找到` quirk), the invite code, the team lock and
 * its unlock side effect, kick, leave and registrations, and the avatar.
 */
import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { countTeams, createTeam, lockTeamInRunningGame, reloadTeam } from '../support/factories/teams.js'
import { createGame, createParticipation } from '../support/factories/games.js'
import { Registration } from '../../server/src/entities/Registration.js'
import { Participation } from '../../server/src/entities/Participation.js'
import { LocalFile } from '../../server/src/entities/LocalFile.js'
import { Team } from '../../server/src/entities/Team.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const HOUR = 3600_000

/** A captain with a team and `extra` further members. */
async function teamWith(extra = 0, overrides: Parameters<typeof createTeam>[3] = {}) {
  const [captain, ...members] = await Promise.all(Array.from({ length: extra + 1 }, () => createUser(server)))
  const team = await createTeam(
    server,
    captain.user,
    members.map((m) => m.user),
    overrides,
  )
  return { captain, members, team }
}

const memberIds = async (id: number) => ((await reloadTeam(server, id))?.members.getItems() ?? []).map((m) => m.id).sort()
const png = () => sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } }).png().toBuffer()

describe('GET /api/team/{id}', () => {
  it('answers anonymous callers with TeamInfoModel including members and the captain flag', async () => {
    const { captain, members, team } = await teamWith(1, { bio: 'hello' })
    const res = await server.client().get(`/api/team/${team.id}`)
    expect(res.status).toBe(200)
    const info = TeamInfoModel.parse(res.body)
    expect(info).toMatchObject({ id: team.id, name: team.name, bio: 'hello', avatar: null, locked: false })
    expect(info.members).toHaveLength(2)
    expect(info.members!.find((m) => m.id === captain.user.id)).toMatchObject({ captain: true, userName: captain.user.userName, bio: '', avatar: null })
    expect(info.members!.find((m) => m.id === members[0].user.id)?.captain).toBe(false)
    // Real name and student number are not serialized.
    expect(Object.keys(info.members![0]).sort()).toEqual(['avatar', 'bio', 'captain', 'id', 'userName'])
  })

  it('404 队伍不存在 for an unknown id; a non-integer id matches no endpoint', async () => {
    const res = await server.client().get('/api/team/999999')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '队伍不存在', status: 404 })
    expect((await server.client().get('/api/team/abc')).status).toBe(404)
    expect((await server.client().get('/api/team/99999999999')).status).toBe(404)
  })
})

describe('GET /api/team', () => {
  it("lists only the caller's teams", async () => {
    const { captain, team } = await teamWith()
    const other = await teamWith()
    await addMember(other.team.id, captain.user.id)
    const res = await captain.client.get('/api/team')
    expect(res.status).toBe(200)
    const list = z.array(TeamInfoModel).parse(res.body)
    expect(list.map((t) => t.id)).toEqual([team.id, other.team.id])
    const loner = await createUser(server)
    expect((await loner.client.get('/api/team')).body).toEqual([])
  })

  it('401 anonymous, 403 banned', async () => {
    expect((await server.client().get('/api/team')).body).toEqual({ title: '请先登录', status: 401 })
    const banned = await createUser(server, { role: 'Banned' })
    const res = await banned.client.get('/api/team')
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
  })
})

describe('POST /api/team', () => {
  it('creates a team with the caller as captain and only member', async () => {
    const u = await createUser(server)
    const res = await u.client.post('/api/team', { name: 'Alpha:Team', bio: 'we hack' })
    expect(res.status).toBe(200)
    const info = TeamInfoModel.parse(res.body)
    expect(info).toMatchObject({ name: 'Alpha:Team', bio: 'we hack', locked: false, avatar: null })
    expect(info.members).toEqual([{ id: u.user.id, userName: u.user.userName, bio: '', avatar: null, captain: true }])
    const row = await reloadTeam(server, info.id)
    expect(row?.captain.id).toBe(u.user.id)
    expect(row?.inviteToken).toMatch(/^[0-9a-f]{32}$/)
  })

  it.each([
    [{ name: 'x'.repeat(16) }, '队伍名称过长'],
    [{ name: 'ok', bio: 'b'.repeat(32) }, '队伍签名过长'],
    [{ name: '' }, '队伍名不能为空'],
    [{ name: null }, '队伍名不能为空'],
    [{ bio: 'no name' }, '队伍名不能为空'],
    [{ name: 5 }, 'The JSON value could not be converted to System.String.'],
  ])('400 for %j → %s, and nothing is created', async (body, title) => {
    const u = await createUser(server)
    const before = await countTeams(server)
    const res = await u.client.post('/api/team', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title, status: 400 })
    expect(await countTeams(server)).toBe(before)
  })

  it('不允许创建多个队伍 only when the caller is in more than one team and captains one', async () => {
    const { captain } = await teamWith()
    // In one team (as captain): may create a second one.
    expect((await captain.client.post('/api/team', { name: 'second' })).status).toBe(200)
    const before = await countTeams(server)
    const res = await captain.client.post('/api/team', { name: 'third' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: '不允许创建多个队伍', status: 400 })
    expect(await countTeams(server)).toBe(before)
    // The rule is checked before the empty-name rule.
    expect((await captain.client.post('/api/team', { name: '' })).body.title).toBe('不允许创建多个队伍')

    // A member of two teams who captains none may create.
    const plain = await createUser(server)
    await teamWith().then(({ team }) => addMember(team.id, plain.user.id))
    await teamWith().then(({ team }) => addMember(team.id, plain.user.id))
    expect((await plain.client.post('/api/team', { name: 'mine' })).status).toBe(200)
  })

  it('concurrent creates by one user are serialised: exactly one passes the rule', async () => {
    const { captain } = await teamWith()
    const before = await countTeams(server)
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => captain.client.post('/api/team', { name: `race${i}` })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body).toEqual({ title: '不允许创建多个队伍', status: 400 })
    expect(await countTeams(server)).toBe(before + 1)
  })

  it('401 anonymous (before body validation), 403 banned, 415 non-JSON', async () => {
    expect((await server.client().post('/api/team', { name: 'x'.repeat(40) })).status).toBe(401)
    const banned = await createUser(server, { role: 'Banned' })
    expect((await banned.client.post('/api/team', { name: 'b' })).status).toBe(403)
    const u = await createUser(server)
    const res = await u.client.request('POST', '/api/team', { body: 'name=x', headers: { 'content-type': 'text/plain' } })
    expect(res.status).toBe(415)
  })
})

async function addMember(teamId: number, userId: string) {
  await server.services.orm.em.fork().execute('insert into team_members (team_id, user_id) values (?, ?)', [teamId, userId])
}

describe('PUT /api/team/{id}', () => {
  it('updates: empty or null name keeps, bio always replaced (null clears)', async () => {
    const { captain, team } = await teamWith(0, { bio: 'old' })
    let res = await captain.client.put(`/api/team/${team.id}`, { name: 'Renamed', bio: 'new bio' })
    expect(res.status).toBe(200)
    expect(TeamInfoModel.parse(res.body)).toMatchObject({ name: 'Renamed', bio: 'new bio' })
    res = await captain.client.put(`/api/team/${team.id}`, { name: '', bio: null })
    expect(res.body).toMatchObject({ name: 'Renamed', bio: null })
    res = await captain.client.put(`/api/team/${team.id}`, { bio: 'again' })
    expect(res.body).toMatchObject({ name: 'Renamed', bio: 'again' })
    expect((await reloadTeam(server, team.id))?.bio).toBe('again')
  })

  it('400 validation before the lookup; HTTP 400 队伍未找到 (status 400); 403 for a non-captain member', async () => {
    const { captain, members, team } = await teamWith(1)
    let res = await captain.client.put('/api/team/999999', { name: 'x'.repeat(16) })
    expect(res.body).toEqual({ title: '队伍名称过长', status: 400 })
    res = await captain.client.put('/api/team/999999', { name: 'x' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: '队伍未找到', status: 400 })
    res = await members[0].client.put(`/api/team/${team.id}`, { name: 'hijack' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
    expect((await reloadTeam(server, team.id))?.name).toBe(team.name)
    expect((await server.client().put(`/api/team/${team.id}`, { name: 'anon' })).status).toBe(401)
  })
})

describe('PUT /api/team/{id}/transfer', () => {
  it('hands the captaincy over; the new captain is flagged', async () => {
    const { captain, members, team } = await teamWith(1)
    const res = await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: members[0].user.id })
    expect(res.status).toBe(200)
    const info = TeamInfoModel.parse(res.body)
    expect(info.members!.find((m) => m.captain)?.id).toBe(members[0].user.id)
    expect((await reloadTeam(server, team.id))?.captain.id).toBe(members[0].user.id)
    // The former captain is now refused.
    expect((await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: captain.user.id })).status).toBe(403)
  })

  it('checks in order: validation, 队伍未找到 (400), 403, 队伍已锁定, 移交的用户不存在, 被移交者所管理的队伍过多', async () => {
    const { captain, members, team } = await teamWith(1)
    const stranger = await createUser(server)
    let res = await captain.client.put(`/api/team/${team.id}/transfer`, {})
    expect(res.body).toEqual({ title: 'The NewCaptainId field is required.', status: 400 })
    res = await captain.client.put('/api/team/999999/transfer', { newCaptainId: stranger.user.id })
    expect(res.body).toEqual({ title: '队伍未找到', status: 400 })
    res = await members[0].client.put(`/api/team/${team.id}/transfer`, { newCaptainId: members[0].user.id })
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
    for (const id of [randomUUID(), 'not-a-guid']) {
      res = await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: id })
      expect(res.body).toEqual({ title: '移交的用户不存在', status: 400 })
    }
    const busy = await createUser(server)
    for (let i = 0; i < 3; i++) await createTeam(server, busy.user)
    res = await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: busy.user.id })
    expect(res.body).toEqual({ title: '被移交者所管理的队伍过多', status: 400 })
    // Not a member: allowed, as in the reference.
    res = await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: stranger.user.id })
    expect(res.status).toBe(200)
    expect(res.body.members.some((m: { captain: boolean }) => m.captain)).toBe(false)
  })

  it('队伍已锁定 while the team plays a running game', async () => {
    const { captain, members, team } = await teamWith(1)
    await lockTeamInRunningGame(server, team, [captain.user])
    const res = await captain.client.put(`/api/team/${team.id}/transfer`, { newCaptainId: members[0].user.id })
    expect(res.body).toEqual({ title: '队伍已锁定', status: 400 })
    expect((await reloadTeam(server, team.id))?.captain.id).toBe(captain.user.id)
  })
})

describe('invite codes', () => {
  it('GET answers {name}:{id}:{token}; PUT regenerates the token and old codes stop working', async () => {
    const { captain, team } = await teamWith(0, { name: 'a:b' })
    const res = await captain.client.get(`/api/team/${team.id}/invite`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(res.body).toBe(`a:b:${team.id}:${team.inviteToken}`)
    const renewed = await captain.client.put(`/api/team/${team.id}/invite`)
    expect(renewed.status).toBe(200)
    expect(renewed.body).toMatch(new RegExp(`^a:b:${team.id}:[0-9a-f]{32}$`))
    expect(renewed.body).not.toBe(res.body)
    const joiner = await createUser(server)
    expect((await joiner.client.post('/api/team/accept', res.body)).body).toEqual({ title: 'a:b 邀请无效', status: 400 })
    expect((await joiner.client.post('/api/team/accept', renewed.body)).status).toBe(200)
  })

  it('400 队伍未找到 (status 400) and 403 for both', async () => {
    const { members, team } = await teamWith(1)
    for (const method of ['GET', 'PUT']) {
      const notFound = await members[0].client.request(method, '/api/team/999999/invite')
      expect(notFound.status).toBe(400)
      expect(notFound.body).toEqual({ title: '队伍未找到', status: 400 })
      const denied = await members[0].client.request(method, `/api/team/${team.id}/invite`)
      expect(denied.body).toEqual({ title: '无权访问', status: 403 })
    }
    expect((await reloadTeam(server, team.id))?.inviteToken).toBe(team.inviteToken)
  })
})

describe('POST /api/team/accept', () => {
  it('joins with a bare JSON string body (team names may contain colons)', async () => {
    const { captain, team } = await teamWith(0, { name: 'x:y:1:z' })
    const joiner = await createUser(server)
    const code = (await captain.client.get(`/api/team/${team.id}/invite`)).body as string
    const res = await joiner.client.request('POST', '/api/team/accept', { body: JSON.stringify(code), headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await memberIds(team.id)).toEqual([captain.user.id, joiner.user.id].sort())
    const again = await joiner.client.post('/api/team/accept', code)
    expect(again.body).toEqual({ title: '你已经加入此队伍，无需重复加入', status: 400 })
  })

  it('refuses malformed codes in the contract order without changing anything', async () => {
    const { team } = await teamWith()
    const joiner = await createUser(server)
    const token = team.inviteToken
    const cases: [unknown, string][] = [
      [null, 'The code field is required.'],
      [42, 'The JSON value could not be converted to System.String.'],
      ['', 'Code 无效'],
      ['garbage', 'Code 无效'],
      [`${team.name}:${team.id}:${token.toUpperCase()}`, 'Code 无效'],
      [`${team.name}:${team.id}:${token.slice(1)}`, 'Code 无效'],
      [`${team.name}:abc:${token}`, 'Code 无效'],
      [`${team.name}:99999999999:${token}`, '队伍 Id 转换错误：99999999999'],
      [`${team.name}:${team.id}:${token}x`, '队伍 Id 转换错误：'],
      [`ghost:999999:${token}`, 'ghost 队伍未找到'],
      [`${team.name}:${team.id}:${'0'.repeat(32)}`, `${team.name} 邀请无效`],
    ]
    for (const [body, title] of cases) {
      const res = await joiner.client.request('POST', '/api/team/accept', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      expect({ body, res: res.body }).toEqual({ body, res: { title, status: 400 } })
    }
    expect(await memberIds(team.id)).toEqual([team.captain.id])
  })

  it('{name} 队伍已锁定 for a locked team; a stale lock is lifted on the spot', async () => {
    const { captain, team } = await teamWith()
    await lockTeamInRunningGame(server, team, [captain.user])
    const joiner = await createUser(server)
    const code = `${team.name}:${team.id}:${team.inviteToken}`
    const res = await joiner.client.post('/api/team/accept', code)
    expect(res.body).toEqual({ title: `${team.name} 队伍已锁定`, status: 400 })
    expect(await memberIds(team.id)).toEqual([captain.user.id])

    // Locked flag, but the only game has ended: the accept succeeds and unlocks the team.
    const stale = await teamWith()
    const ended = await createGame(server, { start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), wpddl: new Date(Date.now() - HOUR) })
    await createParticipation(server, ended, stale.team, [stale.captain.user])
    await em().nativeUpdate(Team, { id: stale.team.id }, { locked: true })
    expect((await joiner.client.post('/api/team/accept', `${stale.team.name}:${stale.team.id}:${stale.team.inviteToken}`)).status).toBe(200)
    expect((await reloadTeam(server, stale.team.id))?.locked).toBe(false)
  })

  it('401 anonymous, 403 banned, and an empty body is refused', async () => {
    expect((await server.client().post('/api/team/accept', 'a:1:' + '0'.repeat(32))).status).toBe(401)
    const banned = await createUser(server, { role: 'Banned' })
    expect((await banned.client.post('/api/team/accept', 'a:1:' + '0'.repeat(32))).status).toBe(403)
    const u = await createUser(server)
    const res = await u.client.request('POST', '/api/team/accept', { body: '', headers: { 'content-type': 'application/json' } })
    expect(res.body).toEqual({ title: 'A non-empty request body is required.', status: 400 })
  })

  it('is rate limited (InviteCode policy) against brute force', async () => {
    const limited = await startTestServer({ rateLimit: true })
    try {
      const u = await createUser(limited)
      const statuses: number[] = []
      for (let i = 0; i < 32; i++) statuses.push((await u.client.post('/api/team/accept', `x:1:${'0'.repeat(32)}`)).status)
      expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true)
      const last = await u.client.post('/api/team/accept', `x:1:${'0'.repeat(32)}`)
      expect(last.status).toBe(429)
      expect(last.body.title).toMatch(/^Too many requests, retry after \d+ seconds\.$/)
      expect(last.headers.get('retry-after')).toMatch(/^\d+$/)
    } finally {
      await limited.close()
    }
  })
})

describe('POST /api/team/{id}/kick/{userid}', () => {
  it("removes the member and the kicked member's registrations for this team — never the captain's", async () => {
    const { captain, members, team } = await teamWith(2)
    const [kicked, stays] = members
    const ended = await createGame(server, { start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), wpddl: new Date(Date.now() - HOUR) })
    const part = await createParticipation(server, ended, team, [captain.user, kicked.user, stays.user])
    // A registration of the kicked user through another team stays.
    const elsewhere = await teamWith()
    await addMember(elsewhere.team.id, kicked.user.id)
    const otherGame = await createGame(server)
    const otherPart = await createParticipation(server, otherGame, elsewhere.team, [kicked.user], 'Pending')

    const res = await captain.client.post(`/api/team/${team.id}/kick/${kicked.user.id.toUpperCase()}`)
    expect(res.status).toBe(200)
    const info = TeamInfoModel.parse(res.body)
    expect(info.members!.map((m) => m.id).sort()).toEqual([captain.user.id, stays.user.id].sort())
    const regs = await em().find(Registration, { participation: part.id })
    expect(regs.map((r) => r.user.id).sort()).toEqual([captain.user.id, stays.user.id].sort())
    expect(await em().count(Registration, { participation: otherPart.id, user: kicked.user.id })).toBe(1)
  })

  it('checks in order: 队伍未找到 (400), 403, 队伍已锁定 (for a member playing in the locked game, or a non-member), 用户不在队伍中', async () => {
    const { captain, members, team } = await teamWith(1)
    const outsider = await createUser(server)
    let res = await captain.client.post(`/api/team/999999/kick/${members[0].user.id}`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: '队伍未找到', status: 400 })
    res = await members[0].client.post(`/api/team/${team.id}/kick/${captain.user.id}`)
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
    for (const id of [outsider.user.id, 'not-a-guid']) {
      res = await captain.client.post(`/api/team/${team.id}/kick/${id}`)
      expect(res.body).toEqual({ title: '用户不在队伍中', status: 400 })
    }
    await lockTeamInRunningGame(server, team, [captain.user, members[0].user])
    for (const id of [members[0].user.id, outsider.user.id]) {
      res = await captain.client.post(`/api/team/${team.id}/kick/${id}`)
      expect(res.body).toEqual({ title: '队伍已锁定', status: 400 })
    }
    expect(await memberIds(team.id)).toEqual([captain.user.id, members[0].user.id].sort())
    expect(await em().count(Registration, { user: members[0].user.id })).toBe(1)
  })

  it('the captain may kick himself', async () => {
    const { captain, members, team } = await teamWith(1)
    const res = await captain.client.post(`/api/team/${team.id}/kick/${captain.user.id}`)
    expect(res.status).toBe(200)
    expect(await memberIds(team.id)).toEqual([members[0].user.id])
  })
})

describe('POST /api/team/{id}/leave', () => {
  it("leaves (also the captain, who keeps the captain id); the leaver's registrations for this team go", async () => {
    const { captain, members, team } = await teamWith(1)
    const ended = await createGame(server, { start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), wpddl: new Date(Date.now() - HOUR) })
    const part = await createParticipation(server, ended, team, [members[0].user, captain.user])
    // A registration through another team stays.
    const elsewhere = await teamWith()
    await addMember(elsewhere.team.id, members[0].user.id)
    const otherPart = await createParticipation(server, await createGame(server), elsewhere.team, [members[0].user], 'Pending')
    let res = await members[0].client.post(`/api/team/${team.id}/leave`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await em().count(Registration, { user: members[0].user.id, participation: part.id })).toBe(0)
    expect(await em().count(Registration, { user: members[0].user.id, participation: otherPart.id })).toBe(1)
    expect(await em().count(Registration, { user: captain.user.id, participation: part.id })).toBe(1)
    res = await captain.client.post(`/api/team/${team.id}/leave`)
    expect(res.status).toBe(200)
    const row = await reloadTeam(server, team.id)
    expect(row?.members.count()).toBe(0)
    expect(row?.captain.id).toBe(captain.user.id)
  })

  it('checks in order: 404 队伍未找到 (status 404), 你不在此队伍中，无法离队, 队伍已锁定', async () => {
    const { captain, members, team } = await teamWith(1)
    const outsider = await createUser(server)
    let res = await outsider.client.post('/api/team/999999/leave')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '队伍未找到', status: 404 })
    res = await outsider.client.post(`/api/team/${team.id}/leave`)
    expect(res.body).toEqual({ title: '你不在此队伍中，无法离队', status: 400 })
    await lockTeamInRunningGame(server, team, [captain.user])
    res = await members[0].client.post(`/api/team/${team.id}/leave`)
    expect(res.body).toEqual({ title: '队伍已锁定', status: 400 })
    expect(await memberIds(team.id)).toEqual([captain.user.id, members[0].user.id].sort())
    expect((await server.client().post(`/api/team/${team.id}/leave`)).status).toBe(401)
  })
})

describe('PUT /api/team/{id}/avatar', () => {
  it('stores a 300 px WebP and answers its URL; team payloads show /assets/{hash}/avatar; the old file is released', async () => {
    const { captain, team } = await teamWith()
    const res = await captain.client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'me.png', await png(), 'image/png']])
    expect(res.status).toBe(200)
    const url = res.body as string
    expect(url).toMatch(/^\/assets\/[0-9a-f]{64}\/avatar\.webp$/)
    const hash = url.split('/')[2]
    const image = await server.client().request('GET', url, { raw: true })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/webp')
    const bytes = Buffer.from(await (await fetch(server.url + url)).arrayBuffer())
    expect((await sharp(bytes).metadata()).width).toBe(300)
    expect((await server.client().get(`/api/team/${team.id}`)).body.avatar).toBe(`/assets/${hash}/avatar`)

    // A GIF replaces it; the WebP's only reference goes, and so does its row.
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } }).gif().toBuffer()
    const second = await captain.client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'a.gif', gif, 'image/gif']])
    expect(second.body).toMatch(/\/avatar\.gif$/)
    expect(await em().count(LocalFile, { hash })).toBe(0)
  })

  it('checks in order: file required, 404 (status 404), 403, 文件非法, 文件过大, 队伍头像更新失败', async () => {
    const { captain, members, team } = await teamWith(1)
    let res = await captain.client.upload('PUT', `/api/team/999999/avatar`, [['other', 'x.png', await png()]])
    expect(res.body).toEqual({ title: 'The file field is required.', status: 400 })
    res = await captain.client.upload('PUT', `/api/team/999999/avatar`, [['file', 'x.png', await png()]])
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '队伍未找到', status: 404 })
    res = await members[0].client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'x.png', await png()]])
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
    res = await captain.client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'x.png', new Uint8Array(0)]])
    expect(res.body).toEqual({ title: '文件非法', status: 400 })
    res = await captain.client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'x.png', new Uint8Array(3 * 1024 * 1024 + 1)]])
    expect(res.body).toEqual({ title: '文件过大', status: 400 })
    res = await captain.client.upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'x.png', 'not an image at all', 'image/png']])
    expect(res.body).toEqual({ title: '队伍头像更新失败', status: 400 })
    expect((await reloadTeam(server, team.id))?.avatarHash).toBeNull()
    expect((await server.client().upload('PUT', `/api/team/${team.id}/avatar`, [['file', 'x.png', await png()]])).status).toBe(401)
  })
})

describe('DELETE /api/team/{id}', () => {
  it('deletes the team with its participations and registrations; empty body', async () => {
    const { captain, team } = await teamWith()
    const ended = await createGame(server, { start: new Date(Date.now() - 3 * HOUR), end: new Date(Date.now() - HOUR), wpddl: new Date(Date.now() - HOUR) })
    const part = await createParticipation(server, ended, team, [captain.user])
    const res = await captain.client.delete(`/api/team/${team.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await reloadTeam(server, team.id)).toBeNull()
    expect(await em().count(Participation, { id: part.id })).toBe(0)
    expect(await em().count(Registration, { participation: part.id })).toBe(0)
  })

  it('checks in order: 404 (status 404), 403, 队伍已锁定', async () => {
    const { captain, members, team } = await teamWith(1)
    let res = await captain.client.delete('/api/team/999999')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '队伍未找到', status: 404 })
    res = await members[0].client.delete(`/api/team/${team.id}`)
    expect(res.body).toEqual({ title: '无权访问', status: 403 })
    await lockTeamInRunningGame(server, team, [captain.user])
    res = await captain.client.delete(`/api/team/${team.id}`)
    expect(res.body).toEqual({ title: '队伍已锁定', status: 400 })
    expect(await reloadTeam(server, team.id)).not.toBeNull()
    expect((await server.client().delete(`/api/team/${team.id}`)).status).toBe(401)
  })
})

describe('audit log', () => {
  it('records create, join, kick, transfer and delete', async () => {
    const u = await createUser(server)
    const created = await u.client.post('/api/team', { name: 'audited' })
    const code = (await u.client.get(`/api/team/${created.body.id}/invite`)).body
    const j = await createUser(server)
    await j.client.post('/api/team/accept', code)
    await u.client.post(`/api/team/${created.body.id}/kick/${j.user.id}`)
    await u.client.put(`/api/team/${created.body.id}/transfer`, { newCaptainId: u.user.id })
    await u.client.delete(`/api/team/${created.body.id}`)
    const rows = await em().execute<{ message: string; user_name: string }[]>('select message, user_name from logs order by id')
    const messages = rows.map((r) => r.message)
    for (const m of ['创建队伍 audited', '加入队伍 audited', `从队伍 audited 踢除 ${j.user.userName}`, `转移队伍 audited 给 ${u.user.userName}`, '删除队伍 audited']) {
      expect(messages).toContain(m)
    }
  })
})
