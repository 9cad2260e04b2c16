/**
 * Two-factor sign-in (docs/architecture.md#two-factor-authentication,
 * docs/compatibility.md#two-factor-authentication) over HTTP against PostgreSQL: enrolment with a
 * QR code, the 401 that names the second step, wrong and replayed codes, single-use recovery
 * codes, remembered devices, the per-account lockout and the policy that holds accounts at
 * enrolment — with nothing changed on every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generate } from 'otplib'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { User } from '../../server/src/entities/User.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

/** A code of the time step `offset` steps from now (the server accepts ±1 step). */
const code = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })
const fresh = (id: string) => server.services.orm.em.fork().findOneOrFail(User, { id })

/** Enrol `who` and answer the secret and the recovery codes. */
async function enrol(who: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begun = await who.client.post('/api/account/2fa/enrol')
  expect(begun.status, begun.text).toBe(200)
  const confirmed = await who.client.post('/api/account/2fa/confirm', { code: await code(begun.body.secret, -1) })
  expect(confirmed.status, confirmed.text).toBe(200)
  return { secret: begun.body.secret, recoveryCodes: confirmed.body.recoveryCodes }
}

/** Sign in with the password only; a fresh client. */
async function firstStep(who: TestUser, client = server.client()) {
  const res = await client.post('/api/account/login', { userName: who.user.userName, password: who.password })
  return { client, res }
}

describe('enrolment', () => {
  it('shows a QR code, refuses a wrong code and turns two-factor on with recovery codes', async () => {
    const alice = await createUser(server)
    expect((await alice.client.get('/api/account/2fa')).body).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0, required: false, deviceRemembered: false })
    const begun = await alice.client.post('/api/account/2fa/enrol')
    expect(begun.body.qrCode).toMatch(/^data:image\/png;base64,/)
    expect(begun.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/)
    expect(begun.body.otpauthUrl).toContain(begun.body.secret)
    expect((await alice.client.get('/api/account/2fa')).body.pending).toBe(true)

    const wrong = await alice.client.post('/api/account/2fa/confirm', { code: '000000' === (await code(begun.body.secret)) ? '111111' : '000000' })
    expect(wrong.body).toEqual({ title: '验证码错误', status: 400 })
    expect((await alice.client.post('/api/account/2fa/confirm', { code: 'abc' })).body).toEqual({ title: '验证码无效', status: 400 })
    expect((await fresh(alice.user.id)).twoFactorSecret).toBeNull()

    const confirmed = await alice.client.post('/api/account/2fa/confirm', { code: await code(begun.body.secret) })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.recoveryCodes).toHaveLength(10)
    const stored = await fresh(alice.user.id)
    expect(stored.twoFactorSecret).toBe(begun.body.secret)
    expect(stored.twoFactorRecoveryCodes.some((h) => confirmed.body.recoveryCodes.includes(h))).toBe(false)
    expect((await alice.client.get('/api/account/2fa')).body).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 })
    expect((await alice.client.post('/api/account/2fa/enrol')).body).toEqual({ title: '两步验证已启用', status: 400 })
  })
})

describe('signing in', () => {
  it('keeps accounts without two-factor contract-compatible', async () => {
    const plain = await createUser(server)
    const { res } = await firstStep(plain)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
  })

  it('names the second step in a 401 and completes it with a TOTP code; a replayed code is refused', async () => {
    const bob = await createUser(server)
    const { secret } = await enrol(bob)
    const { client, res } = await firstStep(bob)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ title: '需要两步验证', status: 401, twoFactorRequired: true })
    expect(client.cookies.has('GZCTF_Token')).toBe(false)
    expect((await client.get('/api/account/profile')).status).toBe(401)

    const wrong = await client.post('/api/account/2fa/login', { code: '12345x' })
    expect(wrong.body).toEqual({ title: '验证码错误', status: 400 })
    expect(client.cookies.has('GZCTF_Token')).toBe(false)

    const good = await code(secret, 1)
    const done = await client.post('/api/account/2fa/login', { code: good })
    expect(done.status, done.text).toBe(200)
    expect((await client.get('/api/account/profile')).body.userName).toBe(bob.user.userName)

    // The same code again (another sign-in that saw it) is refused.
    const again = await firstStep(bob)
    expect((await again.client.post('/api/account/2fa/login', { code: good })).body).toEqual({ title: '验证码错误', status: 400 })
    // Without the ticket of a correct password there is nothing to complete.
    expect((await server.client().post('/api/account/2fa/login', { code: await code(secret) })).body).toEqual({ title: '登录已过期，请重新输入密码', status: 401 })
  })

  it('accepts each recovery code once', async () => {
    const carol = await createUser(server)
    const { recoveryCodes } = await enrol(carol)
    const first = await firstStep(carol)
    expect((await first.client.post('/api/account/2fa/login', { code: recoveryCodes[0]!.toUpperCase() })).status).toBe(200)
    expect((await fresh(carol.user.id)).twoFactorRecoveryCodes).toHaveLength(9)
    const replay = await firstStep(carol)
    expect((await replay.client.post('/api/account/2fa/login', { code: recoveryCodes[0] })).body).toEqual({ title: '验证码错误', status: 400 })
    expect(replay.client.cookies.has('GZCTF_Token')).toBe(false)
    expect((await fresh(carol.user.id)).twoFactorRecoveryCodes).toHaveLength(9)
  })

  it('remembers a device when asked, until the devices are forgotten', async () => {
    const dave = await createUser(server)
    const { secret } = await enrol(dave)
    const { client } = await firstStep(dave)
    expect((await client.post('/api/account/2fa/login', { code: await code(secret), rememberDevice: true })).status).toBe(200)
    expect(client.cookies.has('Flagwave.TwoFactorDevice')).toBe(true)
    expect((await client.get('/api/account/2fa')).body.deviceRemembered).toBe(true)

    // The same browser signs in with the password alone.
    const again = await firstStep(dave, client)
    expect(again.res.status).toBe(200)
    // Another browser is still asked.
    expect((await firstStep(dave)).res.body.twoFactorRequired).toBe(true)

    expect((await client.delete('/api/account/2fa/devices')).status).toBe(200)
    const forgotten = await firstStep(dave, client)
    expect(forgotten.res.status).toBe(401)
    expect(forgotten.res.body.twoFactorRequired).toBe(true)
  })

  it('locks the second factor of an account after five wrong codes', async () => {
    const eve = await createUser(server)
    const { secret } = await enrol(eve)
    const { client } = await firstStep(eve)
    const wrong = (await code(secret)) === '999999' ? '888888' : '999999'
    for (let i = 0; i < 5; i++) expect((await client.post('/api/account/2fa/login', { code: wrong })).status).toBe(400)
    const locked = await client.post('/api/account/2fa/login', { code: await code(secret) })
    expect(locked.status).toBe(429)
    expect(locked.body.title).toBe('两步验证失败次数过多，请稍后再试')
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800)
    expect(client.cookies.has('GZCTF_Token')).toBe(false)
  })
})

