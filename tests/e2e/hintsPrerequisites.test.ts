/**
 * Costed hints and prerequisites in Chromium (docs/challenge-rules.md): a challenge locked by its
 * prerequisite shows as locked with what to solve first and does not open; a paid hint asks for
 * confirmation (cancelling costs nothing), then shows its content and the team's score drops
 * live; solving the prerequisite unlocks the locked challenge without a reload.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot, type BrowserSession } from '../support/browser.js'
import { countRows, createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 180_000
const LIVE_TIMEOUT = 15_000

async function signIn(context: BrowserContext, client: ApiClient, baseUrl: string): Promise<void> {
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: baseUrl })))
}
const card = (page: Page, challengeId: number) => page.locator(`[data-testid="challenge-card"][data-challenge-id="${challengeId}"]`)

describe.skipIf(!browserAvailable())('costed hints and prerequisites (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let intro: Challenge
  let locked: Challenge
  let player: Player
  const sessions: BrowserSession[] = []

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Rules ${randomBytes(2).toString('hex')}`, practiceMode: false, bloodBonus: 0 })
    intro = await createChallenge(server, game, {
      title: 'Intro',
      flags: ['flag{intro}'],
      originalScore: 200,
      costedHints: [{ id: 1, content: 'look at **robots.txt**', kind: 'Fixed', amount: 40 }],
    })
    locked = await createChallenge(server, game, { title: 'Deeper', flags: ['flag{deeper}'] })
    const admin = await server.admin()
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${locked.id}/prerequisites`, { prerequisites: [intro.id] })).status).toBe(200)
    player = await createPlayer(server, game, { teamName: 'Solo' })
    await createInstances(server, [player.participation], [intro, locked])
    await server.services.scoreboard.rebuild(game.id)
  })

  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined)
    await browser?.close()
    await server?.close()
  })

  it(
    'locked card, paid hint behind a confirmation, live score, unlock by solving',
    async () => {
      const session = await newSession(browser, server.url)
      sessions.push(session)
      await signIn(session.context, player.client, server.url)
      const page = session.page
      page.on('pageerror', (e) => console.error('pageerror', e.message))
      await page.goto(`/games/${game.id}/challenges`)
      await card(page, intro.id).waitFor()
      await page.locator('[data-testid="challenges-page"][data-live="true"]').waitFor({ timeout: LIVE_TIMEOUT })
      await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))

      // The locked challenge: a lock, what to solve first, and clicking opens nothing.
      await expect(card(page, locked.id).getAttribute('data-locked')).resolves.toBe('true')
      await expect(card(page, locked.id).getByTestId('challenge-requires').textContent()).resolves.toContain('Intro')
      // aria-disabled: a forced click, as a user's would be, still opens nothing.
      await card(page, locked.id).click({ force: true })
      await page.waitForTimeout(300)
      await expect(page.getByTestId('challenge-modal-title').count()).resolves.toBe(0)
      await screenshot(page, 'rules-01-locked')

      // The paid hint: cancel first (nothing paid), then confirm.
      await card(page, intro.id).click()
      await page.getByTestId('costed-hints').waitFor()
      await expect(page.getByTestId('costed-hint-unlock').textContent()).resolves.toContain('40')
      await page.getByTestId('costed-hint-unlock').click()
      await page.getByTestId('confirm-cancel').click()
      await page.waitForTimeout(300)
      expect(await countRows(server, 'hint_unlocks', 'participation_id = ?', [player.participation.id])).toBe(0)
      await page.getByTestId('costed-hint-unlock').click()
      await screenshot(page, 'rules-02-confirm')
      await page.getByTestId('confirm-ok').click()
      await page.getByTestId('costed-hint-content').waitFor({ timeout: LIVE_TIMEOUT })
      await expect(page.getByTestId('costed-hint-content').textContent()).resolves.toContain('robots.txt')
      await page.getByTestId('costed-hint-paid').waitFor()
      expect(await countRows(server, 'hint_unlocks', 'participation_id = ?', [player.participation.id])).toBe(1)
      await page.waitForFunction(() => document.querySelector('[data-testid="team-card-score"]')?.textContent === '-40', undefined, { timeout: LIVE_TIMEOUT })
      await screenshot(page, 'rules-03-hint-unlocked')

      // Solving the prerequisite unlocks the next challenge live.
      await page.getByTestId('flag-input').fill('flag{intro}')
      await page.getByTestId('flag-submit').click()
      await page.getByTestId('challenge-modal-solved').waitFor({ timeout: LIVE_TIMEOUT })
      await page.keyboard.press('Escape')
      await page.waitForFunction((id) => document.querySelector(`[data-testid="challenge-card"][data-challenge-id="${id}"]`)?.getAttribute('data-locked') === null, locked.id, { timeout: LIVE_TIMEOUT })
      await page.waitForFunction(() => document.querySelector('[data-testid="team-card-score"]')?.textContent === String(200 - 40), undefined, { timeout: LIVE_TIMEOUT })
      await card(page, locked.id).click()
      await page.waitForFunction(() => document.querySelector('[data-testid="challenge-modal-title"]')?.textContent === 'Deeper', undefined, { timeout: LIVE_TIMEOUT })
      await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true)).resolves.toBe(true)
      await screenshot(page, 'rules-04-unlocked')
    },
    E2E_TIMEOUT,
  )

  it(
    "the editor's cards: a paid hint added and saved; a prerequisite cycle refused with the server's message",
    async () => {
      const admin = await server.admin()
      const session = await newSession(browser, server.url)
      sessions.push(session)
      await signIn(session.context, admin, server.url)
      const page = session.page
      await page.goto(`/admin/games/${game.id}/challenges/${locked.id}`)
      await page.getByTestId('costed-hints-editor').waitFor()
      await page.getByTestId('costed-hint-add').click()
      await page.getByTestId('costed-hint-content-input').fill('try **harder**')
      await page.getByTestId('costed-hint-amount').fill('15')
      await page.getByTestId('costed-hint-kind').getByText('分值百分比').click()
      await page.getByTestId('costed-hints-save').click()
      await expect
        .poll(async () => (await admin.get(`/api/edit/games/${game.id}/challenges/${locked.id}/hints`)).body, { timeout: LIVE_TIMEOUT })
        .toEqual([{ id: 1, content: 'try **harder**', kind: 'Percent', amount: 15, freeAt: null }])
      // Deeper already requires Intro: the select shows it.
      await expect(page.getByTestId('prerequisites-editor').textContent()).resolves.toContain('Intro')
      await screenshot(page, 'rules-05-editor')

      // Intro requiring Deeper would close a cycle: refused, shown, nothing stored.
      await page.goto(`/admin/games/${game.id}/challenges/${intro.id}`)
      await page.getByTestId('prerequisites-editor').waitFor()
      await page.getByTestId('prerequisites-select').click()
      await page.getByRole('option', { name: 'Deeper', exact: true }).click()
      await page.keyboard.press('Escape')
      await page.getByTestId('prerequisites-save').click()
      await page.getByText('前置题目不能成环').first().waitFor({ timeout: LIVE_TIMEOUT })
      expect((await admin.get(`/api/edit/games/${game.id}/challenges/${intro.id}/prerequisites`)).body).toEqual({ prerequisites: [], lockedTitleVisible: true })
      await screenshot(page, 'rules-06-cycle-refused')
    },
    E2E_TIMEOUT,
  )
})
