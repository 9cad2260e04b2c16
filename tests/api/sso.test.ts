/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, in-process): the whole
 * authorization code flow through the provider's own sign-in and consent forms, account creation,
 * linking by verified e-mail and from the profile, role mapping, the SSO-only policy, and every
 * failure — each leaving nothing changed (docs/compatibility.md#single-sign-on).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, ADMIN_PASSWORD, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { purgeExpiredSsoLogins } from '../../server/src/domain/sso/flow.js'
import { deliverCallback, ProviderBrowser, signInThrough, startOidcProvider, startSignIn, type TestProvider } from '../support/oidcProvider.js'

let server: TestServer
let idp: TestProvider
let admin: ApiClient
let db: pg.Client

const callbackUri = (id: string) => `http://localhost:${server.port}/api/account/sso/${id}/callback`

/** Add the provider, or replace its settings when it exists. */
async function configure(id: string, overrides: Record<string, unknown> = {}) {
  const body = {
    name: `IdP ${id}`,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    roleClaim: 'groups',
    adminValues: 'ctf-admins',
    monitorValues: 'ctf-monitors',
    scopes: 'openid email profile groups',
    ...overrides,
  }
  let res = await admin.put(`/api/admin/sso/providers/${id}`, body)
  if (res.status === 404) res = await admin.post('/api/admin/sso/providers', { id, ...body })
  expect(res.status, res.text).toBe(200)
  return res.body
}

const count = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params)).rows[0].n)
const errorOf = (res: { status: number; headers: Headers }) => {
  expect(res.status).toBe(302)
  return res.headers.get('location')
}

beforeAll(async () => {
  server = await startTestServer()
  idp = await startOidcProvider(['test', 'narrow', 'flaky'].map(callbackUri))
  admin = await server.admin()
  db = new pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  await configure('test')
})
afterAll(async () => {
  await db?.end()
  await idp?.close()
  await server?.close()
})

describe('provider settings', () => {
  it('lists providers for admins without the secret, with the redirect URI to register', async () => {
    const res = await admin.get('/api/admin/sso')
    expect(res.status).toBe(200)
    expect(res.body.ssoOnly).toBe(false)
    const test = res.body.providers.find((p: { id: string }) => p.id === 'test')
    expect(test).toMatchObject({ id: 'test', name: 'IdP test', issuer: idp.issuer, hasSecret: true, roleClaim: 'groups', enabled: true, redirectUri: callbackUri('test') })
    expect(JSON.stringify(res.body)).not.toContain(idp.clientSecret)
  })

  it('shows the sign-in page names only', async () => {
    const res = await server.client().get('/api/account/sso')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ssoOnly: false, providers: [{ id: 'test', name: 'IdP test' }] })
  })

  it('refuses bad settings with the contract error shape and stores nothing', async () => {
    const bad = await admin.post('/api/admin/sso/providers', { id: 'bad', name: 'Bad', issuer: 'ftp://idp.example', clientId: 'x' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ title: '发行者地址无效', status: 400 })
    const badId = await admin.post('/api/admin/sso/providers', { id: 'Bad_Id', name: 'Bad', issuer: idp.issuer, clientId: 'x' })
    expect(badId.status).toBe(400)
    expect(badId.body).toEqual({ title: '标识只能包含小写字母、数字和连字符，至多 32 个字符', status: 400 })
    const taken = await admin.post('/api/admin/sso/providers', { id: 'test', name: 'Again', issuer: idp.issuer, clientId: 'x' })
    expect(taken.body).toEqual({ title: '该标识已存在', status: 400 })
    const missing = await admin.put('/api/admin/sso/providers/missing', { name: 'Missing', issuer: idp.issuer, clientId: 'x' })
    expect(missing.body).toEqual({ title: '未找到该登录方式', status: 404 })
    expect(await count("select count(*) n from sso_providers where id <> 'test'")).toBe(0)
  })

  it('keeps the stored secret when the update sends none, and deletes providers with their links', async () => {
    await configure('temp', { clientSecret: 'first' })
    await configure('temp', { clientSecret: null })
    expect((await db.query("select client_secret from sso_providers where id = 'temp'")).rows[0].client_secret).toBe('first')
    expect((await admin.delete('/api/admin/sso/providers/temp')).status).toBe(200)
    const again = await admin.delete('/api/admin/sso/providers/temp')
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ title: '未找到该登录方式', status: 404 })
  })
})

