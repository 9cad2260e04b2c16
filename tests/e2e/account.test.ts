/**
 * The account screens end to end in Chromium against the real server (which serves client/dist):
 * register → (signed in) → log out → log in → edit the profile → upload an avatar → switch the
 * colour scheme → log out; plus case-insensitive routes and the not-found screen.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot } from '../support/browser.js'

const E2E_TIMEOUT = 120_000

describe.skipIf(!browserAvailable())('account screens (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let tmpDir: string

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-e2e-'))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true })
  })

  const scheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))

  async function openUserMenu(page: Page) {
    await page.getByTestId('user-menu').click()
    await page.getByTestId('user-menu-logout').waitFor()
  }

  async function logout(page: Page) {
    await openUserMenu(page)
    await page.getByTestId('user-menu-logout').click()
    await page.getByTestId('nav-login').waitFor()
    await expect(page.getByTestId('user-menu').count()).resolves.toBe(0)
  }

  it(
    'register, log out, log in, edit the profile, upload an avatar, switch the colour scheme, log out',
    async () => {
      const session = await newSession(browser, server.url)
      const { page } = session
      const suffix = randomBytes(3).toString('hex')
      const userName = `e2e_${suffix}`
      const email = `${userName}@example.com`
      const password = 'Passw0rd!'

      try {
        // Register (the default account policy activates and signs in at once).
        await page.goto('/account/register')
        await page.getByTestId('register-page').waitFor()
        await expect(scheme(page)).resolves.toBe('dark')
        await page.getByTestId('register-username').fill(userName)
        await page.getByTestId('register-email').fill(email)
        await page.getByTestId('register-password').fill(password)
        await page.getByTestId('register-confirm').fill(password)
        await screenshot(page, 'account-01-register-form')
        await page.getByTestId('register-submit').click()
        await page.getByTestId('home-page').waitFor()
        await expect(page.getByTestId('user-menu-name').textContent()).resolves.toBe(userName)
        await screenshot(page, 'account-02-registered-home')

        // Log out.
        await logout(page)
        await screenshot(page, 'account-03-logged-out')

        // A guarded screen sends an anonymous visitor to the login screen and back afterwards.
        await page.goto('/account/profile')
        await page.getByTestId('login-page').waitFor()
        expect(new URL(page.url()).searchParams.get('from')).toBe('/account/profile')

        // Log in with the e-mail address; back on the profile screen.
        await page.getByTestId('login-username').fill(email)
        await page.getByTestId('login-password').fill(password)
        await screenshot(page, 'account-04-login-form')
        await page.getByTestId('login-submit').click()
        await page.getByTestId('profile-page').waitFor()
        await expect(page.getByTestId('user-menu-name').textContent()).resolves.toBe(userName)
        await expect(page.getByTestId('profile-email').textContent()).resolves.toBe(email)
        await expect(page.getByTestId('profile-role').textContent()).resolves.toBe('用户')

        // Edit the profile; the values survive a reload.
        const bio = `e2e bio ${suffix}`
        const realName = '张三丰'
        await page.getByTestId('profile-bio').fill(bio)
        await page.getByTestId('profile-realname').fill(realName)
        await page.getByTestId('profile-stdnumber').fill('20230929')
        const saved = page.waitForResponse((r) => r.url().endsWith('/api/account/update') && r.request().method() === 'PUT')
        await page.getByTestId('profile-save').click()
        expect((await saved).status()).toBe(200)
        await page.getByText('个人信息已更新').waitFor()
        await screenshot(page, 'account-05-profile-saved')
        await page.reload()
        await page.getByTestId('profile-page').waitFor()
        await page.waitForFunction(
          ([testId, value]) => (document.querySelector(`[data-testid="${testId}"]`) as HTMLTextAreaElement | null)?.value === value,
          ['profile-bio', bio],
        )
        await expect(page.getByTestId('profile-realname').inputValue()).resolves.toBe(realName)
        await expect(page.getByTestId('profile-stdnumber').inputValue()).resolves.toBe('20230929')
        // Responses were saved, compressed, when the page unloaded.
        await expect(page.evaluate(() => (localStorage.getItem('flagwave-cache-v1') ?? '').length)).resolves.toBeGreaterThan(0)
        const profile = await page.evaluate(async () => (await fetch('/api/account/profile')).json())
        expect(profile).toMatchObject({ userName, email, bio, realName, stdNumber: '20230929', role: 'User' })

        // Upload an avatar (a generated PNG).
        const avatarFile = path.join(tmpDir, 'avatar.png')
        await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 29, g: 233, b: 182 } } })
          .png()
          .toFile(avatarFile)
        const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/account/avatar') && r.request().method() === 'PUT')
        await page.getByTestId('avatar-input').setInputFiles(avatarFile)
        const avatarResponse = await uploaded
        expect(avatarResponse.status()).toBe(200)
        expect(await avatarResponse.json()).toMatch(/^\/assets\/[0-9a-f]{64}\/avatar\.webp$/)
        await page.waitForFunction(() => /^\/assets\/[0-9a-f]{64}\/avatar$/.test(document.querySelector('[data-testid="profile-avatar"]')?.getAttribute('data-src') ?? ''))
        const avatarUrl = await page.getByTestId('profile-avatar').getAttribute('data-src')
        // The extension-less URL is served as octet-stream (docs/compatibility.md#group-assets); the <img> still decodes it.
        await expect(page.evaluate(async (url) => (await fetch(url!)).status, avatarUrl)).resolves.toBe(200)
        const img = page.locator(`[data-testid="profile-avatar"] img[src="${avatarUrl}"]`)
        await img.waitFor()
        await page.waitForFunction((url) => {
          const el = document.querySelector(`[data-testid="profile-avatar"] img[src="${url}"]`) as HTMLImageElement | null
          return !!el && el.complete && el.naturalWidth > 0
        }, avatarUrl)
        await page.locator(`[data-testid="user-menu"] img[src="${avatarUrl}"]`).waitFor()
        await screenshot(page, 'account-06-avatar')

        // Switch the colour scheme; the choice is remembered across a reload.
        await expect(scheme(page)).resolves.toBe('dark')
        await page.getByTestId('color-scheme-toggle').click()
        await page.waitForFunction(() => document.documentElement.getAttribute('data-mantine-color-scheme') === 'light')
        await screenshot(page, 'account-07-light-scheme')
        await page.reload()
        await page.getByTestId('profile-page').waitFor()
        await expect(scheme(page)).resolves.toBe('light')
        await expect(page.getByTestId('color-scheme-toggle').getAttribute('data-scheme')).resolves.toBe('light')

        // Log out.
        await logout(page)
        await expect(page.evaluate(async () => (await fetch('/api/account/profile')).status)).resolves.toBe(401)
        await screenshot(page, 'account-08-logged-out-light')

        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'account-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'routes are case-insensitive and unknown routes show the not-found screen',
    async () => {
      const session = await newSession(browser, server.url)
      const { page } = session
      try {
        await page.goto('/Account/LOGIN')
        await page.getByTestId('login-page').waitFor()
        await screenshot(page, 'routes-01-mixed-case-login')

        await page.goto('/ABOUT')
        await page.getByTestId('about-page').waitFor()
        await expect(page.getByTestId('platform-title').textContent()).resolves.toBe('Flagwave::CTF')
        await expect(page.getByTestId('footer-slogan').textContent()).resolves.toBe('实时推送的 CTF 竞赛平台')

        await page.goto('/definitely/not/a-page')
        await page.getByTestId('not-found').waitFor()
        await screenshot(page, 'routes-02-not-found')

        // Home renders with its posts list or the empty state.
        await page.goto('/')
        await page.getByTestId('home-page').waitFor()
        await page.locator('[data-testid="latest-posts"], [data-testid="posts-empty"]').first().waitFor()
        await screenshot(page, 'routes-03-home')

        // A signed-out visitor of an admin screen is sent to the login screen.
        await page.goto('/Admin/Users')
        await page.getByTestId('login-page').waitFor()
        expect(new URL(page.url()).searchParams.get('from')).toBe('/Admin/Users')

        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'server error titles are shown verbatim; a disabled account is logged out and told so',
    async () => {
      const userName = `ban_${randomBytes(3).toString('hex')}`
      const password = 'Passw0rd!'
      const registered = await server.client().post('/api/account/register', { userName, email: `${userName}@example.com`, password })
      expect(registered.body).toMatchObject({ data: 'LoggedIn' })

      const session = await newSession(browser, server.url)
      const { page } = session
      try {
        // A wrong password: the server's title, verbatim.
        await page.goto('/account/login')
        await page.getByTestId('login-username').fill(userName)
        await page.getByTestId('login-password').fill('WrongPassw0rd')
        await page.getByTestId('login-submit').click()
        await page.getByText('用户名或密码错误').waitFor()
        // Client-side validation mirrors the shared schema's message.
        await page.getByTestId('login-password').fill('123')
        await page.getByTestId('login-submit').click()
        await page.getByText('密码过短').waitFor()
        await screenshot(page, 'errors-01-login-failed')

        // Registering the same user name again: the Identity error title, verbatim.
        await page.goto('/account/register')
        await page.getByTestId('register-username').fill(userName)
        await page.getByTestId('register-email').fill(`other_${userName}@example.com`)
        await page.getByTestId('register-password').fill(password)
        await page.getByTestId('register-confirm').fill(password)
        await page.getByTestId('register-submit').click()
        await page.getByText(`用户名 ${userName} 已存在`).waitFor()

        // Sign in, then an admin bans the account. This server ends a banned user's sessions, so
        // the client learns it from the realtime disconnect + profile refresh and signs out.
        await page.goto('/account/login?from=/about')
        await page.getByTestId('login-username').fill(userName)
        await page.getByTestId('login-password').fill(password)
        await page.getByTestId('login-submit').click()
        await page.getByTestId('about-page').waitFor()
        await page.getByTestId('user-menu').waitFor()
        await page.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor()
        const { userId } = await page.evaluate(async () => (await fetch('/api/account/profile')).json())
        const admin = await server.admin()
        expect((await admin.put(`/api/admin/users/${userId}`, { role: 'Banned' })).status).toBe(200)
        await page.getByTestId('nav-login').waitFor({ timeout: 20_000 })
        await screenshot(page, 'errors-02-banned-signed-out')

        // The contract's form of a ban: GET /api/account/profile answers body status 403. The
        // client logs out and says the account is disabled (docs/compatibility.md#group-account).
        const other = `dis_${randomBytes(3).toString('hex')}`
        await server.client().post('/api/account/register', { userName: other, email: `${other}@example.com`, password })
        await page.goto('/account/login')
        await page.getByTestId('login-username').fill(other)
        await page.getByTestId('login-password').fill(password)
        await page.getByTestId('login-submit').click()
        await page.getByTestId('user-menu').waitFor()
        await page.route('**/api/account/profile', (route) =>
          route.fulfill({ status: 403, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ title: '无权访问', status: 403 }) }),
        )
        const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/account/logout'))
        await page.waitForTimeout(2_100) // past the revalidation de-duplication window
        await page.evaluate(() => window.dispatchEvent(new Event('focus')))
        await page.getByText('账户已被禁用').waitFor()
        expect((await loggedOut).status()).toBe(200)
        await page.getByTestId('nav-login').waitFor()
        await screenshot(page, 'errors-03-account-disabled')
        await page.unroute('**/api/account/profile')
        await expect(page.evaluate(async () => (await fetch('/api/account/profile')).status)).resolves.toBe(401)
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'the global configuration is pushed live over the realtime connection',
    async () => {
      const session = await newSession(browser, server.url)
      const { page } = session
      try {
        await page.goto('/about')
        await page.getByTestId('about-page').waitFor()
        await page.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor()
        await expect(page.title()).resolves.toBe('Flagwave::CTF')

        const admin = await server.admin()
        const res = await admin.put('/api/admin/config', { globalConfig: { title: 'Live', slogan: 'Realtime first', beianInfo: '京ICP备12345678号' } })
        expect(res.status).toBe(200)

        await page.waitForFunction(() => document.querySelector('[data-testid="platform-title"]')?.textContent === 'Live::CTF')
        await expect(page.getByTestId('footer-slogan').textContent()).resolves.toBe('Realtime first')
        await expect(page.getByTestId('footer-beian').textContent()).resolves.toBe('京ICP备12345678号')
        await expect(page.title()).resolves.toBe('Live::CTF')
        await screenshot(page, 'config-01-live-update')

        // A fresh load reads the same values over REST.
        await page.reload()
        await page.getByTestId('about-page').waitFor()
        await page.waitForFunction(() => document.querySelector('[data-testid="footer-title"]')?.textContent === 'Live::CTF')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'registration shows the outcome chosen by the account policy, and when it is disabled',
    async () => {
      const admin = await server.admin()
      const policy = (accountPolicy: Record<string, unknown>) => admin.put('/api/admin/config', { accountPolicy })
      const session = await newSession(browser, server.url)
      const { page } = session
      const register = async (prefix: string) => {
        const name = `${prefix}_${randomBytes(3).toString('hex')}`
        await page.goto('/account/register')
        await page.getByTestId('register-username').fill(name)
        await page.getByTestId('register-email').fill(`${name}@example.com`)
        await page.getByTestId('register-password').fill('Passw0rd!')
        await page.getByTestId('register-confirm').fill('Passw0rd!')
        await page.getByTestId('register-submit').click()
      }
      try {
        expect((await policy({ activeOnRegister: false, emailConfirmationRequired: false })).status).toBe(200)
        await register('adm')
        await page.locator('[data-testid="register-result"][data-status="AdminConfirmationRequired"]').waitFor()
        await expect(page.getByTestId('register-result').textContent()).resolves.toContain('注册成功，等待管理员审核')
        await expect(page.getByTestId('user-menu').count()).resolves.toBe(0)
        await screenshot(page, 'register-01-awaiting-admin')

        expect((await policy({ allowRegister: false })).status).toBe(200)
        await register('off')
        await page.getByTestId('register-disabled').waitFor()
        await expect(page.getByTestId('register-submit').isDisabled()).resolves.toBe(true)
        await screenshot(page, 'register-02-disabled')
      } finally {
        await policy({ allowRegister: true, activeOnRegister: true, emailConfirmationRequired: false })
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
})
