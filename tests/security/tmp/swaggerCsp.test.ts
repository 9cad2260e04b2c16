import { it, expect } from 'vitest'
import { startTestServer } from '../../support/server.js'
import { launchBrowser, newSession } from '../../support/browser.js'
it('swagger under CSP', { timeout: 120_000 }, async () => {
  const server = await startTestServer()
  const browser = await launchBrowser()
  try {
    const s = await newSession(browser, server.url)
    await s.page.goto('/swagger')
    await s.page.locator('.opblock').first().waitFor({ timeout: 60_000 })
    console.log('ERRORS', JSON.stringify(s.errors))
    expect(s.errors.filter((e) => /Content Security Policy/.test(e))).toEqual([])
  } finally {
    await browser.close()
    await server.close()
  }
})
