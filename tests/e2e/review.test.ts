/**
 * A review reaches the team's open pages at once, in Chromium against the real server
 * (docs/realtime.md#user-hub-events, `ReceivedParticipationUpdate`): an admin accepts, rejects or
 * suspends a participation over HTTP and the members' game page and challenge board change without
 * a reload and without waiting for the 10-second refresh. The time from the admin's request (and
 * from its HTTP 200) to the changed page (seen by a MutationObserver inside the page, on the same
 * wall clock) is measured and printed; the bound, on the time from the request, is generous for
 * 2 shared cores but far below the refresh (before the push: 7–9 s on the game page, and the open
 * board never changed while its socket was up).
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAMESPACES, rooms } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot, signIn, type BrowserSession } from '../support/browser.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'

const E2E_TIMEOUT = 180_000
/** Far above the goal (250 ms) for a busy CI machine, far below the 10-second refresh. */
const BOUND_MS = 1_000
const HOUR = 3600_000

describe.skipIf(!browserAvailable())('a review reaches the team’s pages live (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let admin: ApiClient
  const sessions: BrowserSession[] = []
  const latencies: string[] = []

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    admin = await server.admin()
  })

  afterAll(async () => {
    if (latencies.length) console.info(`[review] admin 200 → page changed:\n  ${latencies.join('\n  ')}`)
    for (const s of sessions) await s.close().catch(() => undefined)
    await browser?.close()
    await server?.close()
  })

  async function open(user: TestUser, path: string): Promise<BrowserSession> {
    const session = await newSession(browser, server.url)
    sessions.push(session)
    await signIn(session.context, user.client, server.url)
    await session.page.goto(path)
    return session
  }

  /** Until the server holds a user-hub socket of this user in their own room (pushes can arrive). */
  async function listening(user: TestUser, count = 1): Promise<void> {
    const deadline = Date.now() + 15_000
    const room = rooms.user(user.user.id)
    for (;;) {
      const sockets = await server.services.realtime.server!.of(NAMESPACES.user).in(room).fetchSockets()
      if (sockets.length >= count) return
      if (Date.now() > deadline) throw new Error(`no user-hub socket of ${user.user.userName} after 15 s`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  /** Resolves with the wall-clock time at which `selector` matched in the page (a MutationObserver, no polling delay). */
  function whenShown(page: Page, selector: string): Promise<number> {
    return page.evaluate(
      (sel) =>
        new Promise<number>((resolve) => {
          if (document.querySelector(sel)) return resolve(Date.now())
          const observer = new MutationObserver(() => {
            if (!document.querySelector(sel)) return
            observer.disconnect()
            resolve(Date.now())
          })
          observer.observe(document.body, { subtree: true, childList: true, attributes: true })
        }),
      selector,
    )
  }

  /**
   * Set the participation's status as the admin and measure, on every page, the time from the
   * HTTP 200 to `selector` shown.
   */
  async function review(label: string, participationId: number, status: string, pages: { page: Page; selector: string; name: string }[]): Promise<number[]> {
    const seen = pages.map(({ page, selector }) => whenShown(page, selector))
    // The observers are installed before the request leaves.
    await Promise.all(pages.map(({ page }) => page.evaluate(() => true)))
    const sent = Date.now()
    const response = await admin.put(`/api/admin/participation/${participationId}/${status}`)
    const answered = Date.now()
    expect(response.status).toBe(200)
    expect(response.text).toBe('')
    const times = await Promise.all(seen.map((p) => Promise.race([p, new Promise<number>((r) => setTimeout(() => r(Number.POSITIVE_INFINITY), 15_000))])))
    pages.forEach(({ name }, i) => {
      const shown = times[i]!
      latencies.push(
        Number.isFinite(shown)
          ? `${label}, ${name}: ${shown - answered} ms after the 200 (${shown - sent} ms after the request left, the review's own ${answered - sent} ms included)`
          : `${label}, ${name}: not within 15 s`,
      )
    })
    // The server runs in this process, so its push may leave before this process reads the 200:
    // measured from the request, which bounds the time from the 200 from above.
    return times.map((t) => t - sent)
  }

  async function team(game: Game, status: 'Pending' | 'Accepted' = 'Pending') {
    const captain = await createUser(server)
    const mate = await createUser(server)
    const t = await createTeam(server, captain.user, [mate.user], { name: `T${randomBytes(3).toString('hex')}` })
    const participation = await createParticipation(server, game, t, [captain.user, mate.user], status)
    return { captain, mate, team: t, participation }
  }

  it(
    'accept: the game page offers to enter and the open challenge board appears; suspend: the board goes; another team hears nothing',
    async () => {
      const game = await createGame(server, { title: `Review CTF ${randomBytes(2).toString('hex')}` })
      await createChallenge(server, game, { title: 'Sanity', tag: 'Web' })
      const { captain, mate, participation } = await team(game)
      const rival = await team(game)

      // The captain on the game page, the mate on the challenge board (refused: not accepted yet),
      // a member of another pending team on the game page.
      const detail = await open(captain, `/games/${game.id}`)
      const board = await open(mate, `/games/${game.id}/challenges`)
      const other = await open(rival.captain, `/games/${game.id}`)
      try {
        await detail.page.locator('[data-testid="game-status"][data-status="Pending"]').waitFor()
        await board.page.getByTestId('challenges-error').waitFor({ timeout: 15_000 })
        await other.page.locator('[data-testid="game-status"][data-status="Pending"]').waitFor()
        await Promise.all([listening(captain), listening(mate), listening(rival.captain)])
        await screenshot(detail.page, 'review-01-pending')

        const [onDetail, onBoard] = await review('accept (running game)', participation.id, 'Accepted', [
          { page: detail.page, selector: '[data-testid="game-enter-challenges"]', name: 'game page' },
          { page: board.page, selector: '[data-testid="challenge-card"]', name: 'challenge board' },
        ])
        await screenshot(detail.page, 'review-02-accepted')
        await screenshot(board.page, 'review-03-board')
        expect(onDetail).toBeLessThan(BOUND_MS)
        expect(onBoard).toBeLessThan(BOUND_MS)
        await expect(detail.page.getByTestId('game-status').getAttribute('data-status')).resolves.toBe('Accepted')
        await expect(board.page.getByTestId('team-card-name').textContent()).resolves.toBeTruthy()
        // The other team's page did not change.
        await expect(other.page.getByTestId('game-status').getAttribute('data-status')).resolves.toBe('Pending')

        const [suspendedDetail, suspendedBoard] = await review('suspend', participation.id, 'Suspended', [
          { page: detail.page, selector: '[data-testid="game-status"][data-status="Suspended"]', name: 'game page' },
          { page: board.page, selector: '[data-testid="challenges-error"]', name: 'challenge board' },
        ])
        expect(suspendedDetail).toBeLessThan(BOUND_MS)
        expect(suspendedBoard).toBeLessThan(BOUND_MS)
        await expect(detail.page.getByTestId('game-enter-challenges').count()).resolves.toBe(0)
        await expect(board.page.locator('[data-testid="challenge-card"]').count()).resolves.toBe(0)
        await screenshot(board.page, 'review-04-suspended-board')

        const [rejected] = await review('reject', rival.participation.id, 'Rejected', [
          { page: other.page, selector: '[data-testid="game-status"][data-status="Rejected"]', name: 'game page' },
        ])
        expect(rejected).toBeLessThan(BOUND_MS)
        await other.page.getByTestId('game-join-open').waitFor()
        // The suspended team's page is untouched by the other team's review.
        await expect(detail.page.getByTestId('game-status').getAttribute('data-status')).resolves.toBe('Suspended')

        for (const s of [detail, board, other]) expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        for (const [name, s] of [['detail', detail], ['board', board], ['other', other]] as const) await screenshot(s.page, `review-failure-${name}`).catch(() => undefined)
        console.error('browser errors:', detail.errors, board.errors, other.errors)
        throw error
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'accept before the start: the game page says the registration passed at once',
    async () => {
      const now = Date.now()
      const game = await createGame(server, { start: new Date(now + HOUR), end: new Date(now + 24 * HOUR) })
      const { captain, participation } = await team(game)
      const detail = await open(captain, `/games/${game.id}`)
      try {
        await detail.page.locator('[data-testid="game-status"][data-status="Pending"]').waitFor()
        await listening(captain)
        const [ms] = await review('accept (game not started)', participation.id, 'Accepted', [
          { page: detail.page, selector: '[data-testid="game-status"][data-status="Accepted"]', name: 'game page' },
        ])
        expect(ms).toBeLessThan(BOUND_MS)
        await expect(detail.page.getByTestId('game-enter-challenges').count()).resolves.toBe(0)
        expect(detail.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(detail.page, 'review-failure-upcoming').catch(() => undefined)
        console.error('browser errors:', detail.errors)
        throw error
      }
    },
    E2E_TIMEOUT,
  )
})
