/**
 * The big-screen scoreboard in Chromium, watched anonymously: the ranking of a running game
 * without the navbar, a live clock and countdown, the first-blood banner when a first solve is
 * made through the API by a player, and rows moving (FLIP) when another team overtakes.
 * Before the start an anonymous watcher sees the countdown.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 180_000
const LIVE_TIMEOUT = 15_000


const bigRow = (page: Page, teamId: number) => page.locator(`[data-testid="bigscreen-row"][data-team-id="${teamId}"]`)

describe.skipIf(!browserAvailable())('big-screen scoreboard (Chromium, anonymous)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let needle: Challenge
  let haystack: Challenge
  let alpha: Player
  let bravo: Player
  let extra: Player[]

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Finals ${randomBytes(2).toString('hex')}` })
    needle = await createChallenge(server, game, { title: 'Needle', tag: 'Pwn', flags: ['flag{needle}'] })
    haystack = await createChallenge(server, game, { title: 'Haystack', tag: 'Web', flags: ['flag{haystack}'] })
    alpha = await createPlayer(server, game, { teamName: 'Alpha' })
    bravo = await createPlayer(server, game, { teamName: 'Bravo' })
    // Enough teams for the list to scroll.
    extra = []
    for (let i = 0; i < 14; i++) extra.push(await createPlayer(server, game, { teamName: `Team${String(i).padStart(2, '0')}` }))
    await createInstances(server, [alpha, bravo, ...extra].map((p) => p.participation), [needle, haystack])
    await server.services.scoreboard.rebuild(game.id)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'shows the ranking, a first-blood banner when a first solve happens, and moves rows when ranks change',
    async () => {
      const session = await newSession(browser, server.url, { viewport: { width: 1600, height: 900 } })
      const { page } = session
      try {
        await page.goto(`/games/${game.id}/scoreboard/BigScreen`)
        await page.getByTestId('bigscreen').waitFor()
        await bigRow(page, alpha.team.id).waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.locator('[data-testid="bigscreen-row"]').count()).resolves.toBe(16)
        // No navbar; anonymous.
        await expect(page.getByTestId('nav-home').count()).resolves.toBe(0)
        await expect(page.getByTestId('nav-login').count()).resolves.toBe(0)
        await expect(page.getByTestId('bigscreen-title').textContent()).resolves.toBe(game.title)
        await expect(page.getByTestId('bigscreen-clock').textContent()).resolves.toMatch(/^\d{2}:\d{2}:\d{2}$/)
        await expect(page.getByTestId('bigscreen-countdown').textContent()).resolves.toMatch(/^距结束 /)
        await page.locator('[data-testid="bigscreen"][data-realtime="connected"]').waitFor({ timeout: LIVE_TIMEOUT })
        await page.getByTestId('bigscreen-fullscreen').click()
        await screenshot(page, 'bigscreen-01-ranking')

        // The list scrolls by itself (16 rows do not fit at this size).
        const overflow = await page.getByTestId('bigscreen-list').evaluate((el) => el.scrollHeight - el.clientHeight)
        if (overflow > 0) {
          await page.waitForFunction(() => (document.querySelector('[data-testid="bigscreen-list"]')?.scrollTop ?? 0) > 0, undefined, { timeout: 10_000 })
        }

        // Record every banner as it appears (they come and go on their own).
        await page.evaluate(() => {
          const seen: string[] = []
          const moves: string[] = []
          ;(window as unknown as { __banners: string[] }).__banners = seen
          ;(window as unknown as { __moves: string[] }).__moves = moves
          new MutationObserver((records) => {
            for (const record of records) {
              if (record.type === 'attributes') {
                const el = record.target as HTMLElement
                if (el.dataset.rankChange) moves.push(`${el.dataset.rankChange}|${el.dataset.teamId}`)
                continue
              }
              for (const node of record.addedNodes) {
                const el = node instanceof HTMLElement ? (node.matches('[data-testid="blood-banner"]') ? node : node.querySelector('[data-testid="blood-banner"]')) : null
                if (!el) continue
                const team = el.querySelector('[data-testid="blood-banner-team"]')?.textContent ?? ''
                const challenge = el.querySelector('[data-testid="blood-banner-challenge"]')?.textContent ?? ''
                seen.push(`${el.getAttribute('data-kind')}|${team}|${challenge}`)
              }
            }
          }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-rank-change'] })
        })
        const banners = () => page.evaluate(() => (window as unknown as { __banners: string[] }).__banners)

        // Alpha's first solve, through the API: the first-blood banner names team and challenge.
        const id = await submit(alpha.client, game.id, needle.id, 'flag{needle}')
        await expect(settled(alpha.client, game.id, needle.id, id)).resolves.toBe('Accepted')
        const banner = page.locator('[data-testid="blood-banner"][data-kind="FirstBlood"]')
        await banner.waitFor({ timeout: LIVE_TIMEOUT })
        await expect(banner.getByTestId('blood-banner-team').textContent()).resolves.toBe('Alpha')
        await expect(banner.getByTestId('blood-banner-challenge').textContent()).resolves.toContain('Needle')
        await screenshot(page, 'bigscreen-02-first-blood')
        await page.waitForFunction((teamId) => document.querySelector(`[data-testid="bigscreen-row"][data-team-id="${teamId}"]`)?.getAttribute('data-rank') === '1', alpha.team.id, {
          timeout: LIVE_TIMEOUT,
        })
        await expect(page.locator('[data-testid="bigscreen-row"]').first().getAttribute('data-team-id')).resolves.toBe(String(alpha.team.id))
        await expect(bigRow(page, alpha.team.id).getByTestId('bigscreen-score').textContent()).resolves.toMatch(/^\d+$/)
        await banner.waitFor({ state: 'detached', timeout: LIVE_TIMEOUT })

        // Bravo solves both: second blood on Needle, first on Haystack, and overtakes Alpha.
        await page.getByTestId('bigscreen-list').evaluate((el) => el.scrollTo({ top: 0 }))
        for (const [challenge, flag] of [
          [needle, 'flag{needle}'],
          [haystack, 'flag{haystack}'],
        ] as const) {
          const sid = await submit(bravo.client, game.id, challenge.id, flag)
          await expect(settled(bravo.client, game.id, challenge.id, sid)).resolves.toBe('Accepted')
        }
        await page.waitForFunction((teamId) => document.querySelector(`[data-testid="bigscreen-row"][data-team-id="${teamId}"]`)?.getAttribute('data-rank') === '1', bravo.team.id, {
          timeout: LIVE_TIMEOUT,
        })
        // The overtaking row was animated to its new place (FLIP marks it while it rises).
        const moves = await page.evaluate(() => (window as unknown as { __moves: string[] }).__moves)
        expect(moves).toContain(`up|${bravo.team.id}`)
        await expect(bigRow(page, alpha.team.id).getAttribute('data-rank')).resolves.toBe('2')
        await screenshot(page, 'bigscreen-03-overtake')
        // Every blood got its banner, one after the other, in order.
        await page.waitForFunction(() => (window as unknown as { __banners: string[] }).__banners.length >= 3, undefined, { timeout: 3 * LIVE_TIMEOUT })
        const shown = await banners()
        expect(shown[0]).toMatch(/^FirstBlood\|Alpha\|.*Needle/)
        expect(shown[1]).toMatch(/^SecondBlood\|Bravo\|.*Needle/)
        expect(shown[2]).toMatch(/^FirstBlood\|Bravo\|.*Haystack/)
        await screenshot(page, 'bigscreen-04-banners')

        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'bigscreen-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'before the start an anonymous watcher sees the countdown, then the ranking once the game starts',
    async () => {
      const startsIn = 8_000
      const soon = await createGame(server, { title: 'Kick-off', start: new Date(Date.now() + startsIn), end: new Date(Date.now() + 3600_000) })
      const warm = await createChallenge(server, soon, { title: 'Warm', tag: 'Misc', flags: ['flag{warm}'] })
      const first = await createPlayer(server, soon, { teamName: 'Early' })
      await createInstances(server, [first.participation], [warm])
      const session = await newSession(browser, server.url)
      const { page } = session
      try {
        await page.goto(`/games/${soon.id}/scoreboard/bigscreen`)
        await page.getByTestId('bigscreen-waiting').waitFor()
        await page.getByText('比赛未开始').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('bigscreen-countdown').textContent()).resolves.toMatch(/^距开始 /)
        await screenshot(page, 'bigscreen-05-not-started')
        // At the start the page fetches the board and (anonymous, refused before) reconnects.
        await bigRow(page, first.team.id).waitFor({ timeout: startsIn + LIVE_TIMEOUT })
        await page.locator('[data-testid="bigscreen"][data-realtime="connected"]').waitFor({ timeout: LIVE_TIMEOUT })
        // The countdown ticks once a second, so it may still read 00:00:00 for a moment.
        await expect.poll(() => page.getByTestId('bigscreen-countdown').textContent(), { timeout: 5_000 }).toMatch(/^距结束 /)
        // And it is live: a solve brings the first-blood banner.
        const id = await submit(first.client, soon.id, warm.id, 'flag{warm}')
        await expect(settled(first.client, soon.id, warm.id, id)).resolves.toBe('Accepted')
        await page.locator('[data-testid="blood-banner"][data-kind="FirstBlood"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('blood-banner-team').textContent()).resolves.toBe('Early')
        await screenshot(page, 'bigscreen-06-started-live')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'bigscreen-failure-start').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
})
