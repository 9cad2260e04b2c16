/**
 * No 401 on an anonymous page load (issue 16), in Chromium against the real server: the client asks
 * for the profile only when the readable `Flagwave.SignedIn` marker says a session cookie was handed
 * out (docs/compatibility.md#sessions-and-roles). Signing in through the form sets it, so the
 * session survives a reload; signing out clears it; a marker without a session, or a session from
 * before the marker existed, is put in step by the page itself.
 */
import type { Browser, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, type BrowserSession } from '../support/browser.js'
import { createUser } from '../support/factories/users.js'

const E2E_TIMEOUT = 90_000
const MARKER = 'Flagwave.SignedIn'

describe.skipIf(!browserAvailable())('anonymous page loads and the session marker (Chromium)', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Every API answer of the session, to look for 401s and profile requests. */
  function recordApi(session: BrowserSession): Response[] {
    const answers: Response[] = []
    session.page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/')) answers.push(response)
    })
    return answers
  }
  const profileAsked = (answers: Response[]) => answers.filter((r) => new URL(r.url()).pathname === '/api/account/profile')
  const marker = async (page: Page) => (await page.context().cookies()).find((c) => c.name === MARKER)

  it(
    'an anonymous visitor opens pages without a 401 or a console error, in both languages',
    async () => {
      for (const locale of ['zh-CN', 'en-US']) {
        const session = await newSession(browser, server.url, { locale })
        const answers = recordApi(session)
        await runInSession(session, `anonymous-load-${locale}`, async (page) => {
          for (const path of ['/', '/games', '/account/login']) {
            await page.goto(path, { waitUntil: 'networkidle' })
          }
          await page.getByTestId('login-page').waitFor()
          expect(answers.filter((r) => r.status() === 401).map((r) => r.url())).toEqual([])
          expect(profileAsked(answers)).toEqual([])
          expect(session.errors).toEqual([])
          expect(await marker(page)).toBeUndefined()
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'signing in through the form sets the marker and survives a reload; signing out clears it',
    async () => {
      const { user, password } = await createUser(server)
      const session = await newSession(browser, server.url)
      const answers = recordApi(session)
      await runInSession(session, 'anonymous-load-sign-in', async (page) => {
        await page.goto('/account/login', { waitUntil: 'networkidle' })
        await page.getByTestId('login-username').fill(user.userName)
        await page.getByTestId('login-password').fill(password)
        await page.getByTestId('login-submit').click()
        await page.getByTestId('user-menu').waitFor()
        const set = await marker(page)
        expect(set?.value).toBe('1')
        expect(set?.httpOnly).toBe(false)
        const session = (await page.context().cookies()).find((c) => c.name === 'GZCTF_Token')
        expect(session?.httpOnly).toBe(true)
        expect(Math.abs(set!.expires - session!.expires)).toBeLessThan(2)

        await page.reload({ waitUntil: 'networkidle' })
        await page.getByTestId('user-menu').waitFor()
        expect(profileAsked(answers).every((r) => r.status() === 200)).toBe(true)

        await page.getByTestId('user-menu').click()
        await page.getByTestId('user-menu-logout').click()
        await page.getByTestId('nav-login').waitFor()
        expect(await marker(page)).toBeUndefined()
        const before = answers.length
        await page.reload({ waitUntil: 'networkidle' })
        await page.getByTestId('nav-login').waitFor()
        expect(profileAsked(answers.slice(before))).toEqual([])
        expect(answers.filter((r) => r.status() === 401).map((r) => r.url())).toEqual([])
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'the page puts the marker in step: a stale marker is dropped without a request, a session without one gains it',
    async () => {
      const stale = await newSession(browser, server.url)
      const staleAnswers = recordApi(stale)
      await runInSession(stale, 'anonymous-load-stale-marker', async (page) => {
        await page.context().addCookies([{ name: MARKER, value: '1', url: server.url }])
        await page.goto('/', { waitUntil: 'networkidle' })
        await page.getByTestId('nav-login').waitFor()
        expect(await marker(page)).toBeUndefined()
        expect(staleAnswers.filter((r) => r.status() === 401).map((r) => r.url())).toEqual([])
        expect(stale.errors).toEqual([])
      })

      const { client } = await createUser(server)
      const legacy = newSession(browser, server.url)
      const session = await legacy
      await runInSession(session, 'anonymous-load-legacy-session', async (page) => {
        await page.context().addCookies([{ name: 'GZCTF_Token', value: client.cookies.get('GZCTF_Token')!, url: server.url, httpOnly: true }])
        await page.goto('/', { waitUntil: 'networkidle' })
        await page.getByTestId('user-menu').waitFor()
        expect((await marker(page))?.value).toBe('1')
      })
    },
    E2E_TIMEOUT,
  )
})
