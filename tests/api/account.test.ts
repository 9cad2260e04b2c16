/**
 * Group `account` (docs/compatibility.md#group-account): every endpoint's success shape, its validation and Identity
 * messages (with nothing changed in the database), authorization (401 before 400, 403 for
 * banned users), the three registration outcomes, the e-mail link flows, sessions and cookies,
 * captcha, mail failures and the Register rate limit.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import argon2 from 'argon2'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MailChangeResponse, ProfileUserInfoModel, RegisterResponse } from '@flagwave/shared/schemas/account'
import { RequestResponse } from '@flagwave/shared/schemas/common'
import { User } from '../../server/src/entities/User.js'
import { tags } from '../../server/src/cache/invalidation.js'
import { Session } from '../../server/src/entities/Session.js'
import { LogEntry } from '../../server/src/entities/LogEntry.js'
import { DEFAULT_SETTINGS, type AccountPolicy } from '../../server/src/domain/config/settings.js'
import { decodeToken, encodeToken, generateToken, TOKEN_LIFETIME_MS } from '../../server/src/domain/accounts/tokens.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, DEFAULT_PASSWORD } from '../support/factories/users.js'
import type { ApiClient, ApiResponse } from '../support/client.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: PUBLIC_URL } })
})
afterAll(async () => {
  await server?.close()
})
beforeEach(async () => {
  await setPolicy(server, {})
})

// ---------------------------------------------------------------------------------------------
// helpers

const em = (s: TestServer = server) => s.services.orm.em.fork()
const reload = (id: string, s: TestServer = server) => em(s).findOneOrFail(User, { id })
const userByEmail = (email: string, s: TestServer = server) => em(s).findOne(User, { normalizedEmail: email.toUpperCase() })
const countUsers = (s: TestServer = server) => em(s).count(User, {})
const uniq = (prefix = 'r') => `${prefix}${randomBytes(4).toString('hex')}`
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
const STRONG = 'Str0ngPass'
/** Links in mails start here, whatever the request's Host says. */
const PUBLIC_URL = 'https://ctf.example.org'

async function setPolicy(s: TestServer, policy: Partial<AccountPolicy>): Promise<void> {
  await s.services.settings.update(em(s), { accountPolicy: { ...DEFAULT_SETTINGS.accountPolicy, ...policy } })
}

function expectError(res: ApiResponse, status: number, title: string, bodyStatus = status): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })
}

function expectEmpty(res: ApiResponse): void {
  expect(res.status).toBe(200)
  expect(res.text).toBe('')
}

/** The Set-Cookie line for the session cookie, if the response has one. */
const sessionSetCookie = (res: ApiResponse): string | undefined => res.headers.getSetCookie().find((c) => c.startsWith('GZCTF_Token='))

function expectSessionIssued(res: ApiResponse): void {
  const line = sessionSetCookie(res)
  expect(line).toBeDefined()
  expect(line).toMatch(/^GZCTF_Token=[^;]+;/)
  expect(line!.toLowerCase()).toContain('httponly')
  expect(line!.toLowerCase()).toContain('samesite=lax')
  expect(line!.toLowerCase()).toContain('path=/')
  const expires = Date.parse(/expires=([^;]+)/i.exec(line!)![1])
  expect(Math.abs(expires - (Date.now() + 7 * 24 * 3600_000))).toBeLessThan(60_000)
  // The client's readable marker: same path and lifetime, not HttpOnly, no secret in it.
  const marker = markerSetCookie(res)
  expect(marker).toMatch(/^Flagwave\.SignedIn=1;/)
  expect(marker!.toLowerCase()).not.toContain('httponly')
  expect(marker!.toLowerCase()).toContain('path=/')
  expect(Date.parse(/expires=([^;]+)/i.exec(marker!)![1])).toBe(expires)
}

const markerSetCookie = (res: ApiResponse): string | undefined => res.headers.getSetCookie().find((c) => c.startsWith('Flagwave.SignedIn='))

function expectSessionCleared(res: ApiResponse): void {
  const line = sessionSetCookie(res)
  expect(line).toBeDefined()
  expect(line).toMatch(/^GZCTF_Token=;/)
  expect(line).toMatch(/expires=Thu, 01 Jan 1970/i)
  expect(markerSetCookie(res)).toMatch(/^Flagwave\.SignedIn=;.*expires=Thu, 01 Jan 1970/i)
}

/** The last account mail sent to `to`, with its link's parts exactly as written. */
function mailLink(to: string, page: 'verify' | 'reset' | 'confirm', s: TestServer = server) {
  const mail = [...s.services.mailer.recent].reverse().find((m) => m.to === to)
  expect(mail, `a mail to ${to}`).toBeDefined()
  const match = new RegExp(`(https?://[^/\\s]+)/account/${page}\\?token=([^&\\s]+)&email=([^&\\s]+)`).exec(mail!.text)
  expect(match, `a /account/${page} link in ${mail!.text}`).not.toBeNull()
  return { origin: match![1], token: match![2], email: match![3], subject: mail!.subject }
}

const mailsTo = (to: string, s: TestServer = server) => s.services.mailer.recent.filter((m) => m.to === to).length

async function auditMessages(userName: string): Promise<string[]> {
  const rows = await em().find(LogEntry, { userName }, { orderBy: { id: 'asc' } })
  return rows.map((r) => r.message)
}