describe('signing in', () => {
  it('creates an account for a new identity, signs in and returns to the path asked for', async () => {
    idp.accounts.set('alice-sub', { email: 'alice@example.com', email_verified: true, preferred_username: 'alice', name: 'Alice' })
    const client = server.client()
    const browser = new ProviderBrowser(idp)
    const start = await startSignIn(client, 'test', '/games?tab=1')
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get('location')!)
    expect(authorize.origin).toBe(idp.issuer)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('redirect_uri')).toBe(callbackUri('test'))
    expect(authorize.searchParams.get('nonce')).toBeTruthy()
    const back = await deliverCallback(client, await browser.authorize(authorize.href, 'alice-sub'))
    expect(errorOf(back)).toBe('/games?tab=1')
    expect(browser.pages.some((p) => p.includes('name="login"'))).toBe(true)
    const profile = await client.get('/api/account/profile')
    expect(profile.status).toBe(200)
    expect(profile.body).toMatchObject({ userName: 'alice', email: 'alice@example.com', role: 'User' })
    expect(await count("select count(*) n from user_identities where subject = 'alice-sub'")).toBe(1)

    // Again, with the provider's session: no forms, the same account.
    const again = server.client()
    expect(errorOf(await signInThrough(again, browser, 'test', 'alice-sub'))).toBe('/')
    expect((await again.get('/api/account/profile')).body.userId).toBe(profile.body.userId)
    expect(await count("select count(*) n from users where normalized_email = 'ALICE@EXAMPLE.COM'")).toBe(1)
  })

  it('derives a free user name when the preferred one is taken or unusable', async () => {
    await createUser(server, { userName: 'dora', email: 'dora-local@example.com' })
    idp.accounts.set('dora-sub', { email: 'dora@example.org', email_verified: true, preferred_username: 'dora' })
    const client = server.client()
    expect(errorOf(await signInThrough(client, new ProviderBrowser(idp), 'test', 'dora-sub'))).toBe('/')
    expect((await client.get('/api/account/profile')).body.userName).toMatch(/^dora-[0-9a-f]{6}$/)
    idp.accounts.set('odd-sub', { email: 'x@example.org', email_verified: true, preferred_username: 'ü@+', name: 'ü' })
    const odd = server.client()
    expect(errorOf(await signInThrough(odd, new ProviderBrowser(idp), 'test', 'odd-sub'))).toBe('/')
    expect((await odd.get('/api/account/profile')).body.userName).toMatch(/^user$|^user-[0-9a-f]{6}$/)
  })

  it('links an existing account by the e-mail the provider verified', async () => {
    const bob = await createUser(server, { userName: 'bob', email: 'Bob@Example.com' })
    idp.accounts.set('bob-sub', { email: 'bob@example.com', email_verified: true, preferred_username: 'bobby' })
    const client = server.client()
    expect(errorOf(await signInThrough(client, new ProviderBrowser(idp), 'test', 'bob-sub'))).toBe('/')
    expect((await client.get('/api/account/profile')).body.userId).toBe(bob.user.id)
  })

  it('refuses an unverified e-mail: no link, no account, no session', async () => {
    await createUser(server, { userName: 'eve', email: 'eve@example.com' })
    idp.accounts.set('eve-sub', { email: 'eve@example.com', email_verified: false })
    const users = await count('select count(*) n from users')
    const client = server.client()
    expect(errorOf(await signInThrough(client, new ProviderBrowser(idp), 'test', 'eve-sub'))).toBe('/account/login?ssoError=email_unverified')
    expect(await count("select count(*) n from user_identities where subject = 'eve-sub'")).toBe(0)
    expect(await count('select count(*) n from users')).toBe(users)
    expect((await client.get('/api/account/profile')).status).toBe(401)
  })

  it('maps the role claim at every sign-in', async () => {
    idp.accounts.set('root-sub', { email: 'root@example.com', email_verified: true, preferred_username: 'rooty', groups: ['staff', 'ctf-admins'] })
    const browser = new ProviderBrowser(idp)
    const first = server.client()
    await signInThrough(first, browser, 'test', 'root-sub')
    expect((await first.get('/api/account/profile')).body.role).toBe('Admin')
    expect((await first.get('/api/admin/sso')).status).toBe(200)

    idp.accounts.set('root-sub', { email: 'root@example.com', email_verified: true, groups: ['ctf-monitors'] })
    const second = server.client()
    await signInThrough(second, browser, 'test', 'root-sub')
    expect((await second.get('/api/account/profile')).body.role).toBe('Monitor')
    // The earlier session sees the new role at once.
    expect((await first.get('/api/admin/sso')).status).toBe(403)

    idp.accounts.set('root-sub', { email: 'root@example.com', email_verified: true })
    const third = server.client()
    await signInThrough(third, browser, 'test', 'root-sub')
    expect((await third.get('/api/account/profile')).body.role).toBe('User')
  })

  it('goes back to paths of this site only', async () => {
    idp.accounts.set('walker-sub', { email: 'walker@example.com', email_verified: true })
    const browser = new ProviderBrowser(idp)
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/ok\r\nSet-Cookie: x=1']) {
      expect(errorOf(await signInThrough(server.client(), browser, 'test', 'walker-sub', target))).toBe('/')
    }
  })
})

