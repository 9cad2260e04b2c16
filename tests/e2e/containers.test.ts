/**
 * Challenge containers in Chromium against the real Docker engine (docs/compatibility.md#group-game-containers, #group-edit; docs/architecture.md#containers): a player starts the team's container from the challenge modal,
 * sees its entry and the countdown, reads the dynamic flag from the container itself, sees the
 * reaper's "expiring" push enable prolonging, prolongs, destroys, starts again, and after the
 * correct flag the container is released on its own. An editor starts and stops a test
 * container from the challenge edit page and reaches it.
 *
 * Needs Debian's chromium and a Docker engine (DOCKER_HOST; CI starts one): without an engine
 * the suite fails on CI and is skipped locally with a message.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, launchBrowser, newSession, screenshot, type BrowserSession } from '../support/browser.js'
import { requireDocker } from '../support/docker.js'
import { ADMIN_PASSWORD } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { banner, parseEntry, setup, startDockerServer, type DockerServer, type Setup } from '../containers/helpers.js'
import { notifyExpiring } from '../../server/src/containers/reaper.js'

const available = await requireDocker()
const E2E_TIMEOUT = 180_000
const LIVE_TIMEOUT = 15_000
const MINUTE = 60_000
/** The contract's 10 s between two operations on one instance's container, and a margin. */
const cooldown = () => new Promise((r) => setTimeout(r, 10_500))

/** Sign a browser context in with an API client's session cookie. */
async function signIn(context: BrowserContext, client: ApiClient, baseUrl: string): Promise<void> {
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: baseUrl })))
}

/** Seconds left on the countdown (`剩余 HH:MM:SS`). */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByTestId('container-countdown').textContent()) ?? ''
  const match = /(\d+):(\d\d):(\d\d)/.exec(text)
  if (!match) throw new Error(`no countdown in ${JSON.stringify(text)}`)
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])
}