const profileFields = (u: User) => ({
  userName: u.userName,
  normalizedUserName: u.normalizedUserName,
  email: u.email,
  bio: u.bio,
  phone: u.phone,
  realName: u.realName,
  stdNumber: u.stdNumber,
  passwordHash: u.passwordHash,
  securityStamp: u.securityStamp,
})

async function register(client: ApiClient, body: Record<string, unknown>) {
  return client.post('/api/account/register', body)
}

// ---------------------------------------------------------------------------------------------

describe('POST /api/account/register', () => {
  it('activates and signs in when activeOnRegister is on', async () => {
    const client = server.client()
    const userName = uniq()
    const res = await register(client, { userName, password: STRONG, email: `${userName}@example.com` })
    expect(res.status).toBe(200)
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功', data: 'LoggedIn', status: 200 })
    expectSessionIssued(res)

    const profile = await client.get('/api/account/profile')
    expect(profile.status).toBe(200)
    expect(profile.body).toMatchObject({ userName, email: `${userName}@example.com`, role: 'User' })

    const row = (await userByEmail(`${userName}@example.com`))!
    expect(row).toMatchObject({ emailConfirmed: true, role: 'User', normalizedUserName: userName.toUpperCase(), ip: '127.0.0.1' })
    expect(Date.now() - row.lastVisited.getTime()).toBeLessThan(60_000)
    expect(row.registerTime.getTime()).toBe(0)
    expect(row.passwordHash).not.toContain(STRONG)
    expect(await auditMessages(userName)).toContain('用户成功注册')

    // Later visits are written in batches (domain/accounts/visits.ts): the statement lands on the user's row.
    const later = new Date(Date.now() + 60_000)
    server.services.visits.record(row.id, later, '10.9.8.7')
    await server.services.visits.flush()
    const visited = (await userByEmail(`${userName}@example.com`))!
    expect([visited.lastVisited.getTime(), visited.ip]).toEqual([later.getTime(), '10.9.8.7'])
  })

  it('waits for an admin when neither activation nor e-mail confirmation is on', async () => {
    await setPolicy(server, { activeOnRegister: false, emailConfirmationRequired: false })
    const client = server.client()
    const userName = uniq()
    const email = `${userName}@example.com`
    const res = await register(client, { userName, password: STRONG, email })
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功，等待管理员审核', data: 'AdminConfirmationRequired', status: 200 })
    expect(sessionSetCookie(res)).toBeUndefined()
    expect((await userByEmail(email))!.emailConfirmed).toBe(false)
    expect(mailsTo(email)).toBe(0)
    // Unconfirmed accounts cannot sign in, with the generic message.
    expectError(await server.client().post('/api/account/login', { userName, password: STRONG }), 401, '用户名或密码错误')
  })

  it('mails a verification link when e-mail confirmation is required; the link confirms and signs in', async () => {
    await setPolicy(server, { activeOnRegister: false, emailConfirmationRequired: true })
    const userName = uniq()
    const email = `${userName}@example.com`
    const res = await register(server.client(), { userName, password: STRONG, email })
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功，等待邮箱验证', data: 'EmailConfirmationRequired', status: 200 })
    expect(sessionSetCookie(res)).toBeUndefined()

    const link = mailLink(email, 'verify')
    expect(link.origin).toBe(PUBLIC_URL)
    expect(link.email).toBe(b64(email))
    expect(link.token).toMatch(/^[A-Za-z0-9+/]+=*$/)

    // A wrong token is refused with 401 and changes nothing.
    const browser = server.client()
    expectError(await browser.post('/api/account/verify', { token: b64('nonsense'), email: link.email }), 401, '邮箱验证失败')
    expect((await userByEmail(email))!.emailConfirmed).toBe(false)

    const verified = await browser.post('/api/account/verify', { token: link.token, email: link.email })
    expectEmpty(verified)
    expectSessionIssued(verified)
    expect((await browser.get('/api/account/profile')).status).toBe(200)
    const row = (await userByEmail(email))!
    expect(row.emailConfirmed).toBe(true)
    expect(Date.now() - row.registerTime.getTime()).toBeLessThan(60_000)
    expect(Date.now() - row.lastSignIn.getTime()).toBeLessThan(60_000)

    // A confirmed account cannot be verified again.
    expectError(await server.client().post('/api/account/verify', { token: link.token, email: link.email }), 400, '无效的邮件地址')
    expect(await auditMessages(userName)).toEqual(expect.arrayContaining(['发送用户邮箱验证邮件', '通过邮箱验证']))
  })

  it('verify: unknown address, undecodable Base64 and missing members', async () => {
    const client = server.client()
    expectError(await client.post('/api/account/verify', { token: 'AAAA', email: b64('nobody@example.com') }), 400, '无效的邮件地址')
    expectError(await client.post('/api/account/verify', { token: 'AAAA', email: '%%%not base64' }), 400, '无效的邮件地址')
    expectError(await client.post('/api/account/verify', { email: 'AAAA' }), 400, 'Token是必需的')
    expectError(await client.post('/api/account/verify', { token: 'AAAA', email: '' }), 400, '邮箱是必需的')
  })

  it('registering an unconfirmed account’s e-mail again replaces its name and password and re-sends the mail (docs/compatibility.md#registering-a-pending-e-mail-again)', async () => {
    await setPolicy(server, { activeOnRegister: false, emailConfirmationRequired: true })
    const userName = uniq()
    const email = `${userName}@example.com`
    await register(server.client(), { userName, password: STRONG, email })
    const first = mailLink(email, 'verify')
    const before = (await userByEmail(email))!
    const users = await countUsers()

    const newName = uniq()
    const again = await register(server.client(), { userName: newName, password: 'Other0Pass', email })
    expect(RegisterResponse.parse(again.body)).toEqual({ title: '注册成功，等待邮箱验证', data: 'EmailConfirmationRequired', status: 200 })
    expect(mailsTo(email)).toBe(2)
    expect(await countUsers()).toBe(users)
    const after = (await userByEmail(email))!
    expect(after.id).toBe(before.id)
    expect(after.userName).toBe(newName)
    expect(after.passwordHash).not.toBe(before.passwordHash)
    expect(after.securityStamp).not.toBe(before.securityStamp)
    // The first link died with the old stamp; the new one confirms the new credentials.
    expectError(await server.client().post('/api/account/verify', { token: first.token, email: first.email }), 401, '邮箱验证失败')
    const second = mailLink(email, 'verify')
    expectEmpty(await server.client().post('/api/account/verify', { token: second.token, email: second.email }))
    expect((await server.client().post('/api/account/login', { userName: newName, password: 'Other0Pass' })).status).toBe(200)
    expectError(await server.client().post('/api/account/login', { userName: email, password: STRONG }), 401, '用户名或密码错误')
  })

  it('with activeOnRegister, registering an unconfirmed account again signs it in only with its own password', async () => {
    await setPolicy(server, { activeOnRegister: false, emailConfirmationRequired: false })
    const userName = uniq()
    const email = `${userName}@example.com`
    await register(server.client(), { userName, password: STRONG, email })
    await setPolicy(server, { activeOnRegister: true })

    const stranger = await register(server.client(), { userName: uniq(), password: 'Other0Pass', email })
    expectError(stranger, 400, `邮箱地址 ${email} 已存在`)
    expect((await userByEmail(email))!).toMatchObject({ emailConfirmed: false, userName })

    const owner = server.client()
    const newName = uniq()
    const res = await register(owner, { userName: newName, password: STRONG, email })
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功', data: 'LoggedIn', status: 200 })
    expect((await owner.get('/api/account/profile')).body).toMatchObject({ userName: newName, email })
    expect((await userByEmail(email))!.emailConfirmed).toBe(true)
  })

  it('refuses a confirmed account’s e-mail and a taken user name (case-insensitively)', async () => {
    const { user } = await createUser(server)
    const users = await countUsers()
    expectError(await register(server.client(), { userName: uniq(), password: STRONG, email: user.email.toUpperCase() }), 400, '此账户已存在')
    expectError(
      await register(server.client(), { userName: user.userName.toUpperCase(), password: STRONG, email: `${uniq()}@example.com` }),
      400,
      `用户名 ${user.userName.toUpperCase()} 已存在`,
    )
    expect(await countUsers()).toBe(users)
  })

  it.each([
    [{ password: STRONG, email: 'a@b.c' }, '用户名是必需的'],
    [{ userName: '', password: STRONG, email: 'a@b.c' }, '用户名是必需的'],
    [{ userName: 'ab', password: STRONG, email: 'a@b.c' }, '用户名过短'],
    [{ userName: 'abcdefghijklmnop', password: STRONG, email: 'a@b.c' }, '用户名过长'],
    [{ userName: 'valid1', email: 'a@b.c' }, '密码是必需的'],
    [{ userName: 'valid1', password: 'Ab1', email: 'a@b.c' }, "The field Password must be a string or array type with a minimum length of '6'."],
    [{ userName: 'valid1', password: STRONG }, '邮箱是必需的'],
    [{ userName: 'valid1', password: STRONG, email: 'not-an-email' }, '邮箱地址无效'],
    [{ userName: 'valid1', password: STRONG, email: 'a@b@c' }, '邮箱地址无效'],
    [{ userName: 'valid1', password: STRONG, email: `${'a'.repeat(260)}@b.c` }, '邮箱地址无效'],
    [{ userName: 'valid1', password: 123456, email: 'a@b.c' }, 'The JSON value could not be converted to System.String.'],
  ])('validation: %j → %s', async (body, title) => {
    const users = await countUsers()
    expectError(await register(server.client(), body), 400, title)
    expect(await countUsers()).toBe(users)
  })

  it.each([
    ['张三丰', STRONG, '用户名 张三丰 无效'],
    ['has space', STRONG, '用户名 has space 无效'],
    ['fine.name', 'abcdef', '密码中需要数字'],
    ['fine.name', 'abc123', '密码中需要大写字母'],
    ['fine.name', 'ABC123', '密码中需要小写字母'],
    // The password policy is checked before the user name (Identity's CreateAsync).
    ['张三丰', 'abcdef', '密码中需要数字'],
  ])('Identity rules: %s / %s → %s', async (userName, password, title) => {
    const email = `${uniq()}@example.com`
    expectError(await register(server.client(), { userName, password, email }), 400, title)
    expect(await userByEmail(email)).toBeNull()
  })

  it('accepts the whole user-name charset A-Z a-z 0-9 - . _ @ +', async () => {
    const res = await register(server.client(), { userName: 'aZ0-._@+', password: STRONG, email: `${uniq()}@example.com` })
    expect(RegisterResponse.parse(res.body).data).toBe('LoggedIn')
  })

  it('answers 注册功能已禁用 when registration is off', async () => {
    await setPolicy(server, { allowRegister: false })
    const email = `${uniq()}@example.com`
    expectError(await register(server.client(), { userName: uniq(), password: STRONG, email }), 400, '注册功能已禁用')
    expect(await userByEmail(email)).toBeNull()
  })

  it('checks the e-mail domain list exactly (case-sensitive, no trimming)', async () => {
    await setPolicy(server, { emailDomainList: 'example.com,ctf.org' })
    const title = '可用邮箱后缀：example.com,ctf.org'
    for (const domain of ['gmail.com', 'EXAMPLE.com', 'sub.example.com']) {
      const email = `${uniq()}@${domain}`
      expectError(await register(server.client(), { userName: uniq(), password: STRONG, email }), 400, title)
      expect(await userByEmail(email)).toBeNull()
    }
    const ok = await register(server.client(), { userName: uniq(), password: STRONG, email: `${uniq()}@ctf.org` })
    expect(ok.status).toBe(200)
  })
})

