/**
 * Group `admin`, users and teams (docs/compatibility.md#group-admin): lists and searches, batch creation in
 * one transaction (duplicate-update rule, teams), edits whose Identity refusals are ignored,
 * bans and role changes that take effect at once (sessions and sockets), password resets,
 * deletions — all Admin-only, Monitor included in the refusals.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { UserInfoModel } from '@flagwave/shared/schemas/users'
import { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { rooms } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, DEFAULT_PASSWORD } from '../support/factories/users.js'
import { countTeams, createTeam, reloadTeam } from '../support/factories/teams.js'
import { createGame, createParticipation } from '../support/factories/games.js'
import { closeAllSockets, connect, disconnected, joined } from '../support/sockets.js'
import type { ApiClient } from '../support/client.js'
import { User } from '../../server/src/entities/User.js'
import { Team } from '../../server/src/entities/Team.js'
import { Session } from '../../server/src/entities/Session.js'
import { Participation } from '../../server/src/entities/Participation.js'
import { Post } from '../../server/src/entities/Post.js'

let server: TestServer
let admin: ApiClient
let adminId: string
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  adminId = (await admin.get('/api/account/profile')).body.userId
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const countUsers = () => em().count(User, {})
const userRow = (id: string) => em().findOne(User, { id })

/** Every admin route, for the 401 / 403 matrix. */
const ADMIN_ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/admin/users'],
  ['POST', '/api/admin/users', []],
  ['POST', '/api/admin/users/search?hint=a'],
  ['GET', '/api/admin/teams'],
  ['POST', '/api/admin/teams/search?hint=a'],
  ['PUT', '/api/admin/teams/1', {}],
  ['PUT', `/api/admin/users/${randomUUID()}`, {}],
  ['DELETE', `/api/admin/users/${randomUUID()}/password`],
  ['DELETE', `/api/admin/users/${randomUUID()}`],
  ['DELETE', '/api/admin/teams/1'],
  ['GET', `/api/admin/users/${randomUUID()}`],
  ['GET', '/api/admin/files'],
]

describe('permissions', () => {
  it('every endpoint: 401 anonymous, 403 for User, Monitor and banned users', async () => {
    const [user, monitor, banned] = await Promise.all([createUser(server), createUser(server, { role: 'Monitor' }), createUser(server, { role: 'Banned' })])
    for (const [method, path, json] of ADMIN_ROUTES) {
      expect({ method, path, res: (await server.client().request(method, path, { json })).body }).toEqual({ method, path, res: { title: '请先登录', status: 401 } })
      for (const c of [user.client, monitor.client, banned.client]) {
        const res = await c.request(method, path, { json })
        expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 403, body: { title: '无权访问', status: 403 } })
      }
    }
  })
})

describe('GET /api/admin/users', () => {
  it('pages users by id with total = number of users', async () => {
    await Promise.all([createUser(server), createUser(server), createUser(server)])
    const total = await countUsers()
    const res = await admin.get('/api/admin/users')
    expect(res.status).toBe(200)
    const page = arrayResponseOf(UserInfoModel).parse(res.body)
    expect(page.total).toBe(total)
    expect(page.length).toBe(page.data.length)
    const ids = page.data.map((u) => u.id)
    expect(ids).toEqual([...ids].sort())
    const second = arrayResponseOf(UserInfoModel).parse((await admin.get('/api/admin/users?count=2&skip=1')).body)
    expect(second.data.map((u) => u.id)).toEqual(ids.slice(1, 3))
    expect(second).toMatchObject({ length: 2, total })
    const me = page.data.find((u) => u.id === adminId)!
    expect(me).toMatchObject({ userName: 'Admin', role: 'Admin', emailConfirmed: true, phone: null, avatar: null })
    expect((await admin.get('/api/admin/users?count=x')).body).toEqual({ title: "The value 'x' is not valid for count.", status: 400 })
  })
})

