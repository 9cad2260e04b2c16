/**
 * Screenshots of the main screens (issue 16) in both languages and both colour schemes, written to
 * tests/artifacts/ (not committed): home, a game, its challenges, its scoreboard (as a player) and
 * the admin's game editor, at 1440×900; and the same screens on a phone (390×844) in the light
 * scheme. One page load per screen and combination; each load checks that the screen rendered in
 * the asked language and scheme, without a page error.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, settled, submit, type Player } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'

const E2E_TIMEOUT = 180_000
const DESKTOP = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }
const LOCALES = ['zh-CN', 'en-US'] as const
const SCHEMES = ['light', 'dark'] as const

describe.skipIf(!browserAvailable())('main screens, both languages and colour schemes (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let player: Player
  let admin: ApiClient

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    game = await createGame(server, { title: `Screens ${randomBytes(2).toString('hex')}` })
    const challenges = [
      await createChallenge(server, game, { title: 'Warmup', tag: 'Misc', flags: ['flag{s0}'] }),
      await createChallenge(server, game, { title: 'Cipher $x^2$', tag: 'Crypto', flags: ['flag{s1}'] }),
      await createChallenge(server, game, { title: 'Login page', tag: 'Web', flags: ['flag{s2}'] }),
    ]
    player = await createPlayer(server, game, { teamName: 'Screenshot team' })
    await createInstances(server, [player.participation], challenges)
    await settled(player.client, game.id, challenges[0]!.id, await submit(player.client, game.id, challenges[0]!.id, 'flag{s0}'))
    await server.services.scoreboard.rebuild(game.id)
    admin = (await createUser(server, { role: 'Admin' })).client
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const screens = () =>
    [
      { name: 'home', path: '/', testId: 'home-page', as: 'player' },
      { name: 'game', path: `/games/${game.id}`, testId: 'game-detail-page', as: 'player' },
      { name: 'challenges', path: `/games/${game.id}/challenges`, testId: 'challenges-page', as: 'player' },
      { name: 'scoreboard', path: `/games/${game.id}/scoreboard`, testId: 'scoreboard-page', as: 'player' },
      { name: 'game-editor', path: `/admin/games/${game.id}/info`, testId: 'game-info-form', as: 'admin' },
    ] as const

  async function shoot(page: Page, locale: string, scheme: string, device: string, as: 'player' | 'admin') {
    for (const screen of screens().filter((s) => s.as === as)) {
      await page.goto(screen.path)
      await page.getByTestId(screen.testId).waitFor()
      await page.waitForLoadState('networkidle')
      await expect(page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).resolves.toBe(scheme)
      await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(locale === 'zh-CN' ? 'zh-CN' : 'en')
      await screenshot(page, `screens-${screen.name}-${locale}-${scheme}-${device}`)
    }
  }

  it(
    'home, game, challenges, scoreboard and the game editor: zh and en, light and dark, desktop; light on a phone',
    async () => {
      for (const locale of LOCALES) {
        for (const as of ['player', 'admin'] as const) {
          const session = await newSession(browser, server.url, { locale, viewport: DESKTOP })
          await signIn(session.context, as === 'player' ? player.client : admin, server.url)
          await runInSession(session, `screens-${locale}-${as}`, async (page) => {
            // The colour scheme is remembered per browser; set it before the loads that use it.
            await page.goto('/about')
            for (const scheme of SCHEMES) {
              await page.evaluate((value) => localStorage.setItem('flagwave-color-scheme', value), scheme)
              await shoot(page, locale, scheme, 'desktop', as)
            }
            await page.setViewportSize(PHONE)
            await page.evaluate(() => localStorage.setItem('flagwave-color-scheme', 'light'))
            await shoot(page, locale, 'light', 'phone', as)
          })
        }
      }
    },
    E2E_TIMEOUT,
  )
})
