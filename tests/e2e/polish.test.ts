/**
 * The interface's polish items (issue 16), in Chromium against the real server:
 * - a game that does not exist: a not-found page with a real heading and no game tabs (both languages);
 * - joining a game with review says the entry awaits review; the pending team is told so on the
 *   game page and on the challenges page (not "not accepted or suspended");
 * - re-submitting a solved challenge's flag says it was already solved (no celebration);
 * - the phone scoreboard: rank, team, solves and score on screen, the team column sticky over the
 *   scrolling challenge grid, with a hint;
 * - role names in words ("用户"/"User", not "USER"); the profile's save button is enabled only
 *   after a change; the same failure twice shows one toast, without a title repeating it;
 * - the contract's "Code 无效" reads as an invite-code message.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, type Player } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 120_000
const LIVE_TIMEOUT = 15_000
const PHONE = { width: 390, height: 844 }

describe.skipIf(!browserAvailable())('interface polish (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let challenges: Challenge[]
  let player: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Polish ${randomBytes(2).toString('hex')}` })
    challenges = []
    for (let i = 0; i < 8; i++) challenges.push(await createChallenge(server, game, { title: `Challenge ${i}`, tag: i % 2 ? 'Web' : 'Misc', flags: [`flag{p${i}}`] }))
    player = await createPlayer(server, game, { teamName: 'A very long team name for phones' })
    await createInstances(server, [player.participation], challenges)
    await settled(player.client, game.id, challenges[0]!.id, await submit(player.client, game.id, challenges[0]!.id, 'flag{p0}'))
    await server.services.scoreboard.rebuild(game.id)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'a missing game: a not-found page with a heading and no game tabs, in both languages',
    async () => {
      for (const [locale, heading] of [
        ['zh-CN', '比赛不存在'],
        ['en-US', 'Game not found'],
      ] as const) {
        const session = await newSession(browser, server.url, { locale })
        await runInSession(session, `polish-missing-game-${locale}`, async (page) => {
          await page.goto('/games/987654')
          await page.getByTestId('game-not-found').waitFor()
          await expect(page.getByTestId('game-not-found').locator('h2').textContent()).resolves.toBe(heading)
          await expect(page.locator('[role="tab"]').count()).resolves.toBe(0)
          await expect(page.getByTestId('game-title').count()).resolves.toBe(0)
          await screenshot(page, `polish-missing-game-${locale}`)
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'joining a reviewed game says it awaits review, and the pending team is told so where it cannot play',
    async () => {
      const reviewed = await createGame(server, { title: `Reviewed ${randomBytes(2).toString('hex')}`, acceptWithoutReview: false })
      const captain = await createUser(server)
      await createTeam(server, captain.user, [], { name: `Pending ${randomBytes(2).toString('hex')}` })
      const session = await newSession(browser, server.url)
      await signIn(session.context, captain.client, server.url)
      await runInSession(session, 'polish-pending', async (page) => {
        await page.goto(`/games/${reviewed.id}`)
        await page.getByTestId('game-join-open').click()
        await page.getByTestId('join-submit').click()
        await page.getByText('报名已提交，请等待管理员审核').waitFor({ timeout: LIVE_TIMEOUT })
        await page.waitForFunction(() => document.querySelector('[data-testid="game-status"]')?.getAttribute('data-status') === 'Pending', undefined, { timeout: LIVE_TIMEOUT })
        await page.getByTestId('game-pending').waitFor()
        await screenshot(page, 'polish-pending-detail')
        await page.goto(`/games/${reviewed.id}/challenges`)
        await expect(page.getByTestId('challenges-error-message').textContent({ timeout: LIVE_TIMEOUT })).resolves.toBe('你的队伍正在等待审核，审核通过后即可进入比赛。')
        await screenshot(page, 'polish-pending-challenges')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    're-submitting a solved challenge says it was already solved',
    async () => {
      const session = await newSession(browser, server.url)
      await signIn(session.context, player.client, server.url)
      await runInSession(session, 'polish-resubmit', async (page) => {
        await page.goto(`/games/${game.id}/challenges`)
        await page.locator(`[data-testid="challenge-card"][data-challenge-id="${challenges[0]!.id}"]`).click()
        await page.getByTestId('challenge-modal-solved').waitFor()
        await page.getByTestId('flag-input').fill('flag{p0}')
        await page.getByTestId('flag-submit').click()
        await page.locator('[data-testid="submit-result"][data-again="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('submit-result').textContent()).resolves.toBe('答案正确，但你的队伍已经解出过这道题，本次提交不再计分。')
        await expect(page.getByTestId('solve-celebration').count()).resolves.toBe(0)
        await screenshot(page, 'polish-resubmit')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'phone scoreboard: rank, team, solves and score stay on screen; the team column is sticky over the scrolling grid, with a hint',
    async () => {
      for (const locale of ['zh-CN', 'en-US']) {
        const session = await newSession(browser, server.url, { locale, viewport: PHONE, isMobile: true, hasTouch: true })
        await runInSession(session, `polish-phone-board-${locale}`, async (page) => {
          await page.goto(`/games/${game.id}/scoreboard`)
          await page.getByTestId('scoreboard-table').waitFor()
          await page.getByTestId('scoreboard-scroll-hint').waitFor()
          const row = page.locator(`[data-testid="scoreboard-row"][data-team-id="${player.team.id}"]`)
          await row.waitFor()
          const inView = (p: Page, testId: string) =>
            p.evaluate((id) => {
              const box = document.querySelector(`[data-testid="scoreboard-row"] [data-testid="${id}"]`)!.getBoundingClientRect()
              return box.left >= 0 && box.right <= window.innerWidth
            }, testId)
          await expect(inView(page, 'scoreboard-score')).resolves.toBe(true)
          await expect(inView(page, 'scoreboard-solved')).resolves.toBe(true)
          await expect(inView(page, 'scoreboard-team')).resolves.toBe(true)
          await screenshot(page, `polish-phone-board-${locale}`)
          // Scroll the grid sideways: the challenge columns move, the team column stays where it was.
          const x = async (testId: string) => (await row.getByTestId(testId).boundingBox())!.x
          const [teamBefore, scoreBefore] = [await x('scoreboard-team'), await x('scoreboard-score')]
          await page.getByTestId('scoreboard-table').hover()
          await page.mouse.wheel(300, 0)
          await expect.poll(() => x('scoreboard-score')).toBeLessThan(scoreBefore - 50)
          expect(Math.abs((await x('scoreboard-team')) - teamBefore)).toBeLessThanOrEqual(1)
          // Nothing in the header is cut off on a phone.
          const login = (await page.getByTestId('nav-login').boundingBox())!
          expect(login.x + login.width).toBeLessThanOrEqual(PHONE.width)
          await screenshot(page, `polish-phone-board-scrolled-${locale}`)
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'role names in words, save enabled only after a change, one toast without a repeated title, and the invite-code message',
    async () => {
      const user = await createUser(server)
      const session = await newSession(browser, server.url)
      await signIn(session.context, user.client, server.url)
      await runInSession(session, 'polish-profile', async (page) => {
        await page.goto('/account/profile')
        await expect(page.getByTestId('profile-role').textContent()).resolves.toBe('用户')
        await expect(page.getByTestId('profile-save').isDisabled()).resolves.toBe(true)
        await page.getByTestId('profile-bio').fill('changed')
        await expect(page.getByTestId('profile-save').isEnabled()).resolves.toBe(true)
        await page.getByTestId('user-menu').click()
        await expect(page.getByTestId('user-menu-role').textContent()).resolves.toBe('用户')
        await page.keyboard.press('Escape')

        // A wrong team invite code, twice: one toast, in words, titled once.
        await page.goto('/teams')
        for (let i = 0; i < 2; i++) {
          await page.getByTestId('team-join-open').click()
          await page.getByTestId('team-join-code').fill(`nobody:${randomBytes(4).toString('hex')}`)
          await page.getByTestId('team-join-submit').click()
          await page.getByText('邀请码无效').first().waitFor({ timeout: LIVE_TIMEOUT })
          await page.keyboard.press('Escape')
        }
        await expect(page.getByText('邀请码无效').count()).resolves.toBe(1)
        await expect(page.getByText('Code 无效').count()).resolves.toBe(0)
        await screenshot(page, 'polish-invite-code')
      })
    },
    E2E_TIMEOUT,
  )
})
