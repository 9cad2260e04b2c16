/**
 * Captcha on the account screens (docs/compatibility.md#group-info, #account-shapes ModelWithCaptcha), in Chromium against the
 * real server (which serves client/dist):
 * - with the default settings GET /api/captcha says `None`: no captcha script is requested on the
 *   login, register or recovery screens and logging in works (`challenge: null`);
 * - with Cloudflare Turnstile configured and the account policy `useCaptcha` on, the login screen
 *   loads the Turnstile script and renders the widget; without solving it the login is refused
 *   with `验证码校验失败`, a rejected token resets the widget, a solved one signs in; the server
 *   checks the token with a local verify endpoint started here;
 * - a Turnstile script that cannot be loaded shows a clear error (and a retry) instead of hanging;
 * - with Google reCAPTCHA v3 the script is loaded with the site key and a token is taken with
 *   `grecaptcha.execute(siteKey, { action })` at submit.
 *
 * Cloudflare's script cannot be reached from the test environment (and must not be: tests stay
 * offline), so `page.route` answers its URL with a tiny fake `turnstile` global that renders a
 * button; clicking it "solves" the challenge with a token. The fake stands in for Cloudflare's
 * script only — the client's loading, rendering, token, reset and the server's verification are real.
 * Google's reCAPTCHA script is replaced the same way.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot } from '../support/browser.js'
import { createUser, type TestUser } from '../support/factories/users.js'

const E2E_TIMEOUT = 120_000
const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'
const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=recaptcha-site'
const CAPTCHA_HOSTS = /(^|\.)(google\.com|gstatic\.com|recaptcha\.net|cloudflare\.com)$/

/**
 * Stand-in for Cloudflare's Turnstile script (unreachable here): `turnstile.render` adds a button;
 * clicking it passes `window.__fakeToken` (default 'ok') to the widget's callback. Calls are
 * counted on `window.__turnstile` for the assertions.
 */
const FAKE_TURNSTILE = `(() => {
  const widgets = new Map()
  const log = (window.__turnstile = { renders: [], resets: 0, removes: 0 })
  let next = 0
  window.turnstile = {
    render(container, options) {
      const id = 'fake-' + ++next
      const host = typeof container === 'string' ? document.querySelector(container) : container
      const button = document.createElement('button')
      button.type = 'button'
      button.dataset.testid = 'fake-turnstile'
      button.textContent = '我是人类（模拟 Turnstile）'
      button.onclick = () => {
        const token = window.__fakeToken || 'ok'
        widgets.get(id).token = token
        button.textContent = '已验证'
        options.callback && options.callback(token)
      }
      host.appendChild(button)
      widgets.set(id, { button, token: undefined })
      log.renders.push({ sitekey: options.sitekey, action: options.action, theme: options.theme })
      return id
    },
    reset(id) {
      const widget = widgets.get(id)
      if (widget) { widget.token = undefined; widget.button.textContent = '我是人类（模拟 Turnstile）' }
      log.resets++
    },
    remove(id) {
      const widget = widgets.get(id)
      if (widget) { widget.button.remove(); widgets.delete(id) }
      log.removes++
    },
    getResponse(id) { return widgets.get(id)?.token },
  }
})()`

/** Stand-in for Google's reCAPTCHA v3 script: `execute` records its arguments and answers 'ok'. */
const FAKE_RECAPTCHA = `(() => {
  const calls = (window.__recaptcha = [])
  window.grecaptcha = {
    ready(callback) { setTimeout(callback, 0) },
    execute(siteKey, options) { calls.push({ siteKey, action: options.action }); return Promise.resolve('ok') },
  }
})()`

interface FakeLog {
  renders: { sitekey: string; action: string; theme: string }[]
  resets: number
  removes: number
}

/** A local stand-in for Cloudflare's siteverify: success only for the token 'ok'. */
async function startVerifyServer() {
  const calls: { secret: string | null; response: string | null }[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      const call = { secret: form.get('secret'), response: form.get('response') }
      calls.push(call)
      const success = call.secret === 'secret' && call.response === 'ok'
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Every request the page makes to a host other than the platform's. */
function watchForeignRequests(page: Page, baseUrl: string): string[] {
  const origin = new URL(baseUrl).origin
  const foreign: string[] = []
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) foreign.push(url)
  })
  return foreign
}

