/**
 * The first page's JavaScript (docs/operations.md#benchmarks): an anonymous visitor opening the
 * home page downloads less than 250 KB of scripts, gzipped — everything the page fetched until the
 * network went quiet, the realtime client included, in either language. The English dictionary is
 * data, not a script: a hashed JSON asset only an English page fetches (Chinese reads its keys),
 * and it must not come as a script chunk. Sizes are the
 * decoded bodies gzipped at zlib's default level (what the server's gzip sends; Chromium is
 * offered zstd, which would measure something else).
 */
import { gzipSync } from 'node:zlib'
import type { Browser, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession } from '../support/browser.js'

const BUDGET_BYTES = 250 * 1024
const E2E_TIMEOUT = 60_000
const DICTIONARY = /\/static\/en-[\w-]+\.json$/

describe.skipIf(!browserAvailable())('first page JavaScript (Chromium)', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  for (const locale of ['zh-CN', 'en-US']) {
    it(
      `${locale}: the home page's scripts weigh < 250 KB gzipped in all, and only English fetches its dictionary, as JSON`,
      async () => {
        const session = await newSession(browser, server.url, { locale })
        const scripts: Response[] = []
        const dictionaries: Response[] = []
        session.page.on('response', (response) => {
          if (response.request().resourceType() === 'script') scripts.push(response)
          else if (DICTIONARY.test(new URL(response.url()).pathname)) dictionaries.push(response)
        })
        await runInSession(session, `first-page-${locale}`, async (page) => {
          await page.goto('/', { waitUntil: 'networkidle' })
          await page.getByTestId('home-page').waitFor()
          await page.waitForLoadState('networkidle')
          const gzipped = async (response: Response) => gzipSync(await response.body()).length
          const sizes = await Promise.all(scripts.map(gzipped))
          const total = sizes.reduce((sum, bytes) => sum + bytes, 0)
          const dictionary = (await Promise.all(dictionaries.map(gzipped))).reduce((sum, bytes) => sum + bytes, 0)
          console.info(`[first page ${locale}] ${sizes.length} scripts: ${(total / 1024).toFixed(1)} KB gzipped in all; dictionary (JSON) ${(dictionary / 1024).toFixed(1)} KB`)
          expect(sizes.length).toBeGreaterThan(1)
          expect(total).toBeLessThan(BUDGET_BYTES)
          expect(scripts.filter((response) => /\/static\/en-/.test(new URL(response.url()).pathname))).toEqual([])
          expect(dictionaries.map((response) => response.status())).toEqual(locale === 'en-US' ? [200] : [])
          if (locale === 'en-US') {
            // The dictionary arrived and was applied: the page reads in English.
            await expect(page.getByTestId('nav-login').textContent()).resolves.toMatch(/Sign in|Log in/i)
          }
        })
      },
      E2E_TIMEOUT,
    )
  }
})