describe('POST /api/admin/users/search', () => {
  it('finds at most 30 users by a case-sensitive substring of name, e-mail, id, real name or student number', async () => {
    const target = await createUser(server, { userName: 'findMeZq', realName: '张三', stdNumber: 'S2023-77' })
    const byName = arrayResponseOf(UserInfoModel).parse((await admin.post('/api/admin/users/search?hint=MeZq')).body)
    expect(byName.data.map((u) => u.id)).toEqual([target.user.id])
    expect(byName.total).toBe(byName.length)
    for (const hint of ['张三', 'S2023-7', target.user.id.slice(4, 16), 'findMeZq@exam']) {
      const res = await admin.post(`/api/admin/users/search?hint=${encodeURIComponent(hint)}`)
      expect({ hint, ids: res.body.data.map((u: { id: string }) => u.id) }).toEqual({ hint, ids: [target.user.id] })
    }
    expect((await admin.post('/api/admin/users/search?hint=FINDMEZQ')).body.data).toEqual([])
    // LIKE wildcards are literal.
    expect((await admin.post('/api/admin/users/search?hint=%25')).body.data).toEqual([])
    const many = await admin.post('/api/admin/users/search?hint=-')
    expect(many.body.data.length).toBeLessThanOrEqual(30)
  })

  it('400 The hint field is required. when missing or empty', async () => {
    for (const q of ['', '?hint=']) {
      expect((await admin.post(`/api/admin/users/search${q}`)).body).toEqual({ title: 'The hint field is required.', status: 400 })
      expect((await admin.post(`/api/admin/teams/search${q}`)).body).toEqual({ title: 'The hint field is required.', status: 400 })
    }
  })
})

