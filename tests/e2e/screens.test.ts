/**
 * Screenshots of the main screens (issue 16) in both languages and both colour schemes, written to
 * tests/artifacts/ (not committed): home, a game, its challenges, its scoreboard (as a player) and
 * the admin's game editor, at 1440×900; and the same screens on a phone (390×844) in the light
 * scheme. One page load per screen and combination; each load checks that the screen rendered in
 * the asked language and scheme, without a page error.
 *
 * And the layout (docs/architecture.md#content-widths), at 1440×900 and 390×844: the reading screens
 * share one width and left edge, the review cards' member columns line up, the container limit
 * inputs of a row share one baseline.
 *
 * And the admin lists' sort, shown on their headers: users and teams by name, games newest first,
 * instances newest first, logs newest first; a click on a header sorts by it, again the other way.
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
import type { Challenge } from '../../server/src/entities/Challenge.js'

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
  let box: Challenge

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    game = await createGame(server, { title: `Screens ${randomBytes(2).toString('hex')}` })
    const challenges = [
      await createChallenge(server, game, { title: 'Warmup', tag: 'Misc', flags: ['flag{s0}'] }),
      await createChallenge(server, game, { title: 'Cipher $x^2$', tag: 'Crypto', flags: ['flag{s1}'] }),
      await createChallenge(server, game, { title: 'Login page', tag: 'Web', flags: ['flag{s2}'] }),
    ]
    player = await createPlayer(server, game, { teamName: 'Screenshot team' })
    // A second, pending team with a long name: the review page shows two cards to line up.
    await createPlayer(server, game, { teamName: 'A much longer pending team name', status: 'Pending' })
    box = await createChallenge(server, game, { title: 'Box', type: 'StaticContainer', containerImage: 'busybox:latest', containerExposePort: 8080, flags: ['flag{b}'], isEnabled: false })
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

  it(
    'one content width, review cards aligned, container limit inputs on one baseline: desktop and phone',
    async () => {
      const box_ = (page: Page, testId: string) => page.getByTestId(testId).first().boundingBox()
      for (const viewport of [DESKTOP, PHONE]) {
        const reader = await newSession(browser, server.url, { viewport })
        await signIn(reader.context, player.client, server.url)
        await runInSession(reader, `layout-reading-${viewport.width}`, async (page) => {
          const edges: { testId: string; x: number; width: number }[] = []
          for (const [path, testId] of [
            ['/', 'home-page'],
            ['/posts', 'posts-page'],
            ['/about', 'about-page'],
            ['/account/profile', 'profile-page'],
          ] as const) {
            await page.goto(path)
            await page.getByTestId(testId).waitFor()
            const rect = await box_(page, testId)
            edges.push({ testId, x: Math.round(rect!.x), width: Math.round(rect!.width) })
          }
          // One reading width (960 px at 1440, the container's full width on a phone), one left edge.
          expect(new Set(edges.map((e) => `${e.x}/${e.width}`)).size, JSON.stringify(edges)).toBe(1)
          if (viewport === DESKTOP) expect(edges[0]!.width).toBe(960)
          else expect(edges[0]!.width).toBeLessThan(viewport.width)
        })

        const editor = await newSession(browser, server.url, { viewport })
        await signIn(editor.context, admin, server.url)
        await runInSession(editor, `layout-admin-${viewport.width}`, async (page) => {
          await page.goto(`/admin/games/${game.id}/review`)
          await page.getByTestId('participation-card').nth(1).waitFor()
          const columns = await page.getByTestId('participation-members').evaluateAll((tables) =>
            tables.map((table) => [...table.querySelectorAll('th')].map((th) => Math.round(th.getBoundingClientRect().left))),
          )
          expect(columns).toHaveLength(2)
          expect(columns[1]).toEqual(columns[0])
          await screenshot(page, `layout-review-${viewport.width}`)

          await page.goto(`/admin/games/${game.id}/challenges/${box.id}`)
          await page.getByTestId('challenge-container-limits').waitFor()
          const bottom = async (testId: string) => {
            const rect = await box_(page, testId)
            return Math.round(rect!.y + rect!.height)
          }
          const [port, cpu, memory, storage] = await Promise.all(['challenge-port', 'challenge-cpu', 'challenge-memory', 'challenge-storage'].map(bottom))
          // Two per row on desktop (same baseline), one per row on a phone.
          if (viewport === DESKTOP) {
            expect(cpu).toBe(port)
            expect(storage).toBe(memory)
          } else {
            expect(port).toBeLessThan(cpu!)
          }
          await screenshot(page, `layout-container-limits-${viewport.width}`)
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'admin lists are sorted and show it: users and teams by name, games, instances and logs newest first; a header click sorts',
    async () => {
      // Names whose order differs from their creation order.
      for (const userName of ['zz_last', 'aa_first', 'Mm_middle']) await createUser(server, { userName: `${userName}${randomBytes(2).toString('hex')}` })
      await createGame(server, { title: 'An older game', start: new Date(Date.now() - 30 * 86_400_000), end: new Date(Date.now() - 29 * 86_400_000) })
      const session = await newSession(browser, server.url, { viewport: DESKTOP })
      await signIn(session.context, admin, server.url)
      const collator = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })
      await runInSession(session, 'admin-sorted-lists', async (page) => {
        await page.goto('/admin/users')
        await page.getByTestId('admin-user-row').nth(3).waitFor()
        const userNames = () => page.getByTestId('admin-user-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-user-name') ?? ''))
        await expect(page.getByTestId('admin-user-sort-name').getAttribute('data-sorted')).resolves.toBe('asc')
        const ascending = await userNames()
        expect(ascending).toEqual([...ascending].sort(collator))
        await page.getByTestId('admin-user-sort-name').getByRole('button').click()
        await expect(page.getByTestId('admin-user-sort-name').getAttribute('data-sorted')).resolves.toBe('desc')
        expect(await userNames()).toEqual([...ascending].reverse())
        await screenshot(page, 'admin-sorted-users')

        await page.goto('/admin/teams')
        await page.getByTestId('admin-team-row').nth(1).waitFor()
        await expect(page.getByTestId('admin-team-sort-name').getAttribute('data-sorted')).resolves.toBe('asc')
        const teams = await page.getByTestId('admin-team-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-team-name') ?? ''))
        expect(teams).toEqual([...teams].sort(collator))

        await page.goto('/admin/games')
        await page.getByTestId('admin-game-row').nth(1).waitFor()
        await expect(page.getByTestId('admin-games-sort-time').getAttribute('data-sorted')).resolves.toBe('desc')
        const titles = () => page.getByTestId('admin-game-title').allTextContents()
        expect((await titles()).at(-1)).toBe('An older game')
        await page.getByTestId('admin-games-sort-title').getByRole('button').click()
        const byTitle = await titles()
        expect(byTitle).toEqual([...byTitle].sort(collator))

        await page.goto('/admin/instances')
        await page.getByTestId('admin-instances-page').waitFor()
        await expect(page.getByTestId('instances-sort-started').getAttribute('data-sorted')).resolves.toBe('desc')
        await expect(page.getByTestId('instances-sort-team').getAttribute('aria-sort')).resolves.toBe('none')

        await page.goto('/admin/logs')
        await page.getByTestId('logs-sort-time').waitFor()
        await expect(page.getByTestId('logs-sort-time').getAttribute('data-sorted')).resolves.toBe('desc')
      })
    },
    E2E_TIMEOUT,
  )
})