describe('linking from the profile', () => {
  it('links, signs in through the link, lists and unlinks', async () => {
    const carol = await createUser(server, { userName: 'carol', email: 'carol@example.com' })
    idp.accounts.set('carol-idp', { email: 'c.work@corp.example', email_verified: false })
    const started = await carol.client.post('/api/account/sso/test/link')
    expect(started.status).toBe(200)
    const browser = new ProviderBrowser(idp)
    const back = await deliverCallback(carol.client, await browser.authorize(started.body.url, 'carol-idp'))
    expect(errorOf(back)).toBe('/account/profile')
    const listed = await carol.client.get('/api/account/identities')
    expect(listed.body).toEqual([{ provider: 'test', providerName: 'IdP test', email: 'c.work@corp.example', linkedAt: expect.any(String), lastUsed: expect.any(String) }])

    const fresh = server.client()
    await signInThrough(fresh, browser, 'test', 'carol-idp')
    expect((await fresh.get('/api/account/profile')).body.userId).toBe(carol.user.id)

    // Someone else cannot take the same identity.
    const mallory = await createUser(server, { userName: 'mallory' })
    const attempt = await mallory.client.post('/api/account/sso/test/link')
    expect(errorOf(await deliverCallback(mallory.client, await browser.authorize(attempt.body.url, 'carol-idp')))).toBe('/account/profile?ssoError=identity_taken')
    expect((await mallory.client.get('/api/account/identities')).body).toEqual([])

    // A second identity at the same provider is refused.
    idp.accounts.set('carol-other', { email: 'c2@corp.example' })
    const second = await carol.client.post('/api/account/sso/test/link')
    expect(errorOf(await deliverCallback(carol.client, await new ProviderBrowser(idp).authorize(second.body.url, 'carol-other')))).toBe('/account/profile?ssoError=already_linked')

    expect((await carol.client.delete('/api/account/identities/test')).status).toBe(200)
    expect((await carol.client.get('/api/account/identities')).body).toEqual([])
    const gone = await carol.client.delete('/api/account/identities/test')
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ title: '未关联该登录方式', status: 404 })
  })

  it('does not complete a link for another session than the one that started it', async () => {
    const owner = await createUser(server, { userName: 'owner1' })
    idp.accounts.set('lure-sub', { email: 'lure@example.com', email_verified: true })
    const started = await owner.client.post('/api/account/sso/test/link')
    const callback = await new ProviderBrowser(idp).authorize(started.body.url, 'lure-sub')
    // The callback arrives with the right state cookie but from another account's session.
    const other = await createUser(server, { userName: 'other1' })
    other.client.cookies.set('Flagwave.Sso', owner.client.cookies.get('Flagwave.Sso')!)
    expect(errorOf(await deliverCallback(other.client, callback))).toBe('/account/profile?ssoError=invalid_state')
    expect(await count("select count(*) n from user_identities where subject = 'lure-sub'")).toBe(0)
  })
})

describe('the SSO-only policy', () => {
  it('refuses password sign-in and registration except for admins, and is listed for the sign-in page', async () => {
    const dave = await createUser(server, { userName: 'dave' })
    expect((await admin.put('/api/admin/sso', { ssoOnly: true })).status).toBe(200)
    try {
      const refused = await server.client().post('/api/account/login', { userName: 'dave', password: dave.password })
      expect(refused.status).toBe(401)
      expect(refused.body).toEqual({ title: '本站仅允许单点登录', status: 401 })
      const unknown = await server.client().post('/api/account/login', { userName: 'nobody', password: 'Whatever1!' })
      expect(unknown.body).toEqual({ title: '本站仅允许单点登录', status: 401 })
      const register = await server.client().post('/api/account/register', { userName: 'newbie', email: 'newbie@example.com', password: 'Passw0rd!' })
      expect(register.status).toBe(400)
      expect(register.body).toEqual({ title: '本站仅允许单点登录', status: 400 })
      expect(await count("select count(*) n from users where user_name = 'newbie'")).toBe(0)
      // The break-glass: Admins keep their password.
      await server.client().login('Admin', ADMIN_PASSWORD)
      expect((await server.client().get('/api/account/sso')).body.ssoOnly).toBe(true)
      // Sign-in through the provider still works.
      idp.accounts.set('dave-sub', { email: dave.user.email, email_verified: true })
      const sso = server.client()
      expect(errorOf(await signInThrough(sso, new ProviderBrowser(idp), 'test', 'dave-sub'))).toBe('/')
      expect((await sso.get('/api/account/profile')).body.userId).toBe(dave.user.id)
    } finally {
      await admin.put('/api/admin/sso', { ssoOnly: false })
    }
    expect((await server.client().post('/api/account/login', { userName: 'dave', password: dave.password })).status).toBe(200)
  })
})

