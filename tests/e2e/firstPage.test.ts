/**
 * The first page's JavaScript (docs/operations.md#benchmarks): an anonymous visitor opening the
 * home page downloads less than 250 KB of application scripts, gzipped — everything the page
 * fetched until the network went quiet, the realtime client included. The English dictionary is
 * the one addition, and only an English page fetches it: Chinese reads its keys. Sizes are the
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
const DICTIONARY = /\/static\/en-[\w-]+\.js$/

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
      `${locale}: the home page's application scripts weigh < 250 KB gzipped, and only English fetches a dictionary`,
      async () => {
        const session = await newSession(browser, server.url, { locale })
        const scripts: Response[] = []
        session.page.on('response', (response) => {
          if (response.request().resourceType() === 'script') scripts.push(response)
        })
        await runInSession(session, `first-page-${locale}`, async (page) => {
          await page.goto('/', { waitUntil: 'networkidle' })
          await page.getByTestId('home-page').waitFor()
          await page.waitForLoadState('networkidle')
          const sized = await Promise.all(scripts.map(async (response) => ({ url: response.url(), bytes: gzipSync(await response.body()).length })))
          const dictionaries = sized.filter((s) => DICTIONARY.test(s.url))
          const application = sized.filter((s) => !DICTIONARY.test(s.url)).reduce((sum, s) => sum + s.bytes, 0)
          const dictionary = dictionaries.reduce((sum, s) => sum + s.bytes, 0)
          console.info(`[first page ${locale}] ${sized.length} scripts: application ${(application / 1024).toFixed(1)} KB + dictionary ${(dictionary / 1024).toFixed(1)} KB gzipped`)
          expect(sized.length).toBeGreaterThan(1)
          expect(application).toBeLessThan(BUDGET_BYTES)
          expect(dictionaries.length).toBe(locale === 'en-US' ? 1 : 0)
        })
      },
      E2E_TIMEOUT,
    )
  }
})