describe('POST /api/account/login', () => {
  it('signs in by user name or e-mail, case-insensitively, and records the sign-in', async () => {
    const { user, password } = await createUser(server, { userName: uniq('Mixed') })
    for (const name of [user.userName, user.userName.toLowerCase(), user.email, user.email.toUpperCase()]) {
      const client = server.client()
      const res = await client.post('/api/account/login', { userName: name, password })
      expectEmpty(res)
      expectSessionIssued(res)
      expect((await client.get('/api/account/profile')).body.userId).toBe(user.id)
    }
    const row = await reload(user.id)
    expect(Date.now() - row.lastSignIn.getTime()).toBeLessThan(60_000)
    expect(await auditMessages(user.userName)).toContain('用户成功登录')
  })

  it('answers the generic message for unknown names, wrong passwords and unconfirmed accounts', async () => {
    const { user } = await createUser(server)
    const unconfirmed = await createUser(server, { emailConfirmed: false })
    const client = server.client()
    expectError(await client.post('/api/account/login', { userName: 'nobody-here', password: STRONG }), 401, '用户名或密码错误')
    expectError(await client.post('/api/account/login', { userName: user.userName, password: 'Wr0ngPass' }), 401, '用户名或密码错误')
    expectError(await client.post('/api/account/login', { userName: unconfirmed.user.userName, password: DEFAULT_PASSWORD }), 401, '用户名或密码错误')
    expect(client.cookies.has('GZCTF_Token')).toBe(false)
    expect((await auditMessages(user.userName)).some((m) => m.startsWith('用户登录失败'))).toBe(true)
  })

  it('tells banned users they are banned', async () => {
    const { user, password } = await createUser(server, { role: 'Banned' })
    expectError(await server.client().post('/api/account/login', { userName: user.userName, password }), 401, '用户已被禁用')
  })

  it('ends the previous session first, even when the new attempt fails', async () => {
    const { client, user } = await createUser(server)
    const oldCookie = client.cookieHeader
    const res = await client.post('/api/account/login', { userName: user.userName, password: 'Wr0ngPass' })
    expectError(res, 401, '用户名或密码错误')
    expectSessionCleared(res)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('Identity.External=;'))).toBe(true)
    expectError(await server.client().get('/api/account/profile', { cookie: oldCookie }), 401, '请先登录')
    expect(await em().count(Session, { user: user.id })).toBe(0)
  })

  it.each([
    [{ password: STRONG }, 'The UserName field is required.'],
    [{ userName: 'someone' }, 'The Password field is required.'],
    [{ userName: 'someone', password: 'short' }, '密码过短'],
  ])('validation: %j → %s', async (body, title) => {
    expectError(await server.client().post('/api/account/login', body), 400, title)
  })

  it('answers 415 ProblemDetails for a non-JSON body and 400 for an empty one', async () => {
    const client = server.client()
    const res = await client.request('POST', '/api/account/login', { body: 'userName=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({ title: 'Unsupported Media Type', status: 415 })
    const empty = await client.request('POST', '/api/account/login', { body: '', headers: { 'content-type': 'application/json' } })
    expectError(empty, 400, 'A non-empty request body is required.')
  })

  it('matches member names case-insensitively', async () => {
    const { user, password } = await createUser(server)
    expectEmpty(await server.client().post('/api/account/login', { USERNAME: user.userName, Password: password }))
  })

  it('replaces a hash stored with older argon2 parameters at the next sign-in, and keeps the session working', async () => {
    const { user, password } = await createUser(server)
    const legacy = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 65536, timeCost: 3, parallelism: 4 })
    await em().nativeUpdate(User, { id: user.id }, { passwordHash: legacy })
    server.services.readCache.invalidate([tags.user(user.id)])
    const client = server.client()
    expectEmpty(await client.post('/api/account/login', { userName: user.userName, password }))
    const upgraded = (await reload(user.id)).passwordHash
    expect(upgraded).not.toBe(legacy)
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/)
    expect(await argon2.verify(upgraded, password)).toBe(true)
    expect((await client.get('/api/account/profile')).status).toBe(200)
    expectEmpty(await server.client().post('/api/account/login', { userName: user.userName, password }))
  })

  it('answers a burst of sign-ins, each in turn, without refusing or dropping one', async () => {
    const users = await Promise.all(Array.from({ length: 24 }, () => createUser(server)))
    const results = await Promise.all(users.map(({ user, password }) => server.client().post('/api/account/login', { userName: user.userName, password })))
    expect(results.map((r) => r.status)).toEqual(users.map(() => 200))
  })
})

