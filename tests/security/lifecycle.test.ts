/**
 * Account lifecycle attacks, against the running server (docs/compatibility.md#registering-a-pending-e-mail-again,
 * #identity-rules, #deliberate-departures):
 *
 * - pre-registering someone's address: registering a pending e-mail again replaces the pending
 *   account's name and password and voids its old password, links and sessions; a confirmed
 *   account is never taken; racing registrations make one account and never a 500;
 * - a user name spelled like another account's e-mail neither exists nor catches its sign-in.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import { RegisterResponse } from '@flagwave/shared/schemas/account'
import { User } from '../../server/src/entities/User.js'
import { DEFAULT_SETTINGS, type AccountPolicy } from '../../server/src/domain/config/settings.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { closeAllSockets, connect, disconnected, joined } from '../support/sockets.js'
import type { ApiClient, ApiResponse } from '../support/client.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const hex = (n = 3) => randomBytes(n).toString('hex')
const ATTACKER_PASSWORD = 'Attack3rPass'
const VICTIM_PASSWORD = 'V1ctimPass'

function expectError(res: ApiResponse, status: number, title: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
}

async function setPolicy(policy: Partial<AccountPolicy>): Promise<void> {
  await server.services.settings.update(em(), { accountPolicy: { ...DEFAULT_SETTINGS.accountPolicy, ...policy } })
}

const register = (client: ApiClient, userName: string, password: string, email: string) => client.post('/api/account/register', { userName, password, email })
const login = (userName: string, password: string) => server.client().post('/api/account/login', { userName, password })
const accountsWith = (email: string) => em().find(User, { normalizedEmail: email.toUpperCase() })

interface MailedLink {
  /** The user name the mail greets. */
  userName: string
  body: { token: string; email: string }
}

/** Every verification mail sent to `to` so far, oldest first. */
function verifyMails(to: string): MailedLink[] {
  return server.services.mailer.recent
    .filter((m) => m.to === to && /\/account\/verify\?/.test(m.text))
    .map((m) => {
      const link = /\/account\/verify\?token=([^&\s]+)&email=([^&\s]+)/.exec(m.text)!
      return { userName: /^(.*)，你好！/.exec(m.text)![1], body: { token: link[1], email: link[2] } }
    })
}

// ---------------------------------------------------------------------------------------------

