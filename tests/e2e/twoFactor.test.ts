/**
 * The account security screens in Chromium against the real server: API tokens on the profile page
 * (create with scopes and expiry, the copy-once dialog, the list, revoke), two-factor enrolment by
 * QR code with recovery codes, the login page's second step, and the admin's two-factor policy.
 */
import type { Browser } from 'playwright-core'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { ApiClient } from '../support/client.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, signIn } from '../support/browser.js'
import { createUser } from '../support/factories/users.js'

const E2E_TIMEOUT = 120_000

describe.skipIf(!browserAvailable())('account security screens (Chromium)', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'creates a token, shows its secret once, lists it and revokes it',
    async () => {
      const owner = await createUser(server)
      const session = await newSession(browser, server.url)
      await signIn(session.context, owner.client, server.url)
      await runInSession(session, 'tokens', async (page) => {
        await page.goto('/account/profile')
        await page.getByTestId('tokens-section').waitFor()
        await page.getByTestId('token-name').fill('my bot')
        await page.getByTestId('token-scope-submit').click()
        await page.getByTestId('token-create').click()
        const secret = (await page.getByTestId('token-secret').textContent())!.trim()
        expect(secret).toMatch(/^fw_/)
        const api = new ApiClient(server.url)
        expect((await api.get('/api/account/profile', { authorization: `Bearer ${secret}` })).status).toBe(200)
        await page.getByTestId('token-secret-close').click()
        await page.getByTestId('token-secret').waitFor({ state: 'detached' })
        await expect(page.getByTestId('token-row').count()).resolves.toBe(1)
        // The secret is not on the page any more.
        expect(await page.content()).not.toContain(secret)

        await page.getByTestId('token-revoke').click()
        await page.getByTestId('confirm-ok').click()
        await page.getByTestId('token-revoked').waitFor()
        expect((await api.get('/api/account/profile', { authorization: `Bearer ${secret}` })).status).toBe(401)
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'enrols two-factor by QR code and signs in through the second step',
    async () => {
      const owner = await createUser(server)
      const setup = await newSession(browser, server.url)
      await signIn(setup.context, owner.client, server.url)
      let secret = ''
      await runInSession(setup, 'two-factor-enrol', async (page) => {
        await page.goto('/account/profile')
        await page.getByTestId('2fa-start').click()
        await page.getByTestId('2fa-qr').waitFor()
        expect(await page.getByTestId('2fa-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/)
        secret = (await page.getByTestId('2fa-secret').textContent())!.trim()
        await page.getByTestId('2fa-confirm-code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }))
        await page.getByTestId('2fa-confirm').click()
        await page.getByTestId('2fa-recovery-codes').waitFor()
        await expect(page.getByTestId('2fa-recovery-code').count()).resolves.toBe(10)
        await page.getByTestId('2fa-recovery-close').click()
        await expect(page.getByTestId('2fa-status').textContent()).resolves.toBe('已启用')
      })

      const login = await newSession(browser, server.url)
      await runInSession(login, 'two-factor-login', async (page) => {
        await page.goto('/account/login')
        await page.getByTestId('login-username').fill(owner.user.userName)
        await page.getByTestId('login-password').fill(owner.password)
        await page.getByTestId('login-submit').click()
        await page.getByTestId('login-second-step').waitFor()
        await page.getByTestId('login-2fa-code').fill('000000')
        await page.getByTestId('login-2fa-submit').click()
        await page.getByText('验证码错误').first().waitFor()
        await expect(page.getByTestId('user-menu').count()).resolves.toBe(0)
        await page.getByTestId('login-2fa-code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }))
        await page.getByTestId('login-2fa-remember').click()
        await page.getByTestId('login-2fa-submit').click()
        await page.getByTestId('user-menu').waitFor()
        const cookies = await page.context().cookies()
        expect(cookies.some((c) => c.name === 'Flagwave.TwoFactorDevice')).toBe(true)
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'lets the admin set the two-factor policy, which then takes them to enrolment',
    async () => {
      const session = await newSession(browser, server.url)
      await runInSession(session, 'two-factor-policy', async (page) => {
        await loginAdmin(page, '/admin/configs')
        await page.getByTestId('config-two-factor-policy').click()
        await page.getByRole('option', { name: '要求管理员' }).click()
        await page.getByTestId('config-save').click()
        await expect
          .poll(async () => (await server.services.settings.get(server.services.orm.em.fork(), { fresh: true })).accountPolicy.twoFactorPolicy, { timeout: 10_000 })
          .toBe('Admins')
        // A fresh sign-in goes to the profile's two-factor section first.
        await page.context().clearCookies()
        await loginAdmin(page, '/admin/configs')
        await page.getByTestId('2fa-required').waitFor()
        expect(page.url()).toContain('/account/profile')
      })
      await server.services.orm.em.fork().getConnection().execute(`delete from configs where key = 'accountPolicy.twoFactorPolicy'`)
      server.services.settings.invalidate()
    },
    E2E_TIMEOUT,
  )
})