describe('POST /api/account/logout', () => {
  it('ends the session on the server and expires the cookie', async () => {
    const { client, user } = await createUser(server)
    const cookie = client.cookieHeader
    const res = await client.post('/api/account/logout')
    expectEmpty(res)
    expectSessionCleared(res)
    expect(client.cookies.has('GZCTF_Token')).toBe(false)
    // The old cookie no longer works anywhere, and a request still carrying it is told to drop it and its marker.
    const stale = await server.client().get('/api/account/profile', { cookie })
    expectError(stale, 401, '请先登录')
    expectSessionCleared(stale)
    expect(await em().count(Session, { user: user.id })).toBe(0)
    expect(await auditMessages(user.userName)).toContain('用户登出')
  })

  it('answers 401 anonymous and 403 banned', async () => {
    expectError(await server.client().post('/api/account/logout'), 401, '请先登录')
    const { client } = await createUser(server, { role: 'Banned' })
    expectError(await client.post('/api/account/logout'), 403, '无权访问')
  })
})

describe('GET /api/account/profile', () => {
  it('answers the caller’s ProfileUserInfoModel', async () => {
    const { client, user } = await createUser(server, { realName: '张三', stdNumber: '2023001', phone: '13800000000', bio: 'hi' })
    const res = await client.get('/api/account/profile')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/)
    expect(ProfileUserInfoModel.strict().parse(res.body)).toEqual({
      userId: user.id,
      userName: user.userName,
      email: user.email,
      bio: 'hi',
      phone: '13800000000',
      realName: '张三',
      stdNumber: '2023001',
      avatar: null,
      role: 'User',
    })
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  it('answers 401 anonymous and 403 banned', async () => {
    expectError(await server.client().get('/api/account/profile'), 401, '请先登录')
    const { client } = await createUser(server, { role: 'Banned' })
    expectError(await client.get('/api/account/profile'), 403, '无权访问')
  })
})

describe('PUT /api/account/update', () => {
  it('updates the given members and keeps the others', async () => {
    const { client, user } = await createUser(server, { bio: 'old bio', realName: '李四' })
    const newName = uniq('N')
    expectEmpty(await client.put('/api/account/update', { userName: newName, bio: 'new bio', phone: '+86 138-0000-0000', stdNumber: 'S001', realName: null }))
    const profile = (await client.get('/api/account/profile')).body
    expect(profile).toMatchObject({ userName: newName, bio: 'new bio', phone: '+86 138-0000-0000', stdNumber: 'S001', realName: '李四' })
    const row = await reload(user.id)
    expect(row.normalizedUserName).toBe(newName.toUpperCase())
    // Renamed: the old name no longer signs in, the new one does.
    expectError(await server.client().post('/api/account/login', { userName: user.userName, password: DEFAULT_PASSWORD }), 401, '用户名或密码错误')
    expectEmpty(await server.client().post('/api/account/login', { userName: newName, password: DEFAULT_PASSWORD }))
    expect(await auditMessages(newName)).toContain(`用户更新：${user.userName} => ${newName}`)

    expectEmpty(await client.put('/api/account/update', {}))
    expect((await client.get('/api/account/profile')).body).toEqual(profile)
  })

  it('allows changing only the letter case of one’s own name', async () => {
    const { client, user } = await createUser(server, { userName: uniq('case') })
    expectEmpty(await client.put('/api/account/update', { userName: user.userName.toUpperCase() }))
    expect((await reload(user.id)).userName).toBe(user.userName.toUpperCase())
  })

  it.each([
    [{ userName: 'ab' }, '用户名过短'],
    [{ userName: 'a'.repeat(16) }, '用户名过长'],
    [{ bio: 'x'.repeat(56) }, '描述过长'],
    [{ phone: 'call me' }, '手机号格式错误'],
    [{ phone: '' }, '手机号格式错误'],
    [{ phone: '1'.repeat(65) }, '手机号格式错误'],
    [{ realName: '一二三四五六七八' }, '真实姓名过长'],
    [{ stdNumber: '1'.repeat(25) }, '学工号过长'],
    [{ userName: '名字不行' }, '用户名 名字不行 无效'],
  ])('validation: %j → %s (nothing changed)', async (body, title) => {
    const { client, user } = await createUser(server, { bio: 'keep' })
    const before = await reload(user.id)
    expectError(await client.put('/api/account/update', body), 400, title)
    expect(profileFields(await reload(user.id))).toEqual(profileFields(before))
  })

  it('refuses a user name taken by someone else', async () => {
    const other = await createUser(server)
    const { client, user } = await createUser(server)
    expectError(await client.put('/api/account/update', { userName: other.user.userName.toLowerCase(), bio: 'changed' }), 400, `用户名 ${other.user.userName.toLowerCase()} 已存在`)
    expect((await reload(user.id)).bio).toBe('')
  })

  it('answers 401 before validating the body, and 403 for banned users', async () => {
    expectError(await server.client().put('/api/account/update', { userName: 'x' }), 401, '请先登录')
    const { client } = await createUser(server, { role: 'Banned' })
    expectError(await client.put('/api/account/update', { userName: 'x' }), 403, '无权访问')
  })
})

describe('PUT /api/account/changepassword', () => {
  it('changes the password, keeps the caller signed in and ends the other sessions', async () => {
    const { client, user, password } = await createUser(server)
    const elsewhere = server.client()
    await elsewhere.login(user.userName, password)
    const oldCookie = client.cookieHeader

    const res = await client.put('/api/account/changepassword', { old: password, new: 'N3wPassword' })
    expectEmpty(res)
    expectSessionIssued(res)
    expect((await client.get('/api/account/profile')).status).toBe(200)
    expectError(await elsewhere.get('/api/account/profile'), 401, '请先登录')
    expectError(await server.client().get('/api/account/profile', { cookie: oldCookie }), 401, '请先登录')
    expect(await em().count(Session, { user: user.id })).toBe(1)

    expectError(await server.client().post('/api/account/login', { userName: user.userName, password }), 401, '用户名或密码错误')
    expectEmpty(await server.client().post('/api/account/login', { userName: user.userName, password: 'N3wPassword' }))
    expect(await auditMessages(user.userName)).toContain('用户更新密码')
  })

  it.each([
    [{ new: 'N3wPassword' }, '旧密码是必需的'],
    [{ old: 'short', new: 'N3wPassword' }, '旧密码过短'],
    [{ old: DEFAULT_PASSWORD }, '新密码是必需的'],
    [{ old: DEFAULT_PASSWORD, new: 'short' }, '新密码过短'],
    [{ old: 'Wr0ngPassword', new: 'N3wPassword' }, '密码输入错误'],
    [{ old: DEFAULT_PASSWORD, new: 'nouppercase1' }, '密码中需要大写字母'],
    [{ old: DEFAULT_PASSWORD, new: 'NoDigitsHere' }, '密码中需要数字'],
  ])('%j → %s (nothing changed)', async (body, title) => {
    const { client, user } = await createUser(server)
    const before = await reload(user.id)
    expectError(await client.put('/api/account/changepassword', body), 400, title)
    const after = await reload(user.id)
    expect([after.passwordHash, after.securityStamp]).toEqual([before.passwordHash, before.securityStamp])
    expect((await client.get('/api/account/profile')).status).toBe(200)
  })

  it('answers 401 before validating the body, and 403 for banned users', async () => {
    expectError(await server.client().put('/api/account/changepassword', {}), 401, '请先登录')
    const { client } = await createUser(server, { role: 'Banned' })
    expectError(await client.put('/api/account/changepassword', {}), 403, '无权访问')
  })
})

describe('POST /api/account/recovery and /passwordreset', () => {
  it('mails a reset link; the link resets the password once and ends every session', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { client, user } = await createUser(server)
    const res = await server.client().post('/api/account/recovery', { email: user.email.toUpperCase() })
    expect(res.status).toBe(200)
    expect(RequestResponse.strict().parse(res.body)).toEqual({ title: '邮件发送成功', status: 200 })
    const link = mailLink(user.email, 'reset')
    expect(link.email).toBe(b64(user.email.toUpperCase()))

    const browser = server.client()
    expectEmpty(await browser.post('/api/account/passwordreset', { password: 'Res3tPassword', email: link.email, rToken: link.token }))
    expect(sessionSetCookie(await browser.get('/api/account/profile'))).toBeUndefined()
    expectError(await client.get('/api/account/profile'), 401, '请先登录')
    expectEmpty(await server.client().post('/api/account/login', { userName: user.userName, password: 'Res3tPassword' }))
    // The token is spent: the new security stamp voided it.
    expectError(await browser.post('/api/account/passwordreset', { password: 'Again0Password', email: link.email, rToken: link.token }), 400, '验证码无效')
    expect(await auditMessages(user.userName)).toEqual(expect.arrayContaining(['发送用户密码重置邮件', '用户成功重置密码']))
  })

  it('checks the token before the password policy, and changes nothing on errors', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { user } = await createUser(server)
    await server.client().post('/api/account/recovery', { email: user.email })
    const link = mailLink(user.email, 'reset')
    const before = await reload(user.id)
    const client = server.client()
    expectError(await client.post('/api/account/passwordreset', { password: 'weakpassword', email: link.email, rToken: b64('forged') }), 400, '验证码无效')
    expectError(await client.post('/api/account/passwordreset', { password: 'weakpassword', email: link.email, rToken: link.token }), 400, '密码中需要数字')
    expectError(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: b64('nobody@example.com'), rToken: link.token }), 400, '无效的邮件地址')
    expectError(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: '***', rToken: link.token }), 400, '无效的邮件地址')
    // A reset token is bound to its account: another user's address does not take it.
    const other = await createUser(server)
    expectError(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: b64(other.user.email), rToken: link.token }), 400, '验证码无效')
    expect((await reload(user.id)).passwordHash).toBe(before.passwordHash)
    expect((await reload(other.user.id)).passwordHash).toBe(other.user.passwordHash)
  })

  it('refuses tokens older than 3 hours and tokens of another purpose', async () => {
    const { user } = await createUser(server)
    const row = await reload(user.id)
    const client = server.client()
    const expired = await generateToken(em(), 'ResetPassword', row, row.email, Date.now() - TOKEN_LIFETIME_MS - 1000)
    expectError(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: b64(row.email), rToken: encodeToken(expired) }), 400, '验证码无效')
    const verification = await generateToken(em(), 'EmailConfirmation', row, row.email)
    expectError(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: b64(row.email), rToken: encodeToken(verification) }), 400, '验证码无效')
    const fresh = await generateToken(em(), 'ResetPassword', row, row.email, Date.now() - TOKEN_LIFETIME_MS + 60_000)
    expectEmpty(await client.post('/api/account/passwordreset', { password: 'G00dPassword', email: b64(row.email), rToken: encodeToken(fresh) }))
  })

  it('a password change voids outstanding reset links', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { client, user, password } = await createUser(server)
    await server.client().post('/api/account/recovery', { email: user.email })
    const link = mailLink(user.email, 'reset')
    expectEmpty(await client.put('/api/account/changepassword', { old: password, new: 'Chang3dPassword' }))
    expectError(await server.client().post('/api/account/passwordreset', { password: 'G00dPassword', email: link.email, rToken: link.token }), 400, '验证码无效')
  })

  it('reads a token whose + signs became spaces (URLSearchParams) as the same token', () => {
    const raw = Buffer.from([0xfb, 0xef, 0xbe, 0xfb, 0xff])
    expect(encodeToken(raw)).toContain('+')
    expect(decodeToken(encodeToken(raw).replace(/\+/g, ' '))).toEqual(raw)
  })

  it('recovery errors: unknown, unconfirmed, policy', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const client = server.client()
    expectError(await client.post('/api/account/recovery', { email: 'nobody@example.com' }), 404, '用户不存在')
    const unconfirmed = await createUser(server, { emailConfirmed: false })
    expectError(await client.post('/api/account/recovery', { email: unconfirmed.user.email }), 404, '账户未激活，请重新注册')
    await setPolicy(server, { emailConfirmationRequired: false })
    const { user } = await createUser(server)
    expectError(await client.post('/api/account/recovery', { email: user.email }), 400, '请联系管理员重置密码')
    expect(mailsTo(user.email)).toBe(0)
  })

  it.each([
    ['/api/account/recovery', {}, '邮箱是必需的'],
    ['/api/account/recovery', { email: 'nope' }, '邮箱地址无效'],
    ['/api/account/passwordreset', { email: 'x', rToken: 'y' }, '密码是必需的'],
    ['/api/account/passwordreset', { password: 'short', email: 'x', rToken: 'y' }, '密码过短'],
    ['/api/account/passwordreset', { password: 'G00dPassword', rToken: 'y' }, '邮箱是必需的'],
    ['/api/account/passwordreset', { password: 'G00dPassword', email: 'x' }, 'Token是必需的'],
  ])('%s validation: %j → %s', async (path, body, title) => {
    expectError(await server.client().post(path, body), 400, title)
  })
})