describe('registering the e-mail of a pending account', () => {
  beforeEach(() => setPolicy({ activeOnRegister: false, emailConfirmationRequired: true }))

  it('gives the victim an account with the victim’s name and password only; the attacker’s password and link are dead', async () => {
    const email = `victim${hex()}@example.com`
    const attackerName = `att${hex()}`
    const victimName = `vic${hex()}`
    // The attacker registers the victim's address first and never confirms.
    expect(RegisterResponse.parse((await register(server.client(), attackerName, ATTACKER_PASSWORD, email)).body).data).toBe('EmailConfirmationRequired')
    const [attackerLink] = verifyMails(email)

    const res = await register(server.client(), victimName, VICTIM_PASSWORD, email)
    expect(res.status).toBe(200)
    expect(RegisterResponse.parse(res.body)).toEqual({ title: '注册成功，等待邮箱验证', data: 'EmailConfirmationRequired', status: 200 })
    const accounts = await accountsWith(email)
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ userName: victimName, emailConfirmed: false })
    const victimLink = verifyMails(email).at(-1)!
    expect(victimLink.userName).toBe(victimName)

    // The attacker's link no longer confirms anything.
    expectError(await server.client().post('/api/account/verify', attackerLink.body), 401, '邮箱验证失败')
    expect((await accountsWith(email))[0].emailConfirmed).toBe(false)

    // The victim's link confirms the victim's account and signs the victim in.
    const browser = server.client()
    expect((await browser.post('/api/account/verify', victimLink.body)).status).toBe(200)
    expect((await browser.get('/api/account/profile')).body).toMatchObject({ userName: victimName, email })

    // The attacker's password works under no name; the victim's works under both.
    for (const name of [email, attackerName, victimName]) expectError(await login(name, ATTACKER_PASSWORD), 401, '用户名或密码错误')
    for (const name of [email, victimName]) expect((await login(name, VICTIM_PASSWORD)).status).toBe(200)
    // Neither the attacker's name nor a second account is left behind.
    expect(await em().count(User, { normalizedUserName: attackerName.toUpperCase() })).toBe(0)
  })

  it('ends the pending account’s sessions and sockets', async () => {
    // A pending account with a session: signed in at registration, then unconfirmed by an admin.
    await setPolicy({ activeOnRegister: true })
    const email = `victim${hex()}@example.com`
    const attacker = server.client()
    expect((await register(attacker, `att${hex()}`, ATTACKER_PASSWORD, email)).status).toBe(200)
    const [row] = await accountsWith(email)
    expect((await admin.put(`/api/admin/users/${row.id}`, { emailConfirmed: false })).status).toBe(200)
    expect((await attacker.get('/api/account/profile')).status).toBe(200)
    const socket = await connect(server, '/hub/user', { client: attacker })
    await joined(server, '/hub/user', socket, rooms.user(row.id))

    await setPolicy({ activeOnRegister: false, emailConfirmationRequired: true })
    expect((await register(server.client(), `vic${hex()}`, VICTIM_PASSWORD, email)).status).toBe(200)
    expectError(await attacker.get('/api/account/profile'), 401, '请先登录')
    expect(await disconnected(socket)).toBe('io server disconnect')
  })

  it('never takes a confirmed account, nor another account’s user name', async () => {
    const owner = await createUser(server)
    const pendingEmail = `pending${hex()}@example.com`
    const pendingName = `pen${hex()}`
    await register(server.client(), pendingName, ATTACKER_PASSWORD, pendingEmail)
    const [pending] = await accountsWith(pendingEmail)
    const users = await em().count(User, {})

    expectError(await register(server.client(), `x${hex()}`, ATTACKER_PASSWORD, owner.user.email), 400, '此账户已存在')
    // Registering the pending e-mail again under the confirmed account's name (any case).
    const stolenName = owner.user.userName.toUpperCase()
    expectError(await register(server.client(), stolenName, ATTACKER_PASSWORD, pendingEmail), 400, `用户名 ${stolenName} 已存在`)
    // A weak password is refused before anything is replaced.
    expectError(await register(server.client(), `y${hex()}`, 'weakpass', pendingEmail), 400, '密码中需要数字')

    expect(await em().count(User, {})).toBe(users)
    const [after] = await accountsWith(pendingEmail)
    expect({ userName: after.userName, hash: after.passwordHash, stamp: after.securityStamp }).toEqual({
      userName: pendingName,
      hash: pending.passwordHash,
      stamp: pending.securityStamp,
    })
    const ownerRow = await em().findOneOrFail(User, { id: owner.user.id })
    expect({ userName: ownerRow.userName, hash: ownerRow.passwordHash }).toEqual({ userName: owner.user.userName, hash: owner.user.passwordHash })
    expect((await owner.client.get('/api/account/profile')).status).toBe(200)
  })

  it('without e-mail confirmation, only the holder of the pending account’s password registers it again', async () => {
    await setPolicy({ activeOnRegister: false, emailConfirmationRequired: false })
    const email = `victim${hex()}@example.com`
    const victimName = `vic${hex()}`
    await register(server.client(), victimName, VICTIM_PASSWORD, email)
    const [before] = await accountsWith(email)

    // Nothing proves the address, so a stranger cannot replace the credentials an admin will approve.
    expectError(await register(server.client(), `att${hex()}`, ATTACKER_PASSWORD, email), 400, `邮箱地址 ${email} 已存在`)
    const [kept] = await accountsWith(email)
    expect({ userName: kept.userName, hash: kept.passwordHash }).toEqual({ userName: victimName, hash: before.passwordHash })

    // The owner may register again (here under a new name).
    const renamed = `vic${hex()}`
    const again = await register(server.client(), renamed, VICTIM_PASSWORD, email)
    expect(RegisterResponse.parse(again.body).data).toBe('AdminConfirmationRequired')
    const [after] = await accountsWith(email)
    expect(after.userName).toBe(renamed)
    expect(await accountsWith(email)).toHaveLength(1)
  })

  it('racing registrations of a pre-registered address: one account, one working link, its name and password from one registrant', async () => {
    const email = `race${hex()}@example.com`
    await register(server.client(), `att${hex()}`, ATTACKER_PASSWORD, email)
    const [preRegistration] = verifyMails(email)

    const contenders = Array.from({ length: 4 }, (_, i) => ({ userName: `r${i}${hex()}`, password: `Rac3r${i}Pass` }))
    const answers = await Promise.all(contenders.map((c) => register(server.client(), c.userName, c.password, email)))
    for (const res of answers) {
      expect(res.status, res.text).toBe(200)
      expect(RegisterResponse.parse(res.body).data).toBe('EmailConfirmationRequired')
    }
    expect(await accountsWith(email)).toHaveLength(1)

    expectError(await server.client().post('/api/account/verify', preRegistration.body), 401, '邮箱验证失败')
    const results: { userName: string; status: number }[] = []
    for (const mail of verifyMails(email).slice(1)) {
      const res = await server.client().post('/api/account/verify', mail.body)
      results.push({ userName: mail.userName, status: res.status })
      if (res.status !== 200) expectError(res, 401, '邮箱验证失败')
    }
    const confirmed = results.filter((r) => r.status === 200)
    expect(confirmed).toHaveLength(1)
    const winner = contenders.find((c) => c.userName === confirmed[0].userName)!
    expect((await accountsWith(email))[0]).toMatchObject({ userName: winner.userName, emailConfirmed: true })
    expect((await login(email, winner.password)).status).toBe(200)
    for (const other of contenders.filter((c) => c !== winner)) expectError(await login(email, other.password), 401, '用户名或密码错误')
    expectError(await login(email, ATTACKER_PASSWORD), 401, '用户名或密码错误')
  })

  it('racing first registrations of one address make one account and a 400, never a 500', async () => {
    await setPolicy({ activeOnRegister: true })
    const email = `fresh${hex()}@example.com`
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => register(server.client(), `f${i}${hex()}`, `Fr3sh${i}Pass`, email)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    for (const res of answers.filter((r) => r.status !== 200)) {
      // Refused either by the check (a confirmed account exists) or by the unique index (the account was still pending).
      expect([`邮箱地址 ${email} 已存在`, '此账户已存在']).toContain(res.body.title)
      expect(res.status).toBe(400)
      expect(res.body.status).toBe(400)
    }
    expect(await accountsWith(email)).toHaveLength(1)
  })
})