describe('POST /api/admin/users', () => {
  it('creates confirmed users and one new team per teamName, captained by its first user', async () => {
    const teamsBefore = await countTeams(server)
    const res = await admin.post('/api/admin/users', [
      { userName: 'batchA1', password: 'Passw0rdA', email: 'batcha1@example.com', realName: '甲', stdNumber: '001', phone: '+86 123', teamName: 'BatchTeam' },
      { userName: 'batchA2', password: 'Passw0rdB', email: 'batcha2@example.com', teamName: 'BatchTeam' },
      { userName: 'batchA3', password: 'Passw0rdC', email: 'batcha3@example.com' },
    ])
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    const a1 = await em().findOneOrFail(User, { userName: 'batchA1' })
    expect(a1).toMatchObject({ emailConfirmed: true, role: 'User', realName: '甲', stdNumber: '001', phone: '+86 123' })
    const a3 = await em().findOneOrFail(User, { userName: 'batchA3' })
    expect(a3).toMatchObject({ realName: '', stdNumber: '', phone: null })
    expect(await countTeams(server)).toBe(teamsBefore + 1)
    const team = await em().findOneOrFail(Team, { name: 'BatchTeam' }, { populate: ['members'] })
    expect(team.captain.id).toBe(a1.id)
    expect(team.members.getItems().map((m) => m.userName).sort()).toEqual(['batchA1', 'batchA2'])
    const client = server.client()
    await client.login('batchA2', 'Passw0rdB')
  })

  it('a duplicate user name (or e-mail) updates that account and resets its password; existing teams are not reused', async () => {
    const existing = await createUser(server, { userName: 'dupUser1', realName: 'Old', stdNumber: 'keep' })
    await createTeam(server, existing.user, [], { name: 'SameName' })
    const teamsBefore = await countTeams(server)
    const res = await admin.post('/api/admin/users', [
      { userName: 'dupUser1', password: 'N3wPassword', email: 'dupuser1-new@example.com', realName: 'New', teamName: 'SameName' },
    ])
    expect(res.status).toBe(200)
    const row = await userRow(existing.user.id)
    expect(row).toMatchObject({ email: 'dupuser1-new@example.com', realName: 'New', stdNumber: 'keep' })
    expect(await countTeams(server)).toBe(teamsBefore + 1)
    // The old password and the old session no longer work; the new one does.
    expect((await existing.client.get('/api/account/profile')).status).toBe(401)
    await server.client().login('dupUser1', 'N3wPassword')

    const byMail = await createUser(server, { userName: 'dupMail1', email: 'dupmail1@example.com' })
    expect((await admin.post('/api/admin/users', [{ userName: 'dupMail1b', password: 'An0therPass', email: 'DUPMAIL1@example.com' }])).status).toBe(200)
    expect(await userRow(byMail.user.id)).toMatchObject({ userName: 'dupMail1b', email: 'DUPMAIL1@example.com' })
  })

  it('any other failure rolls the whole batch back', async () => {
    const users = await countUsers()
    const teams = await countTeams(server)
    const cases: [unknown[], string][] = [
      [[{ userName: 'rollOk1', password: 'Passw0rd1', email: 'rollok1@example.com', teamName: 'Rolled' }, { userName: 'bad name!', password: 'Passw0rd1', email: 'bad@example.com' }], '用户名 bad name! 无效'],
      [[{ userName: 'rollOk2', password: 'Passw0rd1', email: 'rollok2@example.com' }, { userName: 'weakPw1', password: 'password', email: 'weak@example.com' }], '密码中需要数字'],
      [[{ userName: 'rollOk3', password: 'Passw0rd1', email: 'rollok3@example.com' }, { userName: 'xy', password: 'Passw0rd1', email: 'xy@example.com' }], '用户名过短'],
      [[{ userName: 'rollOk4', password: 'Passw0rd1', email: 'not-an-email' }], '邮箱地址无效'],
      [[{ userName: 'rollOk5', password: 'Passw0rd1', email: 'r5@example.com', stdNumber: '1'.repeat(16) }], '学工号过长'],
      [[{ userName: 'rollOk6', password: 'Passw0rd1', email: 'r6@example.com', teamName: 't'.repeat(16) }], '队伍名称过长'],
      [[{ userName: 'rollOk7', password: 'Passw0rd1', email: 'r7@example.com', phone: 'call me' }], '手机号格式错误'],
      [[{ password: 'Passw0rd1', email: 'r8@example.com' }], '用户名是必需的'],
    ]
    for (const [body, title] of cases) {
      const res = await admin.post('/api/admin/users', body)
      expect({ title: res.body.title, status: res.status }).toEqual({ title, status: 400 })
    }
    // The existing account found by name now collides on e-mail with another account.
    const [one, two] = await Promise.all([createUser(server, { userName: 'collideA' }), createUser(server, { userName: 'collideB' })])
    const usersNow = await countUsers()
    const res = await admin.post('/api/admin/users', [{ userName: 'collideA', password: 'Passw0rd1', email: two.user.email }])
    expect(res.body).toEqual({ title: `邮箱地址 ${two.user.email} 已存在`, status: 400 })
    expect((await userRow(one.user.id))?.email).toBe(one.user.email)
    expect(await countUsers()).toBe(usersNow)
    expect(usersNow).toBe(users + 2)
    expect(await countTeams(server)).toBe(teams)
  })
})

describe('GET /api/admin/users/{userid}', () => {
  it('answers ProfileUserInfoModel; 404 用户未找到; a non-GUID matches no endpoint', async () => {
    const u = await createUser(server, { realName: 'Real', phone: '123' })
    const res = await admin.get(`/api/admin/users/${u.user.id}`)
    expect(ProfileUserInfoModel.parse(res.body)).toEqual({
      userId: u.user.id,
      userName: u.user.userName,
      email: u.user.email,
      bio: '',
      phone: '123',
      realName: 'Real',
      stdNumber: '',
      avatar: null,
      role: 'User',
    })
    expect((await admin.get(`/api/admin/users/${u.user.id.toUpperCase()}`)).status).toBe(200)
    const missing = await admin.get(`/api/admin/users/${randomUUID()}`)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ title: '用户未找到', status: 404 })
    const noRoute = await admin.get('/api/admin/users/not-a-guid')
    expect(noRoute.status).toBe(404)
    expect(noRoute.body.title).toBe('Not Found')
  })
})