describe('PUT /api/account/changeemail and POST /api/account/mailchangeconfirm', () => {
  it('mails a link to the new address; confirming replaces the address and keeps the caller signed in', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { client, user, password } = await createUser(server)
    const elsewhere = server.client()
    await elsewhere.login(user.userName, password)
    const newMail = `${uniq('new')}@example.org`

    const res = await client.put('/api/account/changeemail', { newMail })
    expect(res.status).toBe(200)
    expect(MailChangeResponse.strict().parse(res.body)).toEqual({ title: '邮箱待验证', data: true, status: 200 })
    expect((await reload(user.id)).email).toBe(user.email)
    const link = mailLink(newMail, 'confirm')
    expect(link.email).toBe(b64(newMail))

    // The link is the requester's: another signed-in user cannot use it.
    const other = await createUser(server)
    expectError(await other.client.post('/api/account/mailchangeconfirm', { token: link.token, email: link.email }), 400, '无效邮箱')
    // Nor does it confirm another address.
    expectError(await client.post('/api/account/mailchangeconfirm', { token: link.token, email: b64(`x${newMail}`) }), 400, '无效邮箱')

    const confirmed = await client.post('/api/account/mailchangeconfirm', { token: link.token, email: link.email })
    expectEmpty(confirmed)
    expectSessionIssued(confirmed)
    const row = await reload(user.id)
    expect([row.email, row.normalizedEmail, row.emailConfirmed]).toEqual([newMail, newMail.toUpperCase(), true])
    expect((await client.get('/api/account/profile')).body.email).toBe(newMail)
    expectError(await elsewhere.get('/api/account/profile'), 401, '请先登录')
    expectEmpty(await server.client().post('/api/account/login', { userName: newMail, password }))
    // Spent.
    expectError(await client.post('/api/account/mailchangeconfirm', { token: link.token, email: link.email }), 400, '无效邮箱')
    expect((await auditMessages(user.userName)).some((m) => m.startsWith('更改邮箱成功'))).toBe(true)
  })

  it('checks that the address is free before the policy', async () => {
    const taken = await createUser(server)
    const { client, user } = await createUser(server)
    expectError(await client.put('/api/account/changeemail', { newMail: taken.user.email.toUpperCase() }), 400, '邮箱已经被占用')
    expectError(await client.put('/api/account/changeemail', { newMail: user.email }), 400, '邮箱已经被占用')
    const res = await client.put('/api/account/changeemail', { newMail: `${uniq()}@example.org` })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: '请联系管理员修改邮箱', data: false, status: 400 })
  })

  it('refuses the change when the address was taken meanwhile', async () => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { client, user } = await createUser(server)
    const newMail = `${uniq()}@example.org`
    await client.put('/api/account/changeemail', { newMail })
    const link = mailLink(newMail, 'confirm')
    await createUser(server, { email: newMail })
    expectError(await client.post('/api/account/mailchangeconfirm', { token: link.token, email: link.email }), 400, '无效邮箱')
    expect((await reload(user.id)).email).toBe(user.email)
  })

  it.each([
    ['PUT', '/api/account/changeemail', {}, '邮箱是必需的'],
    ['PUT', '/api/account/changeemail', { newMail: 'bad' }, '邮箱地址无效'],
    ['POST', '/api/account/mailchangeconfirm', { email: 'x' }, 'Token是必需的'],
    ['POST', '/api/account/mailchangeconfirm', { token: 'x' }, '邮箱是必需的'],
    ['POST', '/api/account/mailchangeconfirm', { token: 'AAAA', email: b64('a@b.c') }, '无效邮箱'],
  ])('%s %s %j → %s', async (method, path, body, title) => {
    await setPolicy(server, { emailConfirmationRequired: true })
    const { client, user } = await createUser(server)
    expectError(await client.request(method, path, { json: body }), 400, title)
    expect((await reload(user.id)).email).toBe(user.email)
  })

  it('answers 401 before validating the body, and 403 for banned users', async () => {
    for (const [method, path] of [
      ['PUT', '/api/account/changeemail'],
      ['POST', '/api/account/mailchangeconfirm'],
    ]) {
      expectError(await server.client().request(method, path, { json: {} }), 401, '请先登录')
      const { client } = await createUser(server, { role: 'Banned' })
      expectError(await client.request(method, path, { json: {} }), 403, '无权访问')
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Captcha and mail delivery failures need their own server configuration.

describe('captcha and mail failures', () => {
  let special: TestServer
  let verifier: http.Server
  const tokensSeen: string[] = []

  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const params = new URLSearchParams(body)
        tokensSeen.push(params.get('response') ?? '')
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ success: params.get('secret') === 'captcha-secret' && params.get('response') === 'good-token' }))
      })
    })
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve))
    const port = (verifier.address() as AddressInfo).port
    special = await startTestServer({
      env: {
        CAPTCHA_PROVIDER: 'CloudflareTurnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET_KEY: 'captcha-secret',
        CAPTCHA_VERIFY_URL_TURNSTILE: `http://127.0.0.1:${port}/verify`,
        // Nothing listens on port 1: every mail fails.
        SMTP_URL: 'smtp://127.0.0.1:1',
      },
    })
  })
  afterAll(async () => {
    await special?.close()
    await new Promise((resolve) => verifier?.close(resolve))
  })

  it('register, login and recovery check the captcha when the policy asks for it', async () => {
    await setPolicy(special, { useCaptcha: true })
    const c = special.client()
    const userName = uniq()
    const email = `${userName}@example.com`
    expectError(await register(c, { userName, password: STRONG, email }), 400, '验证码校验失败')
    expectError(await register(c, { userName, password: STRONG, email, challenge: 'bad-token' }), 400, '验证码校验失败')
    expect(await userByEmail(email, special)).toBeNull()
    const ok = await register(c, { userName, password: STRONG, email, challenge: 'good-token' })
    expect(RegisterResponse.parse(ok.body).data).toBe('LoggedIn')
    expect(tokensSeen).toEqual(['bad-token', 'good-token'])

    const fresh = special.client()
    expectError(await fresh.post('/api/account/login', { userName, password: STRONG }), 400, '验证码校验失败')
    expectEmpty(await fresh.post('/api/account/login', { userName, password: STRONG, challenge: 'good-token' }))
    expectError(await fresh.post('/api/account/recovery', { email }), 400, '验证码校验失败')

    // Captcha off in the policy: not checked even though a provider is configured.
    await setPolicy(special, { useCaptcha: false })
    expectEmpty(await special.client().post('/api/account/login', { userName, password: STRONG }))
  })

  it('answers 邮件无法发送，请联系管理员 when the mail server refuses', async () => {
    await setPolicy(special, { activeOnRegister: false, emailConfirmationRequired: true })
    const userName = uniq()
    const email = `${userName}@example.com`
    expectError(await register(special.client(), { userName, password: STRONG, email }), 400, '邮件无法发送，请联系管理员')
    expect(mailsTo(email, special)).toBe(1)

    const { client, user } = await createUser(special)
    expectError(await special.client().post('/api/account/recovery', { email: user.email }), 400, '邮件无法发送，请联系管理员')
    expectError(await client.put('/api/account/changeemail', { newMail: `${uniq()}@example.org` }), 400, '邮件无法发送，请联系管理员')
  })
})

describe('Register rate limit', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ rateLimit: true })
  })
  afterAll(async () => {
    await limited?.close()
  })

  it('allows 20 requests per 150 s across register, recovery, passwordreset and changeemail, then 429', async () => {
    const client = limited.client()
    for (let i = 0; i < 10; i++) expect((await client.post('/api/account/register', {})).status).toBe(400)
    for (let i = 0; i < 5; i++) expect((await client.post('/api/account/recovery', {})).status).toBe(400)
    for (let i = 0; i < 5; i++) expect((await client.post('/api/account/passwordreset', {})).status).toBe(400)
    for (const res of [await client.post('/api/account/register', {}), await client.post('/api/account/recovery', {})]) {
      expect(res.status).toBe(429)
      const seconds = Number(res.headers.get('retry-after'))
      expect(seconds).toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(150)
      expect(res.body).toEqual({ title: `Too many requests, retry after ${seconds} seconds.`, status: 429 })
    }
    // Login is not in the Register policy.
    expectError(await client.post('/api/account/login', {}), 400, 'The UserName field is required.')
  })
})