describe('user names spelled like e-mail addresses', () => {
  it('a user name may not be another account’s e-mail address, on registration, profile update and admin edits', async () => {
    await setPolicy({ activeOnRegister: true })
    const victim = await createUser(server, { email: `v${hex(2)}@ex.io` })
    const taken = victim.user.email.toUpperCase()
    const users = await em().count(User, {})
    expectError(await register(server.client(), taken, ATTACKER_PASSWORD, `att${hex()}@example.com`), 400, `用户名 ${taken} 已存在`)
    expect(await em().count(User, {})).toBe(users)

    const attacker = await createUser(server)
    expectError(await attacker.client.put('/api/account/update', { userName: taken }), 400, `用户名 ${taken} 已存在`)
    // The admin edit answers 200 and saves nothing (docs/compatibility.md#group-admin).
    expect((await admin.put(`/api/admin/users/${attacker.user.id}`, { userName: taken })).status).toBe(200)
    expectError(await admin.post('/api/admin/users', [{ userName: taken, password: ATTACKER_PASSWORD, email: `bulk${hex()}@example.com` }]), 400, `用户名 ${taken} 已存在`)
    expect((await em().findOneOrFail(User, { id: attacker.user.id })).userName).toBe(attacker.user.userName)
    expect(await em().count(User, {})).toBe(users + 1)

    // One's own address is fine as a user name.
    const own = await createUser(server, { email: `o${hex(2)}@ex.io` })
    expect((await own.client.put('/api/account/update', { userName: own.user.email })).status).toBe(200)
  })

  it('signing in with an address finds the account of that e-mail before a user name spelled the same', async () => {
    await setPolicy({ activeOnRegister: true })
    // The squatter takes the name while nobody has that address (allowed), then the victim registers it.
    const address = `q${hex(2)}@ex.io`
    expect((await register(server.client(), address, ATTACKER_PASSWORD, `sq${hex()}@example.com`)).status).toBe(200)
    const victimName = `vic${hex()}`
    expect((await register(server.client(), victimName, VICTIM_PASSWORD, address)).status).toBe(200)

    const victim = server.client()
    expect((await victim.post('/api/account/login', { userName: address.toUpperCase(), password: VICTIM_PASSWORD })).status).toBe(200)
    expect((await victim.get('/api/account/profile')).body).toMatchObject({ userName: victimName, email: address })
    // The look-alike name no longer reaches the squatter's account (its own e-mail still does).
    expectError(await login(address, ATTACKER_PASSWORD), 401, '用户名或密码错误')
  })
})
