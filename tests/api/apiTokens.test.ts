/**
 * API tokens (docs/architecture.md#api-tokens, docs/compatibility.md#api-tokens): Flagwave's scoped
 * tokens and GZ::CTF 1.5's admin tokens over HTTP against PostgreSQL — creation (secret once),
 * listing with last use, scopes and the routes no token may call, expiry, revocation at once on
 * two nodes, the owner's role and ban re-checked on every use, and the GZ::CTF format verified.
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { TestServer } from '../support/server.js'
import { withTwoNodes } from '../support/twoNodes.js'
import { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import type { RunningServer } from '../../server/src/server.js'
import { ApiToken } from '../../server/src/entities/ApiToken.js'
import { User } from '../../server/src/entities/User.js'
import { flushTokenUsage } from '../../server/src/domain/accounts/apiTokens.js'

let server: TestServer
let other: RunningServer
let admin: ApiClient

withTwoNodes((nodes) => ({ server, other, admin } = nodes))

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const asToken = (token: string, base = server.url) => {
  const client = new ApiClient(base)
  return {
    get: (path: string) => client.get(path, bearer(token)),
    post: (path: string, json?: unknown) => client.post(path, json, bearer(token)),
    put: (path: string, json?: unknown) => client.put(path, json, bearer(token)),
    delete: (path: string) => client.delete(path, bearer(token)),
  }
}

async function tokenFor(owner: TestUser | ApiClient, scopes: string[], expiresInDays: number | null = 30): Promise<{ id: string; token: string }> {
  const client = owner instanceof ApiClient ? owner : owner.client
  const res = await client.post('/api/account/tokens', { name: `t-${scopes.join('-')}`, scopes, expiresInDays })
  expect(res.status, res.text).toBe(200)
  return res.body
}

const tokenRows = async (userId: string) => server.services.orm.em.fork().count(ApiToken, { user: userId })

describe('Flagwave tokens', () => {
  it('shows the secret once, lists the token without it and records its last use without a write per request', async () => {
    const alice = await createUser(server)
    const created = await alice.client.post('/api/account/tokens', { name: 'ci', scopes: ['read', 'submit'], expiresInDays: 7 })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ name: 'ci', kind: 'Flagwave', scopes: ['read', 'submit'], lastUsedAt: null, revoked: false })
    expect(created.body.token).toMatch(/^fw_[A-Za-z0-9_-]{43}$/)
    const row = await server.services.orm.em.fork().findOneOrFail(ApiToken, { id: created.body.id })
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.secretHash).not.toContain(created.body.token)

    const me = await asToken(created.body.token).get('/api/account/profile')
    expect(me.status).toBe(200)
    expect(me.body.userName).toBe(alice.user.userName)
    expect(me.headers.getSetCookie().some((c) => c.startsWith('XSRF-TOKEN'))).toBe(false)

    const listed = await alice.client.get('/api/account/tokens')
    expect(listed.status).toBe(200)
    expect(listed.body).toHaveLength(1)
    expect(listed.body[0]).not.toHaveProperty('token')
    expect(listed.body[0].lastUsedAt).not.toBeNull()
    // Not written yet: the use waits in memory for the batch.
    const stored = await server.services.orm.em.fork().findOneOrFail(ApiToken, { id: created.body.id })
    expect(stored.lastUsedAt).toBeNull()
    expect(await flushTokenUsage(server.services.orm.em.fork())).toBeGreaterThanOrEqual(1)
    const flushed = await server.services.orm.em.fork().findOneOrFail(ApiToken, { id: created.body.id })
    expect(flushed.lastUsedAt).not.toBeNull()
  })

  it('refuses scopes above the role and bad bodies with the contract error shape, creating nothing', async () => {
    const bob = await createUser(server)
    for (const [body, title] of [
      [{ name: 'x', scopes: ['monitor'] }, '令牌权限超出账户角色'],
      [{ name: 'x', scopes: ['admin'] }, '令牌权限超出账户角色'],
      [{ name: 'x', scopes: [] }, '请至少选择一项令牌权限'],
      [{ name: 'x', scopes: ['root'] }, '令牌权限无效'],
      [{ name: '', scopes: ['read'] }, '令牌名称不能为空'],
      [{ name: 'x', scopes: ['read'], expiresInDays: 400 }, '有效期不能超过 365 天'],
    ] as const) {
      const res = await bob.client.post('/api/account/tokens', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toEqual({ title, status: 400 })
    }
    expect(await tokenRows(bob.user.id)).toBe(0)
    expect((await server.client().post('/api/account/tokens', { name: 'x', scopes: ['read'] })).body).toEqual({ title: '请先登录', status: 401 })
  })

  it('lets each scope do what it names and nothing more', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const player = await createUser(server)
    const team = await createTeam(server, player.user)
    await createParticipation(server, game, team, [player.user])
    const read = await tokenFor(player, ['read'])
    const submit = await tokenFor(player, ['submit'])
    const flag = `/api/game/${game.id}/challenges/${challenge.id}`

    expect((await asToken(read.token).get(`/api/game/${game.id}/details`)).status).toBe(200)
    const refused = await asToken(read.token).post(flag, { flag: 'flag{test}' })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ title: '令牌权限不足', status: 403, requiredScope: 'submit' })
    expect((await asToken(read.token).post('/api/team', { name: 'tokenteam' })).body).toEqual({ title: '令牌权限不足', status: 403, requiredScope: 'admin' })

    const submitted = await asToken(submit.token).post(flag, { flag: 'flag{test}' })
    expect(submitted.status, submitted.text).toBe(200)
    expect(typeof submitted.body).toBe('number')
    expect((await asToken(submit.token).get(`/api/game/${game.id}/details`)).status).toBe(200)
    expect((await asToken(submit.token).put('/api/account/update', { bio: 'via token' })).status).toBe(403)
  })

  it('never changes passwords, e-mail addresses or tokens, whatever the scope', async () => {
    const boss = await createUser(server, { role: 'Admin' })
    const { token } = await tokenFor(boss, ['admin'])
    const forbidden = { title: 'API 令牌不能用于此操作', status: 403 }
    const stampBefore = (await server.services.orm.em.fork().findOneOrFail(User, { id: boss.user.id })).securityStamp
    const t = asToken(token)
    expect((await t.put('/api/account/changepassword', { old: boss.password, new: 'An0ther#Pass' })).body).toEqual(forbidden)
    expect((await t.put('/api/account/changeemail', { newMail: 'new@example.com' })).body).toEqual(forbidden)
    expect((await t.post('/api/account/mailchangeconfirm', { token: 'x', email: 'eA==' })).body).toEqual(forbidden)
    expect((await t.get('/api/account/tokens')).body).toEqual(forbidden)
    expect((await t.post('/api/account/tokens', { name: 'more', scopes: ['admin'] })).body).toEqual(forbidden)
    expect((await t.post('/api/tokens', { name: 'more' })).body).toEqual(forbidden)
    expect((await t.get('/api/account/2fa')).body).toEqual(forbidden)
    expect((await t.post('/api/account/2fa/enrol')).body).toEqual(forbidden)
    const after = await server.services.orm.em.fork().findOneOrFail(User, { id: boss.user.id })
    expect(after.securityStamp).toBe(stampBefore)
    expect(after.email).toBe(boss.user.email)
    expect(await tokenRows(boss.user.id)).toBe(1)
    // The admin scope does reach the admin routes.
    expect((await t.get('/api/admin/users?count=5&skip=0')).status).toBe(200)
  })

  it('refuses an unknown, malformed or expired token with 401 and never falls back to the cookie', async () => {
    const carol = await createUser(server)
    const invalid = { title: '令牌无效或已过期', status: 401 }
    for (const header of ['Bearer fw_nope', 'Bearer ', 'Bearer a.b', `Bearer ${'x'.repeat(2000)}`]) {
      const res = await carol.client.get('/api/account/profile', { authorization: header })
      expect(res.status, header).toBe(401)
      expect(res.body).toEqual(invalid)
    }
    const { id, token } = await tokenFor(carol, ['read'], 1)
    expect((await asToken(token).get('/api/account/profile')).status).toBe(200)
    const em = server.services.orm.em.fork()
    const row = await em.findOneOrFail(ApiToken, { id })
    row.expiresAt = new Date(Date.now() - 1000)
    await em.flush()
    expect((await asToken(token).get('/api/account/profile')).body).toEqual(invalid)
    // access_token in the query is for hubs only: on REST it is no credential.
    expect((await new ApiClient(server.url).get(`/api/account/profile?access_token=${token}`)).body).toEqual({ title: '请先登录', status: 401 })
  })

  it('revokes at once on every node, caches included', async () => {
    const dave = await createUser(server)
    const { id, token } = await tokenFor(dave, ['read'])
    // Warm both nodes' caches.
    expect((await asToken(token).get('/api/account/profile')).status).toBe(200)
    expect((await asToken(token, other.url).get('/api/account/profile')).status).toBe(200)
    const foreign = await createUser(server)
    expect((await foreign.client.delete(`/api/account/tokens/${id}`)).body).toEqual({ title: '令牌未找到', status: 404 })
    expect((await asToken(token).get('/api/account/profile')).status).toBe(200)

    expect((await dave.client.delete(`/api/account/tokens/${id}`)).status).toBe(200)
    expect((await asToken(token).get('/api/account/profile')).status).toBe(401)
    await expect.poll(async () => (await asToken(token, other.url).get('/api/account/profile')).status, { timeout: 3000, interval: 25 }).toBe(401)
    const listed = await dave.client.get('/api/account/tokens')
    expect(listed.body[0]).toMatchObject({ id, revoked: true })
  })

  it('re-checks the owner on every use: a role downgrade narrows the token, a ban ends it', async () => {
    const eve = await createUser(server, { role: 'Admin' })
    const { token } = await tokenFor(eve, ['admin'])
    expect((await asToken(token).get('/api/admin/users?count=5&skip=0')).status).toBe(200)
    const update = (role: string) => admin.put(`/api/admin/users/${eve.user.id}`, { role })
    expect((await update('User')).status).toBe(200)
    expect((await asToken(token).get('/api/admin/users?count=5&skip=0')).body).toEqual({ title: '无权访问', status: 403 })
    // What the User role allows, the admin scope still reaches (read and write alike).
    expect((await asToken(token).get('/api/account/profile')).status).toBe(200)
    expect((await update('Admin')).status).toBe(200)
    expect((await asToken(token).get('/api/admin/users?count=5&skip=0')).status).toBe(200)
    expect((await update('Banned')).status).toBe(200)
    expect((await asToken(token).get('/api/account/profile')).body).toEqual({ title: '令牌无效或已过期', status: 401 })
  })

  it('needs no XSRF token: a token request carries no cookie a foreign page could ride on', async () => {
    const frank = await createUser(server)
    const { token } = await tokenFor(frank, ['admin', 'read'].slice(1))
    const res = await new ApiClient(server.url).request('PUT', '/api/account/update', {
      json: { bio: 'x' },
      headers: { ...bearer(token), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'x-xsrf-token': 'wrong' },
    })
    // Refused by its scope (read), not as a cross-site request.
    expect(res.body).toEqual({ title: '令牌权限不足', status: 403, requiredScope: 'admin' })
  })
})

describe('GZ::CTF 1.5 admin tokens', () => {
  it('creates, verifies, revokes, restores and deletes tokens of the GZ::CTF format', async () => {
    const created = await admin.post('/api/tokens', { name: 'bot', expiresIn: 30 })
    expect(created.status, created.text).toBe(200)
    expect(created.body).toMatchObject({ name: 'bot', isRevoked: false, lastUsedAt: null })
    const token: string = created.body.token
    const [payload, signature] = token.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    expect(claims.jti).toBe(created.body.id)
    expect(typeof claims.iat).toBe('number')
    expect(claims.exp).toBeGreaterThan(claims.iat)
    expect(Buffer.from(signature!, 'base64url')).toHaveLength(64)

    expect((await asToken(token).get('/api/admin/users?count=5&skip=0')).status).toBe(200)
    const list = await admin.get('/api/tokens')
    expect(list.body.find((t: { id: string }) => t.id === created.body.id)).toMatchObject({ creatorName: 'Admin', isRevoked: false })

    // A changed payload or a foreign key's signature does not verify.
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString('base64url')
    expect((await asToken(`${longer}.${signature}`).get('/api/account/profile')).status).toBe(401)
    const foreign = generateKeyPairSync('ed25519').privateKey
    expect((await asToken(`${payload}.${sign(null, Buffer.from(payload!), foreign).toString('base64url')}`).get('/api/account/profile')).status).toBe(401)

    expect((await admin.delete(`/api/tokens/${created.body.id}`)).status).toBe(200)
    expect((await asToken(token).get('/api/account/profile')).status).toBe(401)
    expect((await admin.post(`/api/tokens/${created.body.id}/restore`)).status).toBe(200)
    expect((await asToken(token).get('/api/account/profile')).status).toBe(200)
    expect((await admin.delete(`/api/tokens/${created.body.id}?delete=true`)).status).toBe(200)
    expect((await asToken(token).get('/api/account/profile')).status).toBe(401)
    expect((await admin.post(`/api/tokens/${created.body.id}/restore`)).body).toEqual({ title: '令牌未找到', status: 404 })
  })

  it('honours the exp of the signed payload and is refused to non-admins', async () => {
    const created = await admin.post('/api/tokens', { name: 'short' })
    expect(created.body.expiresAt).toBeNull()
    expect(JSON.parse(Buffer.from(created.body.token.split('.')[0], 'base64url').toString())).not.toHaveProperty('exp')
    const user = await createUser(server)
    expect((await user.client.get('/api/tokens')).body).toEqual({ title: '无权访问', status: 403 })
    expect((await user.client.post('/api/tokens', { name: 'x' })).body).toEqual({ title: '无权访问', status: 403 })
    expect((await admin.post('/api/tokens', { name: 'x', expiresIn: -1 })).body).toEqual({ title: '有效期无效', status: 400 })
  })
})