const isLogin = (request: Request) => request.url().endsWith('/api/account/login') && request.method() === 'POST'

/** The failure notification of the login screen with the server's title as its message. */
const loginFailure = (page: Page, message: string) => page.locator('.mantine-Notification-root', { hasText: '登录失败' }).filter({ hasText: message })

describe.skipIf(!browserAvailable())('captcha on the account screens (Chromium)', () => {
  let plain: TestServer
  let guarded: TestServer
  let recaptcha: TestServer
  let verify: Awaited<ReturnType<typeof startVerifyServer>>
  let browser: Browser
  let plainUser: TestUser
  let guardedUser: TestUser
  let recaptchaUser: TestUser

  beforeAll(async () => {
    verify = await startVerifyServer()
    ;[plain, guarded, recaptcha, browser] = await Promise.all([
      startTestServer(),
      startTestServer({
        env: {
          CAPTCHA_PROVIDER: 'CloudflareTurnstile',
          CAPTCHA_SITE_KEY: 'site',
          CAPTCHA_SECRET_KEY: 'secret',
          CAPTCHA_VERIFY_URL_TURNSTILE: verify.url,
        },
      }),
      startTestServer({
        env: {
          CAPTCHA_PROVIDER: 'GoogleRecaptcha',
          CAPTCHA_SITE_KEY: 'recaptcha-site',
          CAPTCHA_SECRET_KEY: 'secret',
          CAPTCHA_VERIFY_URL_RECAPTCHA: verify.url,
        },
      }),
      launchBrowser(),
    ])
    plainUser = await createUser(plain)
    // Created (and signed in through the API) before the captcha is switched on.
    guardedUser = await createUser(guarded)
    await guarded.services.settings.update(guarded.services.orm.em.fork(), { accountPolicy: { useCaptcha: true } })
    recaptchaUser = await createUser(recaptcha)
    await recaptcha.services.settings.update(recaptcha.services.orm.em.fork(), { accountPolicy: { useCaptcha: true } })
  })

  afterAll(async () => {
    await browser?.close()
    await Promise.all([plain?.close(), guarded?.close(), recaptcha?.close()])
    await verify?.close()
  })

  it(
    'default settings: no captcha script on login, register or recovery; logging in works',
    async () => {
      await expect(plain.client().get('/api/captcha').then((r) => r.body)).resolves.toEqual({ type: 'None', siteKey: '' })
      const session = await newSession(browser, plain.url)
      const foreign = watchForeignRequests(session.page, plain.url)
      await runInSession(session, 'captcha-none', async (page) => {
        for (const [path, testId] of [
          ['/account/register', 'register-page'],
          ['/account/recovery', 'recovery-page'],
        ] as const) {
          await page.goto(path)
          await page.getByTestId(testId).waitFor()
        }

        const captchaInfo = page.waitForResponse((r) => r.url().endsWith('/api/captcha'))
        await page.goto('/account/login')
        await page.getByTestId('login-page').waitFor()
        // The body was checked over the API above; a body of a navigated-away page cannot be read.
        expect((await captchaInfo).status()).toBe(200)
        await expect(page.getByTestId('captcha').count()).resolves.toBe(0)

        await page.getByTestId('login-username').fill(plainUser.user.userName)
        await page.getByTestId('login-password').fill(plainUser.password)
        const login = page.waitForRequest(isLogin)
        await page.getByTestId('login-submit').click()
        expect((await login).postDataJSON()).toEqual({ userName: plainUser.user.userName, password: plainUser.password, challenge: null })
        await page.getByTestId('home-page').waitFor()
        await expect(page.getByTestId('user-menu-name').textContent()).resolves.toBe(plainUser.user.userName)
        await screenshot(page, 'captcha-01-none-logged-in')

        // No script was added for a captcha, and nothing left the platform's origin.
        await expect(page.locator('script[data-captcha]').count()).resolves.toBe(0)
        expect(foreign.filter((url) => CAPTCHA_HOSTS.test(new URL(url).hostname))).toEqual([])
        expect(foreign).toEqual([])
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'Turnstile: unsolved → 验证码校验失败; a rejected token resets the widget; solved → signed in',
    async () => {
      await expect(guarded.client().get('/api/captcha').then((r) => r.body)).resolves.toEqual({ type: 'CloudflareTurnstile', siteKey: 'site' })
      const session = await newSession(browser, guarded.url)
      const scriptRequests: string[] = []
      // Cloudflare is unreachable from here: serve the fake `turnstile` global in its place.
      await session.context.route(TURNSTILE_SCRIPT, (route) => {
        scriptRequests.push(route.request().url())
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_TURNSTILE })
      })
      const fakeLog = (page: Page) => page.evaluate(() => (window as unknown as { __turnstile: FakeLog }).__turnstile)

      await runInSession(session, 'captcha-turnstile', async (page) => {
        await page.goto('/account/login')
        await page.getByTestId('login-page').waitFor()
        await page.locator('[data-testid="captcha"][data-provider="CloudflareTurnstile"][data-state="ready"]').waitFor()
        await page.getByTestId('fake-turnstile').waitFor()
        expect(scriptRequests).toEqual([TURNSTILE_SCRIPT])
        expect((await fakeLog(page)).renders).toEqual([{ sitekey: 'site', action: 'login', theme: 'dark' }])
        await screenshot(page, 'captcha-02-turnstile-widget')

        await page.getByTestId('login-username').fill(guardedUser.user.userName)
        await page.getByTestId('login-password').fill(guardedUser.password)

        // Not solved: no token is sent and the server refuses.
        let login = page.waitForRequest(isLogin)
        let answer = page.waitForResponse((r) => isLogin(r.request()))
        await page.getByTestId('login-submit').click()
        expect((await login).postDataJSON()).toMatchObject({ challenge: null })
        expect((await answer).status()).toBe(400)
        await expect((await answer).json()).resolves.toEqual({ title: '验证码校验失败', status: 400 })
        await loginFailure(page, '验证码校验失败').first().waitFor()
        await screenshot(page, 'captcha-03-turnstile-unsolved')
        expect(verify.calls).toEqual([])
        await page.getByTestId('login-page').waitFor()
        await expect(page.getByTestId('user-menu').count()).resolves.toBe(0)

        // A token the provider rejects: refused, and the widget is reset for a new challenge.
        await page.evaluate(() => ((window as unknown as { __fakeToken: string }).__fakeToken = 'rejected'))
        await page.getByTestId('fake-turnstile').click()
        await page.locator('[data-testid="captcha"][data-state="solved"]').waitFor()
        const resetsBefore = (await fakeLog(page)).resets
        login = page.waitForRequest(isLogin)
        answer = page.waitForResponse((r) => isLogin(r.request()))
        await page.getByTestId('login-submit').click()
        expect((await login).postDataJSON()).toMatchObject({ challenge: 'rejected' })
        await expect((await answer).json()).resolves.toEqual({ title: '验证码校验失败', status: 400 })
        expect(verify.calls).toEqual([{ secret: 'secret', response: 'rejected' }])
        await page.locator('[data-testid="captcha"][data-state="ready"]').waitFor()
        expect((await fakeLog(page)).resets).toBe(resetsBefore + 1)

        // Solved: signed in and sent back home.
        await page.evaluate(() => ((window as unknown as { __fakeToken: string }).__fakeToken = 'ok'))
        await page.getByTestId('fake-turnstile').click()
        await page.locator('[data-testid="captcha"][data-state="solved"]').waitFor()
        login = page.waitForRequest(isLogin)
        await page.getByTestId('login-submit').click()
        expect((await login).postDataJSON()).toEqual({ userName: guardedUser.user.userName, password: guardedUser.password, challenge: 'ok' })
        await page.getByTestId('home-page').waitFor()
        await expect(page.getByTestId('user-menu-name').textContent()).resolves.toBe(guardedUser.user.userName)
        expect(verify.calls.at(-1)).toEqual({ secret: 'secret', response: 'ok' })
        // Leaving the form removed the widget.
        expect((await fakeLog(page)).removes).toBeGreaterThan(0)
        await screenshot(page, 'captcha-04-turnstile-logged-in')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'a Turnstile script that cannot be loaded shows a clear error, and retry loads it',
    async () => {
      const session = await newSession(browser, guarded.url)
      let reachable = false
      await session.context.route(TURNSTILE_SCRIPT, (route) =>
        reachable ? route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_TURNSTILE }) : route.abort('connectionrefused'),
      )
      await runInSession(session, 'captcha-unreachable', async (page) => {
        await page.goto('/account/register')
        await page.getByTestId('register-page').waitFor()
        await page.locator('[data-testid="captcha"][data-state="error"]').waitFor()
        await expect(page.getByTestId('captcha-error').textContent()).resolves.toContain('验证码组件加载失败（challenges.cloudflare.com）')
        await screenshot(page, 'captcha-05-script-failed')

        // Submitting says why at once, without a request bound to fail.
        let registered = 0
        page.on('request', (r) => {
          if (r.url().endsWith('/api/account/register')) registered += 1
        })
        await page.getByTestId('register-username').fill('captcha_user')
        await page.getByTestId('register-email').fill('captcha_user@example.com')
        await page.getByTestId('register-password').fill('Passw0rd!')
        await page.getByTestId('register-confirm').fill('Passw0rd!')
        await page.getByTestId('register-submit').click()
        await page.locator('.mantine-Notification-root', { hasText: '注册失败' }).filter({ hasText: '验证码组件加载失败' }).first().waitFor()
        expect(registered).toBe(0)

        // Retry once the script can be had: the widget appears.
        reachable = true
        await page.getByTestId('captcha-retry').click()
        await page.getByTestId('fake-turnstile').waitFor()
        await page.locator('[data-testid="captcha"][data-state="ready"]').waitFor()
        await expect(page.evaluate(() => (window as unknown as { __turnstile: FakeLog }).__turnstile.renders)).resolves.toEqual([
          { sitekey: 'site', action: 'register', theme: 'dark' },
        ])
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'reCAPTCHA v3: the script is loaded with the site key and the token is taken at submit',
    async () => {
      await expect(recaptcha.client().get('/api/captcha').then((r) => r.body)).resolves.toEqual({ type: 'GoogleRecaptcha', siteKey: 'recaptcha-site' })
      const session = await newSession(browser, recaptcha.url)
      const scriptRequests: string[] = []
      // Google is unreachable from here: serve a fake `grecaptcha` global in its place.
      await session.context.route(RECAPTCHA_SCRIPT, (route) => {
        scriptRequests.push(route.request().url())
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_RECAPTCHA })
      })
      const executed = (page: Page) => page.evaluate(() => (window as unknown as { __recaptcha: { siteKey: string; action: string }[] }).__recaptcha)
      await runInSession(session, 'captcha-recaptcha', async (page) => {
        await page.goto('/account/login')
        await page.getByTestId('login-page').waitFor()
        await page.locator('[data-testid="captcha"][data-provider="GoogleRecaptcha"][data-state="ready"]').waitFor()
        expect(scriptRequests).toEqual([RECAPTCHA_SCRIPT])
        // Invisible: nothing to solve, and no token is taken before the submit.
        await expect(executed(page)).resolves.toEqual([])
        await page.getByTestId('login-username').fill(recaptchaUser.user.userName)
        await page.getByTestId('login-password').fill(recaptchaUser.password)
        const login = page.waitForRequest(isLogin)
        await page.getByTestId('login-submit').click()
        expect((await login).postDataJSON()).toEqual({ userName: recaptchaUser.user.userName, password: recaptchaUser.password, challenge: 'ok' })
        await page.getByTestId('home-page').waitFor()
        await expect(executed(page)).resolves.toEqual([{ siteKey: 'recaptcha-site', action: 'login' }])
        expect(verify.calls.at(-1)).toEqual({ secret: 'secret', response: 'ok' })
      })
    },
    E2E_TIMEOUT,
  )
})
