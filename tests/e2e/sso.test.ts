/**
 * Single sign-on in Chromium (docs/compatibility.md#single-sign-on): the sign-in page's provider
 * button, the real provider's (oidc-provider's) sign-in and consent pages, back to the return path
 * signed in; the linked identity on the profile; a refused sign-in shown on the sign-in page; the
 * admin screen listing the provider with its redirect URI.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession } from '../support/browser.js'
import { startOidcProvider, type TestProvider } from '../support/oidcProvider.js'

const E2E_TIMEOUT = 120_000

describe.skipIf(!browserAvailable())('single sign-on (Chromium)', () => {
  let server: TestServer
  let idp: TestProvider
  let browser: Browser
  // The redirect URI is built from the public origin (http://localhost:<port> without PUBLIC_URL),
  // so the browser uses that host: the state cookie must come back to where it was set.
  const origin = () => `http://localhost:${server.port}`

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    idp = await startOidcProvider([`${origin()}/api/account/sso/campus/callback`])
    const admin = await server.admin()
    const res = await admin.post('/api/admin/sso/providers', { id: 'campus', name: 'Campus IdP', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret })
    expect(res.status, res.text).toBe(200)
  })

  afterAll(async () => {
    await browser?.close()
    await idp?.close()
    await server?.close()
  })

  /** The provider's development pages: sign in with any password, then consent. */
  async function throughProvider(page: Page, login: string) {
    await page.waitForURL((url) => url.origin === idp.issuer)
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('anything')
    await page.locator('button[type="submit"]').click()
    await page.waitForURL((url) => url.origin === idp.issuer && !/login/.test(url.pathname))
    await page.locator('button[type="submit"]').click()
  }

  it(
    'signs in through the provider, lands on the return path and shows the link on the profile',
    async () => {
      idp.accounts.set('zoe', { email: 'zoe@campus.example', email_verified: true, preferred_username: 'zoe' })
      await runInSession(await newSession(browser, origin()), 'sso-sign-in', async (page) => {
        await page.goto('/account/login?from=/account/profile')
        await page.getByTestId('sso-campus').click()
        await throughProvider(page, 'zoe')
        await page.waitForURL(`${origin()}/account/profile`)
        await page.getByTestId('user-menu').waitFor()
        await expect(page.getByTestId('sso-linked-campus').textContent()).resolves.toContain('zoe@campus.example')
        await expect(page.getByTestId('profile-role').textContent()).resolves.toBe('用户')

        // Unlink from the profile; the link button takes its place.
        await page.getByTestId('sso-unlink-campus').click()
        await page.getByTestId('sso-link-campus').waitFor()
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'shows why a sign-in was refused on the sign-in page',
    async () => {
      idp.accounts.set('yan', { email: 'yan@campus.example', email_verified: false })
      await runInSession(await newSession(browser, origin()), 'sso-refused', async (page) => {
        await page.goto('/account/login')
        await page.getByTestId('sso-campus').click()
        await throughProvider(page, 'yan')
        await page.waitForURL(`${origin()}/account/login?ssoError=email_unverified`)
        await expect(page.getByTestId('sso-error').textContent()).resolves.toContain('未验证你的邮箱')
        await expect(page.getByTestId('user-menu').count()).resolves.toBe(0)
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'lists the provider with its redirect URI on the admin screen',
    async () => {
      await runInSession(await newSession(browser, origin()), 'sso-admin', async (page) => {
        await loginAdmin(page, '/admin/sso')
        const card = page.getByTestId('sso-provider-campus')
        await card.waitFor()
        await expect(card.textContent()).resolves.toContain(`${origin()}/api/account/sso/campus/callback`)
        await expect(card.textContent()).resolves.not.toContain(idp.clientSecret)
      })
    },
    E2E_TIMEOUT,
  )
})
