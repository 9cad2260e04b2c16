/**
 * The challenge rules in Chromium (docs/challenge-rules.md): an editor sets an opening time, a
 * deadline and an attempt limit in the challenge editor and sees them in the game's schedule; a
 * player sees the deadline count down on the board and in the challenge, the attempts left beside
 * the flag input (none left: the input closes), and a scheduled challenge appear on the open board
 * at its time without a reload.
 */
import { randomBytes } from 'node:crypto'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'

const E2E_TIMEOUT = 180_000
const card = (page: Page, challengeId: number) => page.locator(`[data-testid="challenge-card"][data-challenge-id="${challengeId}"]`)
const response = (page: Page, method: string, pattern: RegExp) => page.waitForResponse((r) => r.request().method() === method && pattern.test(new URL(r.url()).pathname))

describe.skipIf(!browserAvailable())('challenge rules (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let admin: ApiClient
  let player: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer({ env: { CHALLENGE_RELEASE_POLL_MS: '300' } }), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Rules ${randomBytes(2).toString('hex')}`, practiceMode: false })
    admin = await server.admin()
    player = await createPlayer(server, game, { teamName: 'Ruled' })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'the editor sets the opening time, the deadline and the attempt limit, and the schedule lists them',
    async () => {
      const challenge = await createChallenge(server, game, { title: 'Scheduled', isEnabled: false, flags: ['flag{s}'] })
      const deadline = Date.now() + 48 * 3600_000
      await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { deadlineUtc: deadline })
      await runInSession(await newSession(browser, server.url), 'rules-editor', async (page) => {
        await loginAdmin(page, `/admin/games/${game.id}/challenges/${challenge.id}`)
        await page.getByTestId('challenge-rules').waitFor()
        expect(Date.parse((await page.getByTestId('challenge-deadline').getAttribute('data-value'))!)).toBe(deadline)
        await page.getByTestId('challenge-submission-limit').fill('3')
        // The opening: tomorrow (the picker's day, local time), sent as UTC.
        const opening = dayjs().add(1, 'day').startOf('day')
        await page.getByTestId('challenge-release-time').click()
        if (opening.month() !== dayjs().month()) await page.locator('.mantine-DateTimePicker-calendarHeaderControl[data-direction="next"]').click()
        await page.locator(`.mantine-DateTimePicker-day[aria-label="${opening.locale('zh-cn').format('D MMMM YYYY')}"]`).first().click()
        await page.locator('.mantine-DateTimePicker-submitButton').click()
        await page.waitForFunction(() => !!document.querySelector('[data-testid="challenge-release-time"]')?.getAttribute('data-value'))
        const saved = response(page, 'PUT', new RegExp(`/api/edit/games/${game.id}/challenges/${challenge.id}$`))
        await page.getByTestId('challenge-save').click()
        const res = await saved
        expect(res.status()).toBe(200)
        const body = (await res.json()) as { submissionLimit: number; releaseTimeUtc: string; deadlineUtc: string; isEnabled: boolean }
        expect(body).toMatchObject({ submissionLimit: 3, isEnabled: false })
        expect(dayjs(body.releaseTimeUtc).isSame(opening, 'day')).toBe(true)
        expect(Date.parse(body.deadlineUtc)).toBe(deadline)
        // The header says when it opens.
        await page.getByTestId('challenge-header').getByTestId('admin-challenge-opens-at').waitFor()
        await screenshot(page, 'rules-01-editor')

        // The game's challenge list: the schedule (opening, then deadline) and the card's rules.
        await page.goto(`/admin/games/${game.id}/challenges`)
        await page.getByTestId('challenge-schedule').waitFor()
        const entries = page.locator(`[data-testid="schedule-entry"][data-challenge-id="${challenge.id}"]`)
        await expect(entries.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-ahead')}`))).resolves.toEqual(['release:true', 'deadline:true'])
        const adminCard = page.locator(`[data-testid="admin-challenge-card"][data-challenge-id="${challenge.id}"]`)
        await adminCard.getByTestId('admin-challenge-opens-at').waitFor()
        await expect(adminCard.getByTestId('admin-challenge-limit').textContent()).resolves.toBe('限 3 次')
        await screenshot(page, 'rules-02-schedule')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'the player sees the deadline count down, the attempts left beside the flag input, and a scheduled challenge appear live',
    async () => {
      const limited = await createChallenge(server, game, { title: 'Three tries', flags: ['flag{right}'], submissionLimit: 2, deadlineUtc: new Date(Date.now() + 3600_000) })
      const closing = await createChallenge(server, game, { title: 'Closing', tag: 'Web', flags: ['flag{c}'], deadlineUtc: new Date(Date.now() + 6000) })
      const later = await createChallenge(server, game, { title: 'Later', tag: 'Crypto', isEnabled: false, flags: ['flag{l}'] })
      await createInstances(server, [player.participation], [limited, closing, later])
      await server.services.scoreboard.rebuild(game.id)
      const session = await newSession(browser, server.url)
      await signIn(session.context, player.client, server.url)
      await runInSession(session, 'rules-player', async (page) => {
        await page.goto(`/games/${game.id}/challenges`)
        await card(page, limited.id).waitFor()
        await page.locator('[data-testid="challenges-page"][data-live="true"]').waitFor({ timeout: 15_000 })
        await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
        // The countdown on the board's card ticks.
        const badge = card(page, closing.id).getByTestId('challenge-deadline')
        const first = await badge.textContent()
        expect(first).toMatch(/^距截止 00:00:0\d$/)
        await expect.poll(() => badge.textContent(), { timeout: 5000 }).not.toBe(first)

        // Attempts left beside the flag input: 2, 1, then none and the input closes.
        await card(page, limited.id).click()
        await page.getByTestId('flag-input').waitFor()
        await expect(page.getByTestId('challenge-modal').getByTestId('challenge-deadline').textContent()).resolves.toMatch(/^距截止 /)
        await expect(page.getByTestId('attempts-left').getAttribute('data-left')).resolves.toBe('2')
        for (const left of ['1', '0']) {
          await page.getByTestId('flag-input').fill('flag{wrong}')
          await page.getByTestId('flag-submit').click()
          await page.locator('[data-testid="submit-result"][data-status="WrongAnswer"]').waitFor({ timeout: 15_000 })
          await page.locator(`[data-testid="attempts-left"][data-left="${left}"]`).waitFor()
        }
        await expect(page.getByTestId('flag-input').isDisabled()).resolves.toBe(true)
        await expect(page.getByTestId('attempts-left').textContent()).resolves.toBe('剩余 0/2 次')
        await screenshot(page, 'rules-03-no-attempts-left')
        await page.keyboard.press('Escape')

        // The closing challenge's deadline passes: the card says so, its flag input is closed.
        await card(page, closing.id).locator('[data-testid="challenge-deadline"][data-passed="true"]').waitFor({ timeout: 10_000 })
        await expect(card(page, closing.id).getByTestId('challenge-deadline').textContent()).resolves.toBe('已截止')
        await card(page, closing.id).click()
        await page.getByTestId('flag-input').waitFor()
        await expect(page.getByTestId('flag-input').isDisabled()).resolves.toBe(true)
        await page.keyboard.press('Escape')

        // A challenge scheduled to open in 3 s appears on the open board by itself.
        expect(await card(page, later.id).count()).toBe(0)
        const scheduled = await admin.put(`/api/edit/games/${game.id}/challenges/${later.id}`, { releaseTimeUtc: Date.now() + 3000 })
        expect(scheduled.status, scheduled.text).toBe(200)
        await card(page, later.id).waitFor({ timeout: 15_000 })
        await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true)).resolves.toBe(true)
        await screenshot(page, 'rules-04-released')
      })
    },
    E2E_TIMEOUT,
  )
})
