/**
 * The administration screens end to end in Chromium against the real server (which serves
 * client/dist): the Admin closes registration in admin/Configs (validation, dirty indicator, only
 * the changed leaf sent, save notification); a visitor's Register page in another context is
 * refused with `注册功能已禁用`; the Admin's Logs page, open in another tab, shows the
 * config-change entry live, and its level filter asks the server. admin/Instances lists a team
 * container with its entry and a running countdown and destroys it after confirmation.
 */
import { randomBytes } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import type { ApiClient } from '../support/client.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstanceContainer, createPlayer, isolateIds } from '../support/factories/play.js'

const E2E_TIMEOUT = 180_000

describe.skipIf(!browserAvailable())('administration screens (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let admin: ApiClient

  beforeAll(async () => {
    // No reaper run during the test: the factory's containers are unknown to the (absent) engine.
    ;[server, browser] = await Promise.all([startTestServer({ env: { CONTAINER_REAPER_INTERVAL_MS: '3600000' } }), launchBrowser()])
    await isolateIds(server)
    admin = await server.admin()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'the admin closes registration; a visitor is refused; the log tail shows the change live',
    async () => {
      const session = await newSession(browser, server.url)
      await signIn(session.context, admin, server.url)
      const logs = await session.context.newPage()
      await runInSession(session, 'admin-config', async (page) => {
        // Tab 1: the log tail, connected to /hub/admin.
        await logs.goto('/admin/logs')
        await logs.getByTestId('admin-logs-page').waitFor()
        await logs.getByTestId('admin-logs-page').locator('[data-testid="realtime-status"][data-status="connected"]').waitFor({ timeout: 15_000 })
        await logs.locator('[data-testid="logs-table-row"], [data-testid="logs-table-empty"]').first().waitFor()
        const before = await logs.getByTestId('logs-table-row').count()
        await logs.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))

        // Tab 2: the settings. Navigation of an Admin: both entries.
        await page.goto('/admin/configs')
        await page.getByTestId('admin-configs-page').waitFor()
        await page.getByTestId('nav-admin').waitFor()
        await page.getByTestId('nav-monitor').waitFor()
        await expect(page.getByTestId('config-title').inputValue()).resolves.toBe('Flagwave')
        await expect(page.getByTestId('config-allow-register').isChecked()).resolves.toBe(true)
        await page.getByTestId('config-clean').waitFor()
        await screenshot(page, 'admin-config-01-loaded')

        // Validation: an empty title and a malformed domain are refused with their messages.
        await page.getByTestId('config-title').fill('')
        await page.getByText('平台名称不能为空').waitFor()
        await page.getByTestId('config-email-domains').fill('example.com, not a domain')
        await page.getByText('邮箱域名格式错误：not a domain').waitFor()
        await page.getByTestId('config-dirty').waitFor()
        let puts = 0
        page.on('request', (r) => {
          if (r.method() === 'PUT' && r.url().endsWith('/api/admin/config')) puts += 1
        })
        await page.getByTestId('config-save').click()
        await page.waitForTimeout(300)
        expect(puts).toBe(0)
        await screenshot(page, 'admin-config-02-invalid')
        // Undo: back to the stored values, no unsaved changes.
        await page.getByTestId('config-reset').click()
        await page.getByTestId('config-clean').waitFor()
        await expect(page.getByTestId('config-title').inputValue()).resolves.toBe('Flagwave')

        // Close registration: dirty, then saved with only that leaf.
        await page.getByTestId('config-allow-register').dispatchEvent('click')
        await expect(page.getByTestId('config-allow-register').isChecked()).resolves.toBe(false)
        await page.getByTestId('config-dirty').waitFor()
        await screenshot(page, 'admin-config-03-dirty')
        const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/admin/config'))
        const answered = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/admin/config'))
        await page.getByTestId('config-save').click()
        expect((await saved).postDataJSON()).toEqual({ accountPolicy: { allowRegister: false }, globalConfig: null, gamePolicy: null })
        expect((await answered).status()).toBe(200)
        await page.locator('.mantine-Notification-root', { hasText: '全局设置已更新' }).waitFor()
        await page.getByTestId('config-clean').waitFor()
        await screenshot(page, 'admin-config-04-saved')
        expect((await admin.get('/api/admin/config')).body.accountPolicy).toMatchObject({ allowRegister: false, activeOnRegister: true })
        // Still closed after a reload.
        await page.reload()
        await page.getByTestId('admin-configs-page').waitFor()
        await page.waitForFunction(() => (document.querySelector('[data-testid="config-allow-register"]') as HTMLInputElement | null)?.checked === false)

        // The log tail got the entry live, on top, highlighted, with its status.
        await logs.bringToFront()
        await logs.waitForFunction((n) => document.querySelectorAll('[data-testid="logs-table-row"]').length > n, before, { timeout: 15_000 })
        const entry = logs.locator('[data-testid="logs-table-row"]', { hasText: '全局设置已更新' }).first()
        await entry.waitFor()
        await expect(entry.getAttribute('data-level')).resolves.toBe('Information')
        await expect(entry.getByTestId('log-status').getAttribute('data-status')).resolves.toBe('Success')
        await expect(entry.textContent()).resolves.toContain('Admin')
        await expect(logs.getByTestId('logs-table-row').first().getByTestId('log-message').textContent()).resolves.toBe('全局设置已更新')
        expect(await logs.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true)
        // A refetch recognises the pushed line (REST and hub times differ only in their offset).
        const shown = await logs.getByTestId('logs-table-row').count()
        const refetched = logs.waitForResponse((r) => r.url().includes('/api/admin/logs') && r.url().includes('skip=0'))
        await logs.getByTestId('logs-live-refresh').click()
        expect((await refetched).status()).toBe(200)
        await logs.waitForTimeout(300)
        expect(await logs.getByTestId('logs-table-row').count()).toBe(shown)
        await screenshot(logs, 'admin-config-05-log-live')

        // The level filter asks the server: no Warning entries here.
        const warning = logs.waitForResponse((r) => r.url().includes('/api/admin/logs') && r.url().includes('level=Warning'))
        await logs.getByTestId('log-level-filter').getByText('警告').click()
        expect((await warning).status()).toBe(200)
        await logs.waitForFunction(() => [...document.querySelectorAll('[data-testid="logs-table-row"]')].every((r) => r.getAttribute('data-level') === 'Warning'))
        await logs.getByTestId('log-level-filter').getByText('全部').click()
        await logs.locator('[data-testid="logs-table-row"]', { hasText: '全局设置已更新' }).first().waitFor()
      })

      // A visitor (another context): registration is refused with the server's title.
      const visitor = await newSession(browser, server.url)
      await runInSession(visitor, 'admin-config-visitor', async (page) => {
        const name = `v${randomBytes(3).toString('hex')}`
        await page.goto('/account/register')
        await page.getByTestId('register-page').waitFor()
        await page.getByTestId('register-username').fill(name)
        await page.getByTestId('register-email').fill(`${name}@example.com`)
        await page.getByTestId('register-password').fill('Passw0rd!')
        await page.getByTestId('register-confirm').fill('Passw0rd!')
        const refused = page.waitForResponse((r) => r.url().endsWith('/api/account/register'))
        await page.getByTestId('register-submit').click()
        const response = await refused
        expect(response.status()).toBe(400)
        expect(await response.json()).toEqual({ title: '注册功能已禁用', status: 400 })
        await page.getByTestId('register-disabled').waitFor()
        await expect(page.getByTestId('register-disabled').textContent()).resolves.toContain('注册功能已禁用')
        await screenshot(page, 'admin-config-06-register-disabled')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'instances: entry, countdown, destroy after confirmation',
    async () => {
      const game = await createGame(server, { practiceMode: false })
      const challenge = await createChallenge(server, game, { title: 'Boxed', type: 'StaticContainer' })
      const player = await createPlayer(server, game)
      const container = await createInstanceContainer(server, player.participation, challenge, { publicIp: '198.51.100.7', publicPort: 30001 })

      const session = await newSession(browser, server.url)
      await signIn(session.context, admin, server.url)
      await runInSession(session, 'admin-instances', async (page) => {
        await page.goto('/admin/instances')
        await page.getByTestId('admin-instances-page').waitFor()
        const row = page.locator(`[data-testid="instance-row"][data-guid="${container.id}"]`)
        await row.waitFor()
        await expect(row.getByTestId('instance-team').textContent()).resolves.toBe(player.team.name)
        await expect(row.getByTestId('instance-challenge').textContent()).resolves.toBe('Boxed')
        await expect(row.getByTestId('instance-image').textContent()).resolves.toBe('test/image:latest')
        await expect(row.getByTestId('instance-entry').textContent()).resolves.toBe('198.51.100.7:30001')
        const first = await row.getByTestId('instance-remaining').textContent()
        expect(first).toMatch(/^01:5\d:\d\d$/)
        await page.waitForFunction((text) => document.querySelector('[data-testid="instance-remaining"]')?.textContent !== text, first)
        await screenshot(page, 'admin-instances-01-list')

        // Cancel keeps it; confirm destroys it.
        await row.getByTestId('instance-destroy').click()
        await page.getByTestId('confirm-cancel').click()
        await page.waitForTimeout(300)
        await expect(row.count()).resolves.toBe(1)
        await row.getByTestId('instance-destroy').click()
        const destroyed = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().endsWith(`/api/admin/instances/${container.id}`))
        await page.getByTestId('confirm-ok').click()
        expect((await destroyed).status()).toBe(200)
        await row.waitFor({ state: 'detached' })
        await page.getByTestId('instances-empty').waitFor()
        expect((await admin.get('/api/admin/instances')).body).toEqual({ data: [], length: 0, total: 0 })
        await screenshot(page, 'admin-instances-02-destroyed')
      })
    },
    E2E_TIMEOUT,
  )
})
