/**
 * The Swagger UI (`/swagger`) renders its operations in Chromium under the production Content
 * Security Policy: its scripts and styles come from the server itself, so the policy refuses
 * nothing and the page loads no resource that is missing.
 */
import { expect, it } from 'vitest'
import { startTestServer } from '../support/server.js'
import { launchBrowser, newSession } from '../support/browser.js'

it('renders the Swagger UI under the Content Security Policy, every resource found', { timeout: 120_000 }, async () => {
  const server = await startTestServer()
  const browser = await launchBrowser()
  try {
    const s = await newSession(browser, server.url)
    const missing: string[] = []
    s.page.on('response', (res) => {
      if (res.status() >= 400) missing.push(`${res.status()} ${res.url()}`)
    })
    await s.page.goto('/swagger')
    await s.page.locator('.opblock').first().waitFor({ timeout: 60_000 })
    expect(missing).toEqual([])
    expect(s.errors).toEqual([])
  } finally {
    await browser.close()
    await server.close()
  }
})
