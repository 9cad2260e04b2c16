/**
 * The monitor screens end to end in Chromium against the real server (which serves client/dist):
 * a Monitor watches games/{id}/monitor/Submissions while a player submits flags through the API;
 * the rows appear live (no reload) with the right statuses, pausing holds new rows back (their
 * number shown) until resume, history pages back with "load more", and the status filter asks the
 * server. Role-aware navigation: monitors get the monitor entry and no administration; users get
 * neither. Events, cheat information and traffic render their data.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame, storeCapture } from '../support/factories/games.js'
import { createCheatInfo, createEvent, createInstance, createPlayer, createSubmission, isolateIds, settled, submit, type Player } from '../support/factories/play.js'

const E2E_TIMEOUT = 180_000
const HISTORY = 60
const PAGE = 50

const rows = (page: Page, table: string) => page.locator(`[data-testid="${table}-row"]`)
const rowCount = (page: Page, table: string) => rows(page, table).count()

async function waitForRows(page: Page, table: string, n: number, timeout = 15_000): Promise<void> {
  await page.waitForFunction(([t, count]) => document.querySelectorAll(`[data-testid="${t}-row"]`).length === count, [table, n] as const, { timeout })
}

describe.skipIf(!browserAvailable())('monitor screens (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let challenge: Challenge
  let alice: Player
  let bob: Player
  let monitor: TestUser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { practiceMode: false, title: `Monitor ${randomBytes(2).toString('hex')}` })
    challenge = await createChallenge(server, game, { title: 'Warmup', flags: ['flag{warmup}'] })
    alice = await createPlayer(server, game, { teamName: `alice-${randomBytes(2).toString('hex')}` })
    bob = await createPlayer(server, game, { teamName: `bob-${randomBytes(2).toString('hex')}` })
    await createInstance(server, alice.participation, challenge)
    await createInstance(server, bob.participation, challenge)
    monitor = await createUser(server, { role: 'Monitor' })
    // History: older wrong answers of bob, more than one page.
    const base = Date.now() - 3600_000
    for (let i = 0; i < HISTORY; i++) {
      await createSubmission(server, game, challenge, bob.participation, bob.user, { status: 'WrongAnswer', answer: `flag{old-${i}}`, submitTime: new Date(base + i * 1000) })
    }
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'submissions grow live, pause holds rows back until resume, history pages back, the status filter asks the server',
    async () => {
      const session = await newSession(browser, server.url)
      await signIn(session.context, monitor.client, server.url)
      await runInSession(session, 'monitor', async (page) => {
        await page.goto(`/games/${game.id}/monitor/submissions`)
        await page.getByTestId('monitor-submissions-page').waitFor()
        await page.getByTestId('monitor-submissions-page').locator('[data-testid="realtime-status"][data-status="connected"]').waitFor({ timeout: 15_000 })
        await waitForRows(page, 'submissions-table', PAGE)
        // A marker that a reload would lose.
        await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
        await screenshot(page, 'monitor-01-submissions-history')

        // A correct flag: the row appears live, on top, highlighted, Accepted.
        const right = await submit(alice.client, game.id, challenge.id, 'flag{warmup}')
        expect(await settled(alice.client, game.id, challenge.id, right)).toBe('Accepted')
        await waitForRows(page, 'submissions-table', PAGE + 1)
        const top = rows(page, 'submissions-table').first()
        await expect(top.getAttribute('data-status')).resolves.toBe('Accepted')
        await expect(top.getByTestId('submission-team').textContent()).resolves.toBe(alice.team.name)
        await expect(top.getByTestId('submission-answer').textContent()).resolves.toBe('flag{warmup}')
        await expect(top.getByTestId('answer-status').textContent()).resolves.toBe('答案正确')
        await expect(top.getAttribute('data-fresh')).resolves.toBe('true')
        await screenshot(page, 'monitor-02-live-accepted')

        // A wrong answer of bob: WrongAnswer, on top.
        const wrong = await submit(bob.client, game.id, challenge.id, 'flag{nope}')
        expect(await settled(bob.client, game.id, challenge.id, wrong)).toBe('WrongAnswer')
        await waitForRows(page, 'submissions-table', PAGE + 2)
        await expect(rows(page, 'submissions-table').first().getAttribute('data-status')).resolves.toBe('WrongAnswer')
        await expect(rows(page, 'submissions-table').first().getByTestId('submission-answer').textContent()).resolves.toBe('flag{nope}')

        // Pause: a new submission is pushed but waits in the buffer; the table does not grow.
        await page.getByTestId('submissions-live-pause').click()
        await expect(page.getByTestId('submissions-live-pause').getAttribute('data-paused')).resolves.toBe('true')
        const held = await submit(alice.client, game.id, challenge.id, 'flag{held-back}')
        expect(await settled(alice.client, game.id, challenge.id, held)).toBe('WrongAnswer')
        await page.locator('[data-testid="submissions-live-buffered"][data-count="1"]').waitFor({ timeout: 15_000 })
        await page.waitForTimeout(500)
        expect(await rowCount(page, 'submissions-table')).toBe(PAGE + 2)
        await expect(page.getByText('flag{held-back}').count()).resolves.toBe(0)
        await expect(page.getByTestId('submissions-live-pause').textContent()).resolves.toContain('继续 (1)')
        await screenshot(page, 'monitor-03-paused')

        // Resume: the held row comes in on top.
        await page.getByTestId('submissions-live-pause').click()
        await waitForRows(page, 'submissions-table', PAGE + 3)
        await expect(rows(page, 'submissions-table').first().getByTestId('submission-answer').textContent()).resolves.toBe('flag{held-back}')
        await expect(page.getByTestId('submissions-live-buffered').count()).resolves.toBe(0)
        // A refetch of the first page recognises the pushed rows (no duplicates).
        const refetched = page.waitForResponse((r) => r.url().includes(`/api/game/${game.id}/submissions`) && r.url().includes('skip=0'))
        await page.getByTestId('submissions-live-refresh').click()
        expect((await refetched).status()).toBe(200)
        await page.waitForTimeout(300)
        expect(await rowCount(page, 'submissions-table')).toBe(PAGE + 3)

        // History: the next page starts after every row known so far (live ones included).
        await page.getByTestId('submissions-table-more').click()
        await waitForRows(page, 'submissions-table', HISTORY + 3)
        await page.getByTestId('submissions-table-end').waitFor()
        const answers = await page.getByTestId('submission-answer').allTextContents()
        expect(new Set(answers).size).toBe(HISTORY + 3)
        expect(answers.at(-1)).toBe('flag{old-0}')
        await screenshot(page, 'monitor-04-history-loaded')

        // Client-side filters: team.
        await page.getByTestId('submission-team-filter').click()
        await page.getByRole('option', { name: alice.team.name }).click()
        await waitForRows(page, 'submissions-table', 2)
        expect(new Set(await page.getByTestId('submission-team').allTextContents())).toEqual(new Set([alice.team.name]))
        await screenshot(page, 'monitor-05-team-filter')
        // Everything above happened without a reload.
        expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true)

        // Server-side status filter: only Accepted rows (a new request with type=Accepted).
        // After the reload the first page restored from the persisted cache is only a placeholder:
        // the network answer replaces it (one contiguous page, nothing highlighted as new).
        await page.goto(`/games/${game.id}/monitor/submissions`)
        await page.waitForFunction(() => document.querySelector('[data-testid="submission-answer"]')?.textContent === 'flag{held-back}')
        await waitForRows(page, 'submissions-table', PAGE)
        await expect(page.locator('[data-testid="submissions-table-row"][data-fresh="true"]').count()).resolves.toBe(0)
        const filtered = page.waitForResponse((r) => r.url().includes(`/api/game/${game.id}/submissions`) && r.url().includes('type=Accepted'))
        await page.getByTestId('submission-status-filter').click()
        await page.getByRole('option', { name: '答案正确' }).click()
        expect((await filtered).status()).toBe(200)
        await waitForRows(page, 'submissions-table', 1)
        await expect(rows(page, 'submissions-table').first().getAttribute('data-status')).resolves.toBe('Accepted')
        // A live wrong answer does not match the filter and stays out.
        const other = await submit(bob.client, game.id, challenge.id, 'flag{filtered-out}')
        expect(await settled(bob.client, game.id, challenge.id, other)).toBe('WrongAnswer')
        await page.waitForTimeout(800)
        expect(await rowCount(page, 'submissions-table')).toBe(1)
        await screenshot(page, 'monitor-06-status-filter')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'events, cheat information and traffic render; exports download; navigation follows the role',
    async () => {
      await createEvent(server, game, { type: 'ContainerStart', content: `Warmup#${challenge.id} 启动容器实例`, user: alice.user, teamId: alice.team.id })
      const cheat = await createSubmission(server, game, challenge, bob.participation, bob.user, { status: 'CheatDetected', answer: 'flag{alice-secret}' })
      await createCheatInfo(server, game, cheat, bob.participation, alice.participation)
      // Traffic: one challenge with a capture of alice, one with capture on but nothing captured.
      const sniffed = await createChallenge(server, game, { title: 'Sniffed', type: 'StaticContainer', enableTrafficCapture: true })
      const silent = await createChallenge(server, game, { title: 'Silent', type: 'StaticContainer', enableTrafficCapture: true })
      const pcapName = '20261122-10.00.00-conn1.pcap'
      await storeCapture(server, sniffed.id, alice.participation.id, pcapName, randomBytes(2048))

      const session = await newSession(browser, server.url)
      await signIn(session.context, monitor.client, server.url)
      await runInSession(session, 'monitor-pages', async (page) => {
        // Navigation of a Monitor: the monitor entry, no administration.
        await page.goto(`/games/${game.id}/monitor/events`)
        await page.getByTestId('monitor-events-page').waitFor()
        await page.getByTestId('nav-monitor').waitFor()
        await expect(page.getByTestId('nav-admin').count()).resolves.toBe(0)
        await page.getByTestId('monitor-events-page').locator('[data-testid="realtime-status"][data-status="connected"]').waitFor({ timeout: 15_000 })
        await page.locator('[data-testid="events-table-row"][data-type="ContainerStart"]').waitFor()
        // Live: a correct flag makes a FlagSubmit event.
        const before = await rowCount(page, 'events-table')
        const id = await submit(bob.client, game.id, challenge.id, 'flag{warmup}')
        expect(await settled(bob.client, game.id, challenge.id, id)).toBe('Accepted')
        await waitForRows(page, 'events-table', before + 1)
        await expect(rows(page, 'events-table').first().getAttribute('data-type')).resolves.toBe('FlagSubmit')
        await expect(rows(page, 'events-table').first().getByTestId('event-content').textContent()).resolves.toBe(`[答案正确] flag{warmup}  Warmup#${challenge.id}`)
        // Hiding container events asks the server (hideContainer=true).
        const hidden = page.waitForResponse((r) => r.url().includes(`/api/game/${game.id}/events`) && r.url().includes('hideContainer=true'))
        await page.getByTestId('event-hide-container').dispatchEvent('click')
        expect((await hidden).status()).toBe(200)
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="events-table-row"][data-type="ContainerStart"]').length === 0)
        await screenshot(page, 'monitor-07-events')

        // Cheat information: submitting team vs owning team, answer.
        await page.getByTestId('monitor-sections').getByText('作弊信息').click()
        await page.getByTestId('monitor-cheatinfo-page').waitFor()
        await waitForRows(page, 'cheat-table', 1)
        await expect(page.getByTestId('cheat-submit-team').textContent()).resolves.toContain(bob.team.name)
        await expect(page.getByTestId('cheat-owned-team').textContent()).resolves.toContain(alice.team.name)
        await page.getByText('flag{alice-secret}').waitFor()
        await screenshot(page, 'monitor-08-cheatinfo')

        // The submission sheet downloads under the server's name.
        const download = page.waitForEvent('download')
        await page.getByTestId('monitor-export').click()
        await page.getByTestId('download-submissionsheet').click()
        expect((await download).suggestedFilename()).toMatch(/_Submissions_\d{14}\.xlsx$/)

        // Traffic: challenges → teams → files, with the server's title when nothing was captured.
        await page.getByTestId('monitor-sections').getByText('流量捕获').click()
        await page.getByTestId('monitor-traffic-page').waitFor()
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="traffic-challenge"]').length === 2)
        await page.locator(`[data-testid="traffic-challenge"][data-challenge-id="${silent.id}"]`).click()
        await page.getByTestId('traffic-teams').getByText('未找到相关捕获信息').waitFor()
        await page.locator(`[data-testid="traffic-challenge"][data-challenge-id="${sniffed.id}"]`).click()
        await page.locator(`[data-testid="traffic-team"][data-part-id="${alice.participation.id}"]`).click()
        await page.getByTestId('traffic-file').waitFor()
        await expect(page.getByTestId('traffic-file').textContent()).resolves.toContain(pcapName)
        expect(new URL(page.url()).searchParams.get('challenge')).toBe(String(sniffed.id))
        expect(new URL(page.url()).searchParams.get('team')).toBe(String(alice.participation.id))
        await screenshot(page, 'monitor-09-traffic')
        const one = page.waitForEvent('download')
        await page.getByTestId('traffic-download-file').click()
        expect((await one).suggestedFilename()).toBe(pcapName)
        const all = page.waitForEvent('download')
        await page.getByTestId('traffic-download-all').click()
        expect((await all).suggestedFilename()).toMatch(new RegExp(`^Capture-${sniffed.id}-${alice.participation.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.zip$`))
      })

      // A plain user: neither entry, and the monitor route is refused.
      const user = await createUser(server)
      const visitor = await newSession(browser, server.url)
      await signIn(visitor.context, user.client, server.url)
      await runInSession(visitor, 'monitor-user', async (page) => {
        await page.goto(`/games/${game.id}/monitor/submissions`)
        await page.getByTestId('forbidden').waitFor()
        await page.getByTestId('user-menu').waitFor()
        await expect(page.getByTestId('nav-monitor').count()).resolves.toBe(0)
        await expect(page.getByTestId('nav-admin').count()).resolves.toBe(0)
        await screenshot(page, 'monitor-10-user-forbidden')
      })
    },
    E2E_TIMEOUT,
  )
})