describe('PUT /api/admin/users/{userid}', () => {
  it('overwrites each non-null member', async () => {
    const u = await createUser(server, { bio: 'keep me' })
    const res = await admin.put(`/api/admin/users/${u.user.id}`, { realName: 'Changed', stdNumber: '2024', phone: '555-1234', emailConfirmed: false, email: 'changed@example.org', userName: 'renamedU1', role: 'Monitor' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await userRow(u.user.id)).toMatchObject({
      realName: 'Changed',
      stdNumber: '2024',
      phone: '555-1234',
      emailConfirmed: false,
      email: 'changed@example.org',
      normalizedEmail: 'CHANGED@EXAMPLE.ORG',
      userName: 'renamedU1',
      normalizedUserName: 'RENAMEDU1',
      role: 'Monitor',
      bio: 'keep me',
    })
  })

  it('an Identity refusal (duplicate or invalid name, duplicate e-mail) saves nothing and still answers 200', async () => {
    const [u, other] = await Promise.all([createUser(server), createUser(server)])
    for (const body of [{ userName: other.user.userName, realName: 'X' }, { email: other.user.email.toUpperCase(), realName: 'X' }, { userName: 'bad name', realName: 'X' }]) {
      const res = await admin.put(`/api/admin/users/${u.user.id}`, body)
      expect(res.status).toBe(200)
      expect(await userRow(u.user.id)).toMatchObject({ userName: u.user.userName, email: u.user.email, realName: '' })
    }
  })

  it('400 validation (nothing changed); 404 用户未找到 also for a non-GUID id (no constraint on this route)', async () => {
    const u = await createUser(server)
    const cases: [Record<string, unknown>, string][] = [
      [{ userName: 'ab' }, '用户名过短'],
      [{ userName: 'a'.repeat(16) }, '用户名过长'],
      [{ email: 'nope' }, '邮箱格式错误'],
      [{ bio: 'b'.repeat(51) }, '描述过长'],
      [{ phone: 'abc' }, '手机号格式错误'],
      [{ realName: '12345678' }, '真实姓名过长'],
      [{ stdNumber: '1'.repeat(25) }, '学工号过长'],
      [{ role: 'Overlord' }, "The value 'Overlord' is not valid."],
    ]
    for (const [body, title] of cases) expect((await admin.put(`/api/admin/users/${u.user.id}`, body)).body).toEqual({ title, status: 400 })
    expect(await userRow(u.user.id)).toMatchObject({ role: 'User', bio: '' })
    for (const id of [randomUUID(), 'not-a-guid']) {
      const res = await admin.put(`/api/admin/users/${id}`, { realName: 'x' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ title: '用户未找到', status: 404 })
    }
  })

  it('a ban takes effect at once: the next request answers 403 (the contract\'s "account disabled") and sockets are dropped', async () => {
    const victim = await createUser(server)
    const socket = await connect(server, '/hub/user', { client: victim.client })
    await joined(server, '/hub/user', socket, rooms.user(victim.user.id))
    const bystander = await createUser(server)
    const other = await connect(server, '/hub/user', { client: bystander.client })
    await joined(server, '/hub/user', other, rooms.user(bystander.user.id))
    expect((await victim.client.get('/api/account/profile')).status).toBe(200)

    expect((await admin.put(`/api/admin/users/${victim.user.id}`, { role: 'Banned' })).status).toBe(200)
    expect(await disconnected(socket)).toBe('io server disconnect')
    expect(other.connected).toBe(true)
    // The session is kept on purpose: GZ::CTF clients read body status 403 as "account disabled".
    expect(await victim.client.get('/api/team')).toMatchObject({ status: 403, body: { title: '无权访问', status: 403 } })
    expect(await victim.client.get('/api/account/profile')).toMatchObject({ status: 403, body: { status: 403 } })
    expect((await userRow(victim.user.id))?.role).toBe('Banned')
    // A banned user cannot sign in again.
    expect((await server.client().post('/api/account/login', { userName: victim.user.userName, password: DEFAULT_PASSWORD })).status).not.toBe(200)
    const logs = await em().execute<{ message: string; level: string }[]>('select message, level from logs')
    expect(logs).toContainEqual({ message: `封禁用户 ${victim.user.userName}`, level: 'Warning' })
  })

  it('a role change keeps the session but drops sockets, which reconnect with the new role', async () => {
    const u = await createUser(server)
    const socket = await connect(server, '/hub/user', { client: u.client })
    await joined(server, '/hub/user', socket, rooms.user(u.user.id))
    expect((await u.client.get('/api/admin/users')).status).toBe(403)
    expect((await admin.put(`/api/admin/users/${u.user.id}`, { role: 'Admin' })).status).toBe(200)
    expect(await disconnected(socket)).toBe('io server disconnect')
    expect((await u.client.get('/api/admin/users')).status).toBe(200)
    const adminHub = await connect(server, '/hub/admin', { client: u.client })
    await joined(server, '/hub/admin', adminHub, rooms.admins)
  })
})

describe('DELETE /api/admin/users/{userid}/password', () => {
  it('answers a new 16-character password; the stamp moves so old sessions end', async () => {
    const u = await createUser(server)
    const res = await admin.delete(`/api/admin/users/${u.user.id}/password`)
    expect(res.status).toBe(200)
    const password = res.body as string
    expect(password).toMatch(/^[a-zA-Z0-9!@#$%^&*()\-_=+]{16}$/)
    for (const re of [/\d/, /[a-z]/, /[A-Z]/, /[!@#$%^&*()\-_=+]/]) expect(password).toMatch(re)
    expect((await userRow(u.user.id))?.securityStamp).not.toBe(u.user.securityStamp)
    expect((await u.client.get('/api/account/profile')).status).toBe(401)
    await server.client().login(u.user.userName, password)
    const logs = await em().execute<{ message: string }[]>('select message from logs')
    expect(logs.map((l) => l.message)).toContain(`重置用户 ${u.user.userName} 的密码`)
  })

  it('404 用户未找到; a non-GUID matches no endpoint', async () => {
    const res = await admin.delete(`/api/admin/users/${randomUUID()}/password`)
    expect(res.body).toEqual({ title: '用户未找到', status: 404 })
    expect((await admin.delete('/api/admin/users/xyz/password')).body.title).toBe('Not Found')
  })
})

describe('DELETE /api/admin/users/{userid}', () => {
  it('deletes the account with its sessions and memberships; posts keep a null author', async () => {
    const [victim, captain] = await Promise.all([createUser(server), createUser(server)])
    const team = await createTeam(server, captain.user, [victim.user])
    const postId = 'abcdef12'
    await em().execute('insert into posts (id, title, author_id, update_time) values (?, ?, ?, now())', [postId, 'by victim', victim.user.id])
    const res = await admin.delete(`/api/admin/users/${victim.user.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await userRow(victim.user.id)).toBeNull()
    expect(await em().count(Session, { user: victim.user.id })).toBe(0)
    expect((await reloadTeam(server, team.id))?.members.getItems().map((m) => m.id)).toEqual([captain.user.id])
    expect((await em().findOneOrFail(Post, { id: postId })).author).toBeNull()
    expect((await server.client().get(`/api/posts/${postId}`)).body.authorName).toBeNull()
    expect((await victim.client.get('/api/account/profile')).status).toBe(401)
  })

  it('checks in order: 不可以删除自己, 404 用户未找到, 不可以删除队长', async () => {
    let res = await admin.delete(`/api/admin/users/${adminId}`)
    expect(res.body).toEqual({ title: '不可以删除自己', status: 400 })
    res = await admin.delete(`/api/admin/users/${randomUUID()}`)
    expect(res.body).toEqual({ title: '用户未找到', status: 404 })
    const captain = await createUser(server)
    await createTeam(server, captain.user)
    res = await admin.delete(`/api/admin/users/${captain.user.id}`)
    expect(res.body).toEqual({ title: '不可以删除队长', status: 400 })
    expect(await userRow(captain.user.id)).not.toBeNull()
    expect((await admin.delete('/api/admin/users/nope')).status).toBe(404)
  })
})

describe('admin teams', () => {
  it('GET /api/admin/teams pages teams by id with members; total = number of teams', async () => {
    const [a, b] = await Promise.all([createUser(server), createUser(server)])
    await createTeam(server, a.user, [b.user])
    await createTeam(server, b.user)
    const res = await admin.get('/api/admin/teams')
    const page = arrayResponseOf(TeamInfoModel).parse(res.body)
    expect(page.total).toBe(await countTeams(server))
    const ids = page.data.map((t) => t.id)
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    expect(page.data.every((t) => Array.isArray(t.members))).toBe(true)
    const one = (await admin.get('/api/admin/teams?count=1&skip=1')).body
    expect(one).toMatchObject({ length: 1, total: page.total })
    expect(one.data[0].id).toBe(ids[1])
  })

  it('POST /api/admin/teams/search finds teams whose name holds the hint, with members', async () => {
    const u = await createUser(server)
    const team = await createTeam(server, u.user, [], { name: 'SearchMeQx' })
    const res = arrayResponseOf(TeamInfoModel).parse((await admin.post('/api/admin/teams/search?hint=MeQx')).body)
    expect(res.data.map((t) => t.id)).toEqual([team.id])
    expect(res.data[0].members?.[0]).toMatchObject({ id: u.user.id, captain: true })
    expect((await admin.post('/api/admin/teams/search?hint=meqx')).body.data).toEqual([])
  })

  it('PUT /api/admin/teams/{id}: null/empty keep, locked toggles; HTTP 400 队伍未找到; validation', async () => {
    const u = await createUser(server)
    const team = await createTeam(server, u.user, [], { name: 'AdminEdit', bio: 'bio' })
    let res = await admin.put(`/api/admin/teams/${team.id}`, { name: 'Edited', locked: true })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await reloadTeam(server, team.id)).toMatchObject({ name: 'Edited', bio: 'bio', locked: true })
    expect((await admin.put(`/api/admin/teams/${team.id}`, { name: '', bio: '' })).status).toBe(200)
    expect(await reloadTeam(server, team.id)).toMatchObject({ name: 'Edited', bio: 'bio', locked: true })
    expect((await admin.put(`/api/admin/teams/${team.id}`, { bio: 'new', locked: false })).status).toBe(200)
    expect(await reloadTeam(server, team.id)).toMatchObject({ bio: 'new', locked: false })
    res = await admin.put('/api/admin/teams/999999', { name: 'x' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: '队伍未找到', status: 400 })
    expect((await admin.put(`/api/admin/teams/${team.id}`, { name: 'n'.repeat(16) })).body).toEqual({ title: '队伍名称过长', status: 400 })
    expect((await admin.put(`/api/admin/teams/${team.id}`, { bio: 'b'.repeat(32) })).body).toEqual({ title: '队伍签名过长', status: 400 })
    expect((await admin.put(`/api/admin/teams/${team.id}`, { locked: 'yes' })).body).toEqual({ title: 'The JSON value could not be converted to System.Boolean.', status: 400 })
    expect(await reloadTeam(server, team.id)).toMatchObject({ name: 'Edited', bio: 'new', locked: false })
  })

  it('DELETE /api/admin/teams/{id} deletes even a locked team with its participations; 404 队伍未找到', async () => {
    const u = await createUser(server)
    const team = await createTeam(server, u.user, [], { locked: true })
    const game = await createGame(server)
    const part = await createParticipation(server, game, team, [u.user])
    const res = await admin.delete(`/api/admin/teams/${team.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await reloadTeam(server, team.id)).toBeNull()
    expect(await em().count(Participation, { id: part.id })).toBe(0)
    const missing = await admin.delete(`/api/admin/teams/${team.id}`)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ title: '队伍未找到', status: 404 })
  })
})
