/**
 * The game editor's integrations screen in Chromium against the real server: the admin switches
 * the CTFtime feed on, adds a Slack webhook (the server's WEBHOOK_SLACK_URL points at a local
 * receiver speaking Slack's format — Slack itself is out of reach here) and a generic one, whose
 * signing secret the screen shows; "send test" queues a delivery that the local receiver gets and
 * the delivery log shows as Delivered with its response code; a target that is down shows its
 * retries and failure; a private address is refused with the server's message.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createGame } from '../support/factories/games.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession } from '../support/browser.js'
import { startReceiver, type Receiver } from '../support/webhookReceivers.js'

describe.skipIf(!browserAvailable())('webhooks and CTFtime in the game editor (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let slack: Receiver

  beforeAll(async () => {
    slack = await startReceiver('slack')
    ;[server, browser] = await Promise.all([
      startTestServer({ env: { WEBHOOK_SLACK_URL: `${slack.url}/services/`, WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_TIMEOUT_MS: '1000' } }),
      launchBrowser(),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await slack?.close()
  })

  const clickSwitch = (page: Page, testId: string) => page.getByTestId(testId).locator('xpath=ancestor::label[1]').click()
  const item = (page: Page, name: string) => page.getByTestId('webhook-item').filter({ has: page.getByTestId('webhook-item-name').getByText(name, { exact: true }) })

  it('adds webhooks, sends a test, shows the delivery log and switches the CTFtime feed', { timeout: 240_000 }, async () => {
    const game = await createGame(server, { title: 'Integrations Cup' })
    const admin = await server.admin()
    await runInSession(await newSession(browser, server.url), 'webhooks', async (page) => {
      await loginAdmin(page, `/admin/games/${game.id}/info`)
      await page.getByTestId('game-edit-tab-integrations').click()
      await page.getByTestId('admin-game-integrations-page').waitFor()
      await page.getByTestId('webhooks-empty').waitFor()

      // CTFtime feed: off, then on (the public feed answers).
      expect((await server.client().get(`/api/game/${game.id}/ctftime`)).status).toBe(404)
      await clickSwitch(page, 'ctftime-switch')
      await page.getByTestId('ctftime-url').waitFor()
      expect((await admin.get(`/api/edit/games/${game.id}/ctftime`)).body).toEqual({ enabled: true })
      expect((await server.client().get(`/api/game/${game.id}/ctftime`)).status).toBe(200)

      // A Slack webhook.
      await page.getByTestId('webhook-add').click()
      await page.getByTestId('webhook-name').fill('Announcements')
      await page.getByTestId('webhook-kind').click()
      await page.getByRole('option', { name: 'Slack', exact: true }).click()
      await page.getByTestId('webhook-url').fill(`${slack.url}/services/T0/B0/XYZ`)
      await page.getByTestId('webhook-event-solve').check()
      await page.getByTestId('webhook-save').click()
      await item(page, 'Announcements').waitFor()

      // "Send test": the receiver gets Slack's request; the log shows it delivered.
      await item(page, 'Announcements').getByTestId('webhook-test').click()
      await slack.waitFor(1)
      expect(slack.received[0]).toMatchObject({ path: '/services/T0/B0/XYZ', valid: true, body: { text: '[Integrations Cup] 这是一条来自 Flagwave 的测试消息' } })
      const row = item(page, 'Announcements').getByTestId('delivery-row').first()
      await row.and(page.locator('[data-status="Delivered"]')).waitFor()
      expect(await row.getByTestId('delivery-code').textContent()).toBe('200')
      expect(await row.getByTestId('delivery-attempts').textContent()).toBe('1')

      // A private generic target is refused, with the server's reason shown.
      await page.getByTestId('webhook-add').click()
      await page.getByTestId('webhook-name').fill('Internal')
      await page.getByTestId('webhook-kind').click()
      await page.getByRole('option', { name: 'Generic', exact: true }).click()
      await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook')
      await page.getByTestId('webhook-save').click()
      await page.getByText('目标地址不被允许：127.0.0.1 is a loopback, private, link-local, multicast or reserved address').waitFor()
      // Allowed explicitly, it is saved; its signing secret is on the screen; nothing listens there.
      await clickSwitch(page, 'webhook-allow-private')
      await page.getByTestId('webhook-save').click()
      await item(page, 'Internal').waitFor()
      const [saved] = (await admin.get(`/api/edit/games/${game.id}/webhooks`)).body.filter((w: { name: string }) => w.name === 'Internal')
      expect(await item(page, 'Internal').getByTestId('webhook-secret').textContent()).toContain(saved.secret)
      await item(page, 'Internal').getByTestId('webhook-test').click()
      const failed = item(page, 'Internal').getByTestId('delivery-row').first()
      await failed.and(page.locator('[data-status="Failed"]')).waitFor({ timeout: 20_000 })
      expect(await failed.getByTestId('delivery-attempts').textContent()).toBe('2')
      expect(await failed.textContent()).toContain('ECONNREFUSED')
    })
  })
})