describe('managing two-factor', () => {
  it('regenerates recovery codes and disables only with the password and a code', async () => {
    const frank = await createUser(server)
    const { secret, recoveryCodes } = await enrol(frank)
    expect((await frank.client.post('/api/account/2fa/recovery', { password: 'wrong', code: await code(secret, 1) })).body).toEqual({ title: '密码输入错误', status: 400 })
    const renewed = await frank.client.post('/api/account/2fa/recovery', { password: frank.password, code: await code(secret, 1) })
    expect(renewed.status).toBe(200)
    expect(renewed.body.recoveryCodes).not.toContain(recoveryCodes[0])

    expect((await frank.client.post('/api/account/2fa/disable', { password: frank.password, code: recoveryCodes[0] })).body).toEqual({ title: '验证码错误', status: 400 })
    expect((await fresh(frank.user.id)).twoFactorSecret).toBe(secret)
    expect((await frank.client.post('/api/account/2fa/disable', { password: frank.password, code: renewed.body.recoveryCodes[0] })).status).toBe(200)
    expect((await fresh(frank.user.id)).twoFactorSecret).toBeNull()
    expect((await firstStep(frank)).res.status).toBe(200)
  })
})

describe('policy', () => {
  const setPolicy = async (twoFactorPolicy: string, by = admin) => expect((await by.put('/api/admin/config', { accountPolicy: { twoFactorPolicy } })).status).toBe(200)

  it('is off by default and holds the accounts it covers at enrolment until they enrol', async () => {
    expect((await admin.get('/api/admin/config')).body.accountPolicy.twoFactorPolicy).toBe('Off')
    expect((await admin.put('/api/admin/config', { accountPolicy: { twoFactorPolicy: 'Sometimes' } })).status).toBe(400)
    const boss = await createUser(server, { role: 'Admin' })
    const player = await createUser(server)
    await setPolicy('Admins')
    // The admin who turned it on is held too, until they enrol.
    expect((await admin.get('/api/admin/config')).body.twoFactorEnrolmentRequired).toBe(true)
    try {
      const held = await boss.client.get('/api/admin/users?count=5&skip=0')
      expect(held.status).toBe(403)
      expect(held.body).toEqual({ title: '请先启用两步验证', status: 403, twoFactorEnrolmentRequired: true })
      expect((await boss.client.get('/api/account/profile')).status).toBe(200)
      expect((await boss.client.get('/api/account/2fa')).body.required).toBe(true)
      // Players are not covered by the Admins policy.
      expect((await player.client.get('/api/team')).status).toBe(200)

      const { secret } = await enrol(boss)
      expect((await boss.client.get('/api/admin/users?count=5&skip=0')).status).toBe(200)
      // The policy refuses turning it off again.
      expect((await boss.client.post('/api/account/2fa/disable', { password: boss.password, code: await code(secret, 1) })).body).toEqual({
        title: '站点策略要求启用两步验证，无法关闭',
        status: 400,
      })

      await setPolicy('Everyone', boss.client)
      expect((await player.client.get('/api/team')).body).toEqual({ title: '请先启用两步验证', status: 403, twoFactorEnrolmentRequired: true })
    } finally {
      await setPolicy('Off', boss.client)
    }
    expect((await player.client.get('/api/team')).status).toBe(200)
  })
})