// Both guards throw on CI when Chromium or the engine is missing: the suite skips only on a developer's machine.
describe.skipIf(!browserAvailable() || !available)('challenge containers (Chromium, real Docker)', () => {
  let ds: DockerServer
  let browser: Browser
  let box: Setup
  const sessions: BrowserSession[] = []

  /** The team's container row for the box (null when it has none). */
  const teamContainer = async () => {
    const rows = await ds.server.services.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; expect_stop_at: string }[]>(
        `select c.id, c.expect_stop_at from instances i join containers c on c.id = i.container_id
          where i.participation_id = ? and i.challenge_id = ? and c.status <> 'Destroyed'`,
        [box.player.participation.id, box.challenge.id],
      )
    return rows[0] ?? null
  }

  beforeAll(async () => {
    ;[ds, browser] = await Promise.all([startDockerServer(), launchBrowser()])
    box = await setup(ds, { type: 'DynamicContainer', challenge: { title: 'Echo Box', flagTemplate: 'flag{[GUID]}' } })
    await ds.server.services.scoreboard.rebuild(box.game.id)
  })

  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined)
    await browser?.close()
    await ds?.close()
  })

  async function open(name: string, client?: ApiClient): Promise<BrowserSession> {
    const session = await newSession(browser, ds.server.url)
    sessions.push(session)
    if (client) await signIn(session.context, client, ds.server.url)
    session.page.on('pageerror', (e) => console.error(`[${name}] pageerror`, e.message))
    return session
  }

  it(
    'a player starts, watches, prolongs and destroys the team container, and a correct flag releases it',
    async () => {
      const { page } = await open('player', box.player.client)
      const controls = page.getByTestId('container-controls')
      await page.goto(`/games/${box.game.id}/challenges`)
      await page.locator('[data-testid="challenges-page"][data-live="true"]').waitFor({ timeout: LIVE_TIMEOUT })
      await page.locator(`[data-testid="challenge-card"][data-challenge-id="${box.challenge.id}"]`).click()
      await page.locator('[data-testid="container-controls"][data-state="none"]').waitFor()

      // Start: the entry is a published loopback port serving the team's own flag.
      await page.getByTestId('container-start').click()
      await page.locator('[data-testid="container-controls"][data-state="running"]').waitFor({ timeout: LIVE_TIMEOUT })
      const entry = (await page.getByTestId('container-entry').textContent())!
      const { port } = parseEntry(entry)
      expect(await secondsLeft(page)).toBeGreaterThan(110 * 60)
      await expect(page.getByTestId('container-prolong').isDisabled()).resolves.toBe(true)
      const flag = /flag: (flag\{[0-9a-f-]{36}\})/.exec(await banner(port, [], /flag\{[^}]*\}/))?.[1]
      expect(flag).toBeDefined()
      await screenshot(page, 'containers-01-started')

      // The countdown runs.
      const before = await secondsLeft(page)
      await expect.poll(() => secondsLeft(page), { timeout: LIVE_TIMEOUT }).toBeLessThan(before)

      // Five minutes left: the reaper's "expiring" push reaches the open modal and prolonging opens.
      const row = (await teamContainer())!
      await ds.server.services.orm.em.fork().getConnection().execute(`update containers set expect_stop_at = now() + interval '5 minutes' where id = ?`, [row.id])
      expect(await notifyExpiring(ds.server.services, new Map())).toBe(1)
      await page.waitForFunction(() => !(document.querySelector('[data-testid="container-prolong"]') as HTMLButtonElement | null)?.disabled, undefined, { timeout: LIVE_TIMEOUT })
      expect(await secondsLeft(page)).toBeLessThanOrEqual(5 * 60)
      await screenshot(page, 'containers-02-expiring')
      await page.getByTestId('container-prolong').click()
      await expect.poll(() => secondsLeft(page), { timeout: LIVE_TIMEOUT }).toBeGreaterThan(110 * 60)
      await expect(page.getByTestId('container-prolong').isDisabled()).resolves.toBe(true)
      expect(Date.parse((await teamContainer())!.expect_stop_at)).toBeGreaterThan(Date.now() + 110 * MINUTE)

      // Destroy within the contract's 10 s cooldown of the prolong: refused, still running.
      const refused = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().endsWith(`/container/${box.challenge.id}`))
      await page.getByTestId('container-destroy').click()
      expect(await (await refused).json()).toEqual({ title: '容器操作过于频繁', status: 429 })
      // Like the reference client, every 429 reads as one fixed "too frequent" toast (docs/compatibility.md#rate-limits).
      await page.getByText('操作过于频繁，请稍后再试').first().waitFor({ timeout: LIVE_TIMEOUT })
      await expect(controls.getAttribute('data-state')).resolves.toBe('running')
      await screenshot(page, 'containers-03-cooldown')

      // After it: destroyed, the controls offer a start again and the engine no longer runs it.
      await cooldown()
      await page.getByTestId('container-destroy').click()
      await page.locator('[data-testid="container-controls"][data-state="none"]').waitFor({ timeout: LIVE_TIMEOUT })
      expect(await teamContainer()).toBeNull()
      await expect(ds.docker.getContainer(row.id).inspect()).rejects.toMatchObject({ statusCode: 404 })

      // Start again after the cooldown, solve with the flag read from it: released on its own.
      await cooldown()
      await page.getByTestId('container-start').click()
      await page.locator('[data-testid="container-controls"][data-state="running"]').waitFor({ timeout: LIVE_TIMEOUT })
      const again = parseEntry((await page.getByTestId('container-entry').textContent())!)
      expect(await banner(again.port, [], /flag\{[^}]*\}/)).toContain(flag)
      await page.getByTestId('flag-input').fill(flag!)
      await page.getByTestId('flag-submit').click()
      await page.getByTestId('solve-celebration').waitFor({ timeout: LIVE_TIMEOUT })
      // Started a moment ago: the first release is refused by the cooldown, the second one goes through.
      await page.locator('[data-testid="container-controls"][data-state="none"]').waitFor({ timeout: LIVE_TIMEOUT + 10_000 })
      expect(await teamContainer()).toBeNull()
      await expect(controls.getByTestId('container-start').isVisible()).resolves.toBe(true)
      await screenshot(page, 'containers-04-released-after-solve')
    },
    E2E_TIMEOUT,
  )

  it(
    'an editor starts a test container from the challenge page, reaches it, and stops it',
    async () => {
      const { page } = await open('editor')
      const from = `/admin/games/${box.game.id}/challenges/${box.challenge.id}`
      await page.goto(`/account/login?from=${encodeURIComponent(from)}`)
      await page.getByTestId('login-username').fill('Admin')
      await page.getByTestId('login-password').fill(ADMIN_PASSWORD)
      await page.getByTestId('login-submit').click()
      await page.getByTestId('challenge-form').waitFor()

      await page.locator('[data-testid="test-container"][data-state="none"]').waitFor()
      await page.getByTestId('test-container-start').click()
      await page.locator('[data-testid="test-container"][data-state="running"]').waitFor({ timeout: LIVE_TIMEOUT })
      const entry = (await page.getByTestId('test-container-entry').textContent())!.trim()
      const { port } = parseEntry(entry)
      // A test container carries a test flag made from the template ([GUID] → a fresh GUID).
      expect(await banner(port, [], /flag\{[^}]*\}/)).toMatch(/flag: flag\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}/)
      await screenshot(page, 'containers-05-test-container')

      await page.getByTestId('test-container-stop').click()
      await page.locator('[data-testid="test-container"][data-state="none"]').waitFor({ timeout: LIVE_TIMEOUT })
      const left = await ds.server.services.orm.em
        .fork()
        .getConnection()
        .execute<{ n: string }[]>(`select count(*) as n from containers where test_challenge_id = ? and status <> 'Destroyed'`, [box.challenge.id])
      expect(Number(left[0]!.n)).toBe(0)
    },
    E2E_TIMEOUT,
  )
})
