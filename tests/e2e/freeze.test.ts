/**
 * The scoreboard freeze in Chromium (docs/scoring.md#freeze): a player's scoreboard page and the
 * big screen show the frozen banner and not a solve made after the freeze; the admin's scoreboard
 * page has a live/frozen toggle whose live view shows the solve under a banner saying players do
 * not see it; the solving player's challenge board marks it "solved after freeze".
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 180_000
const LIVE_TIMEOUT = 15_000

const cell = (page: Page, teamId: number, challengeId: number) =>
  page.locator(`[data-testid="scoreboard-row"][data-team-id="${teamId}"] [data-testid="scoreboard-cell"][data-challenge-id="${challengeId}"]`)

describe.skipIf(!browserAvailable())('scoreboard freeze (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let sanity: Challenge
  let late: Challenge
  let alpha: Player
  let bravo: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Frozen ${randomBytes(2).toString('hex')}` })
    sanity = await createChallenge(server, game, { title: 'Sanity', tag: 'Misc', flags: ['flag{sanity}'] })
    late = await createChallenge(server, game, { title: 'Late', tag: 'Web', flags: ['flag{late}'] })
    alpha = await createPlayer(server, game, { teamName: 'Alpha' })
    bravo = await createPlayer(server, game, { teamName: 'Bravo' })
    await createInstances(server, [alpha.participation, bravo.participation], [sanity, late])
    expect(await settled(alpha.client, game.id, sanity.id, await submit(alpha.client, game.id, sanity.id, 'flag{sanity}'))).toBe('Accepted')
    const admin = await server.admin()
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    expect(await settled(bravo.client, game.id, late.id, await submit(bravo.client, game.id, late.id, 'flag{late}'))).toBe('Accepted')
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'shows players the frozen board with its banner, and the admin a labelled live view',
    async () => {
      // A player: the banner, the frozen board without bravo's solve, the big screen's banner.
      const player = await newSession(browser, server.url)
      await signIn(player.context, bravo.client, server.url)
      await runInSession(player, 'freeze-player', async (page) => {
        await page.goto(`/games/${game.id}/scoreboard`)
        await page.getByTestId('scoreboard-frozen-banner').waitFor({ timeout: LIVE_TIMEOUT })
        await cell(page, alpha.team.id, sanity.id).waitFor()
        await expect(cell(page, bravo.team.id, late.id).getAttribute('data-type')).resolves.toBe('Unaccepted')
        await expect(page.getByTestId('scoreboard-view-toggle').count()).resolves.toBe(0)
        await screenshot(page, 'freeze-01-player-scoreboard')

        await page.goto(`/games/${game.id}/challenges`)
        const card = page.locator(`[data-testid="challenge-card"][data-challenge-id="${late.id}"]`)
        await card.locator('[data-testid="challenge-after-freeze"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(card.getAttribute('data-solved')).resolves.toBe('true')
        await screenshot(page, 'freeze-02-player-challenges')

        await page.goto(`/games/${game.id}/scoreboard/BigScreen`)
        await page.getByTestId('bigscreen').waitFor()
        await page.getByTestId('scoreboard-frozen-banner').waitFor({ timeout: LIVE_TIMEOUT })
        await screenshot(page, 'freeze-03-bigscreen')
      })

      // The admin: frozen by default, the toggle switches to the live board under its own banner.
      const staff = await newSession(browser, server.url)
      await runInSession(staff, 'freeze-admin', async (page) => {
        await loginAdmin(page, `/games/${game.id}/scoreboard`)
        await page.getByTestId('scoreboard-frozen-banner').waitFor({ timeout: LIVE_TIMEOUT })
        // An unsolved cell is an empty span: attached, not visible.
        await cell(page, bravo.team.id, late.id).waitFor({ state: 'attached' })
        await expect(cell(page, bravo.team.id, late.id).getAttribute('data-type')).resolves.toBe('Unaccepted')
        await page.getByTestId('scoreboard-view-toggle').getByText('实时榜').click()
        await page.getByTestId('scoreboard-live-banner').waitFor({ timeout: LIVE_TIMEOUT })
        await page.locator('[data-testid="scoreboard-page"][data-view="live"]').waitFor()
        await expect(page.getByTestId('scoreboard-frozen-banner').count()).resolves.toBe(0)
        await page.waitForFunction(
          ([teamId, challengeId]) =>
            document.querySelector(`[data-testid="scoreboard-row"][data-team-id="${teamId}"] [data-testid="scoreboard-cell"][data-challenge-id="${challengeId}"]`)?.getAttribute('data-type') ===
            'FirstBlood',
          [bravo.team.id, late.id],
          { timeout: LIVE_TIMEOUT },
        )
        await screenshot(page, 'freeze-04-admin-live')
        // A solve while the admin watches live arrives (the monitor hub's push refetches the live board).
        expect(await settled(alpha.client, game.id, late.id, await submit(alpha.client, game.id, late.id, 'flag{late}'))).toBe('Accepted')
        await page.waitForFunction(
          ([teamId, challengeId]) =>
            document.querySelector(`[data-testid="scoreboard-row"][data-team-id="${teamId}"] [data-testid="scoreboard-cell"][data-challenge-id="${challengeId}"]`)?.getAttribute('data-type') ===
            'SecondBlood',
          [alpha.team.id, late.id],
          { timeout: LIVE_TIMEOUT },
        )
        // Back to what players see.
        await page.getByTestId('scoreboard-view-toggle').getByText('选手所见（冻结）').click()
        await page.getByTestId('scoreboard-frozen-banner').waitFor()
        await expect(cell(page, bravo.team.id, late.id).getAttribute('data-type')).resolves.toBe('Unaccepted')

        // The game editor: the freeze card says frozen; "unfreeze now" (confirmed) lifts it.
        await page.goto(`/admin/games/${game.id}/info`)
        await page.locator('[data-testid="game-freeze-card"][data-frozen="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('game-info-freeze-time').getAttribute('data-value')).resolves.not.toBe('')
        await screenshot(page, 'freeze-05-editor')
        await page.getByTestId('game-unfreeze-now').click()
        await page.getByTestId('confirm-ok').click()
        await page.locator('[data-testid="game-freeze-card"][data-frozen="false"]').waitFor({ timeout: LIVE_TIMEOUT })
        const board = await (await fetch(`${server.url}/api/game/${game.id}/scoreboard`)).json()
        expect(board.frozen).toBe(false)
        // And "freeze now" freezes again.
        await page.getByTestId('game-freeze-now').click()
        await page.locator('[data-testid="game-freeze-card"][data-frozen="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await page.goto(`/games/${game.id}/scoreboard`)
        await page.getByTestId('scoreboard-frozen-banner').waitFor({ timeout: LIVE_TIMEOUT })
      })
    },
    E2E_TIMEOUT,
  )
})