describe('failures change nothing', () => {
  it('refuses a callback whose state is not the cookie’s, and a replayed callback', async () => {
    idp.accounts.set('frank-sub', { email: 'frank@example.com', email_verified: true })
    const browser = new ProviderBrowser(idp)
    const client = server.client()
    const start = await startSignIn(client, 'test')
    const callback = await browser.authorize(start.headers.get('location')!, 'frank-sub')

    // Another browser (no state cookie, or another one) delivering this callback: login CSRF.
    const stranger = server.client()
    await startSignIn(stranger, 'test')
    expect(errorOf(await deliverCallback(stranger, callback))).toBe('/account/login?ssoError=invalid_state')
    expect(errorOf(await deliverCallback(server.client(), callback))).toBe('/account/login?ssoError=invalid_state')
    expect(await count("select count(*) n from user_identities where subject = 'frank-sub'")).toBe(0)

    const jar = new Map(client.cookies)
    expect(errorOf(await deliverCallback(client, callback))).toBe('/')
    // Replayed with the same cookie: the started sign-in served once.
    const replay = server.client()
    for (const [k, v] of jar) replay.cookies.set(k, v)
    expect(errorOf(await deliverCallback(replay, callback))).toBe('/account/login?ssoError=invalid_state')
    expect((await replay.get('/api/account/profile')).status).toBe(401)
  })

  it('refuses a replayed authorization code under a fresh state', async () => {
    idp.accounts.set('gina-sub', { email: 'gina@example.com', email_verified: true })
    const browser = new ProviderBrowser(idp)
    const client = server.client()
    const first = await browser.authorize((await startSignIn(client, 'test')).headers.get('location')!, 'gina-sub')
    expect(errorOf(await deliverCallback(client, first))).toBe('/')
    const attacker = server.client()
    const fresh = new URL((await startSignIn(attacker, 'test')).headers.get('location')!)
    const forged = new URL(first)
    forged.searchParams.set('state', fresh.searchParams.get('state')!)
    expect(errorOf(await deliverCallback(attacker, forged))).toBe('/account/login?ssoError=exchange_failed')
    expect((await attacker.get('/api/account/profile')).status).toBe(401)
  })

  it('refuses an ID token whose nonce is not the one sent', async () => {
    idp.accounts.set('hank-sub', { email: 'hank@example.com', email_verified: true })
    const client = server.client()
    const start = await startSignIn(client, 'test')
    await db.query("update sso_logins set nonce = 'not-the-nonce-that-was-sent'")
    const callback = await new ProviderBrowser(idp).authorize(start.headers.get('location')!, 'hank-sub')
    expect(errorOf(await deliverCallback(client, callback))).toBe('/account/login?ssoError=exchange_failed')
    expect(await count("select count(*) n from user_identities where subject = 'hank-sub'")).toBe(0)
    expect((await client.get('/api/account/profile')).status).toBe(401)
  })

  it('reports a user who declines at the provider', async () => {
    idp.accounts.set('ivy-sub', { email: 'ivy@example.com', email_verified: true })
    const client = server.client()
    const start = await startSignIn(client, 'test')
    const callback = await new ProviderBrowser(idp).authorize(start.headers.get('location')!, 'ivy-sub', { abort: true })
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(errorOf(await deliverCallback(client, callback))).toBe('/account/login?ssoError=denied')
    expect(await count("select count(*) n from user_identities where subject = 'ivy-sub'")).toBe(0)
  })

  it('reports a provider that is down, before the redirect and at the callback', async () => {
    await configure('down', { issuer: 'http://127.0.0.1:9' })
    const down = await startSignIn(server.client(), 'down')
    expect(errorOf(down)).toBe('/account/login?ssoError=provider_unavailable')
    expect(await count("select count(*) n from sso_logins where provider = 'down'")).toBe(0)

    const flakyIdp = await startOidcProvider([callbackUri('flaky')])
    flakyIdp.accounts.set('jo-sub', { email: 'jo@example.com', email_verified: true })
    await admin.post('/api/admin/sso/providers', { id: 'flaky', name: 'Flaky', issuer: flakyIdp.issuer, clientId: flakyIdp.clientId, clientSecret: flakyIdp.clientSecret })
    const client = server.client()
    const start = await startSignIn(client, 'flaky')
    const callback = await new ProviderBrowser(flakyIdp).authorize(start.headers.get('location')!, 'jo-sub')
    await flakyIdp.close()
    expect(errorOf(await deliverCallback(client, callback))).toBe('/account/login?ssoError=provider_unavailable')
    expect(await count("select count(*) n from user_identities where subject = 'jo-sub'")).toBe(0)
    expect((await client.get('/api/account/profile')).status).toBe(401)
  })

  it('refuses banned users', async () => {
    const banned = await createUser(server, { userName: 'banned1', role: 'Banned' })
    idp.accounts.set('banned-sub', { email: banned.user.email, email_verified: true })
    const client = server.client()
    expect(errorOf(await signInThrough(client, new ProviderBrowser(idp), 'test', 'banned-sub'))).toBe('/account/login?ssoError=banned')
    expect(await count("select count(*) n from user_identities where subject = 'banned-sub'")).toBe(0)
    expect((await client.get('/api/account/profile')).status).toBe(401)
  })

  it('respects closed registration, the account policy and the provider’s allowed domains', async () => {
    idp.accounts.set('kim-sub', { email: 'kim@other.org', email_verified: true })
    await configure('narrow', { allowedDomains: 'example.com' })
    expect(errorOf(await signInThrough(server.client(), new ProviderBrowser(idp), 'narrow', 'kim-sub'))).toBe('/account/login?ssoError=email_domain')

    expect((await admin.put('/api/admin/config', { accountPolicy: { allowRegister: false } })).status).toBe(200)
    try {
      expect(errorOf(await signInThrough(server.client(), new ProviderBrowser(idp), 'test', 'kim-sub'))).toBe('/account/login?ssoError=registration_disabled')
    } finally {
      await admin.put('/api/admin/config', { accountPolicy: { allowRegister: true } })
    }
    expect(await count("select count(*) n from users where normalized_email = 'KIM@OTHER.ORG'")).toBe(0)

    // Admin approval required: the account is kept for the admin, the sign-in waits.
    await admin.put('/api/admin/config', { accountPolicy: { activeOnRegister: false, emailConfirmationRequired: false } })
    try {
      expect(errorOf(await signInThrough(server.client(), new ProviderBrowser(idp), 'test', 'kim-sub'))).toBe('/account/login?ssoError=pending_approval')
      expect(await count("select count(*) n from users where normalized_email = 'KIM@OTHER.ORG' and not email_confirmed")).toBe(1)
      expect(errorOf(await signInThrough(server.client(), new ProviderBrowser(idp), 'test', 'kim-sub'))).toBe('/account/login?ssoError=pending_approval')
    } finally {
      await admin.put('/api/admin/config', { accountPolicy: { activeOnRegister: true, emailConfirmationRequired: false } })
    }
  })

  it('answers unknown providers in the contract shape', async () => {
    const res = await server.client().get('/api/account/sso/nope')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '未找到该登录方式', status: 404 })
    const user = await createUser(server)
    const link = await user.client.post('/api/account/sso/nope/link')
    expect(link.body).toEqual({ title: '未找到该登录方式', status: 404 })
  })

  it('purges sign-ins started and never finished once they expired, and refuses them meanwhile', async () => {
    idp.accounts.set('late-sub', { email: 'late@example.com', email_verified: true })
    // Earlier tests left sign-ins unfinished on purpose; start from none.
    await db.query('delete from sso_logins')
    const client = server.client()
    const start = await startSignIn(client, 'test')
    const callback = await new ProviderBrowser(idp).authorize(start.headers.get('location')!, 'late-sub')
    await startSignIn(server.client(), 'test')
    await db.query("update sso_logins set expires_at = now() - interval '1 second'")
    const pool = new pg.Pool({ connectionString: server.databaseUrl })
    try {
      // The callback comes too late: refused (and its row taken away with it).
      expect(errorOf(await deliverCallback(client, callback))).toBe('/account/login?ssoError=invalid_state')
      expect(await purgeExpiredSsoLogins(pool)).toBe(1)
      expect(await count('select count(*) n from sso_logins')).toBe(0)
    } finally {
      await pool.end()
    }
  })
})
