/**
 * Playing a game end to end in Chromium against the real server (which serves client/dist):
 * two players in two teams of a running game with two challenges. Player A solves a challenge
 * in the challenge modal (verdict by push); player B's open Scoreboard and Challenges pages
 * show the solve, the new solve count and the first blood without reloading. With its socket
 * blocked, player B's verdict comes from polling the status call and A's pages still update
 * live. A third user joins the game from the game page (organization + invite code).
 */
import { randomBytes } from 'node:crypto'
import { GamePermission } from '@flagwave/shared/enums'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot, type BrowserSession } from '../support/browser.js'
import { createChallenge, createDivision, createGame, createStoredFile } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Attachment } from '../../server/src/entities/Attachment.js'

const E2E_TIMEOUT = 180_000
const LIVE_TIMEOUT = 15_000

/** Sign a browser context in with an API client's session cookie. */
async function signIn(context: BrowserContext, client: ApiClient, baseUrl: string): Promise<void> {
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: baseUrl })))
}

/** Marks the page so that a reload (which would drop the mark) is detectable. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true))
}
async function expectNotReloaded(page: Page): Promise<void> {
  await expect(page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true)).resolves.toBe(true)
}

const card = (page: Page, challengeId: number) => page.locator(`[data-testid="challenge-card"][data-challenge-id="${challengeId}"]`)
const row = (page: Page, teamId: number) => page.locator(`[data-testid="scoreboard-row"][data-team-id="${teamId}"]`)

describe.skipIf(!browserAvailable())('playing a game (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let warmup: Challenge
  let cipher: Challenge
  let alpha: Player
  let bravo: Player
  const sessions: BrowserSession[] = []

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Live CTF ${randomBytes(2).toString('hex')}`, content: '# 欢迎\n\n**实时**比赛。' })
    warmup = await createChallenge(server, game, { title: 'Warmup', tag: 'Misc', flags: ['flag{alpha_first}'], content: '找到 **flag**。', hints: ['看看源代码'] })
    cipher = await createChallenge(server, game, { title: 'Cipher', tag: 'Crypto', flags: ['flag{bravo_second}'] })
    // Warmup has a stored attachment (16 bytes).
    const file = await createStoredFile(server, Buffer.from('hello attachment'), 'warmup.txt')
    const em = server.services.orm.em.fork()
    const attachment = em.create(Attachment, { type: 'Local', fileHash: file.hash, remoteUrl: null })
    ;(await em.findOneOrFail(Challenge, { id: warmup.id })).attachment = attachment
    await em.flush()
    alpha = await createPlayer(server, game, { teamName: 'Alpha' })
    bravo = await createPlayer(server, game, { teamName: 'Bravo' })
    await createInstances(server, [alpha.participation, bravo.participation], [warmup, cipher])
    await server.services.scoreboard.rebuild(game.id)
  })

  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined)
    await browser?.close()
    await server?.close()
  })

  async function open(player: { client: ApiClient }, name: string): Promise<BrowserSession> {
    const session = await newSession(browser, server.url)
    sessions.push(session)
    await signIn(session.context, player.client, server.url)
    session.page.on('pageerror', (e) => console.error(`[${name}] pageerror`, e.message))
    return session
  }

  it(
    "A solves in the modal; B's scoreboard and board update live; with B's socket blocked the verdict comes from polling",
    async () => {
      const a = await open(alpha, 'A')
      const b = await open(bravo, 'B')
      const bBoard = await b.context.newPage()
      const pageA = a.page
      const pageB = b.page
      let offlinePage: Page | null = null
      try {
        // B watches the scoreboard…
        await pageB.goto(`/games/${game.id}/scoreboard`)
        await pageB.getByTestId('scoreboard-page').waitFor()
        await row(pageB, alpha.team.id).waitFor()
        await row(pageB, bravo.team.id).waitFor()
        await pageB.locator('[data-testid="scoreboard-page"][data-live="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(row(pageB, alpha.team.id).locator(`[data-testid="scoreboard-cell"][data-challenge-id="${warmup.id}"]`).getAttribute('data-type')).resolves.toBe('Unaccepted')
        await markPage(pageB)
        await screenshot(pageB, 'play-01-b-scoreboard-before')

        // …and the challenge board in a second tab.
        await bBoard.goto(`/games/${game.id}/challenges`)
        await card(bBoard, warmup.id).waitFor()
        await expect(card(bBoard, warmup.id).getByTestId('challenge-solved-count').getAttribute('data-count')).resolves.toBe('0')
        await expect(card(bBoard, warmup.id).getByTestId('challenge-blood').count()).resolves.toBe(0)
        await bBoard.locator('[data-testid="challenges-page"][data-live="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await markPage(bBoard)

        // A opens the board, sees both categories, opens Warmup.
        const statusCalls: string[] = []
        pageA.on('request', (r) => {
          if (/\/status\/\d+$/.test(new URL(r.url()).pathname)) statusCalls.push(r.url())
        })
        await pageA.goto(`/games/${game.id}/challenges`)
        await card(pageA, warmup.id).waitFor()
        await expect(pageA.locator('[data-testid="challenge-group"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')))).resolves.toEqual(['Misc', 'Crypto'])
        await expect(pageA.getByTestId('team-card-name').textContent()).resolves.toBe('Alpha')
        await pageA.locator('[data-testid="challenges-page"][data-live="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await screenshot(pageA, 'play-02-a-board')
        await card(pageA, warmup.id).click()
        await pageA.getByTestId('challenge-content').waitFor()
        // The flag input has the focus as soon as the challenge opens: type, Enter.
        await expect.poll(() => pageA.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: 10_000 }).toBe('flag-input')
        await expect(pageA.getByTestId('challenge-modal-title').textContent()).resolves.toBe('Warmup')
        await expect(pageA.getByTestId('challenge-hints').textContent()).resolves.toContain('看看源代码')
        const href = await pageA.getByTestId('challenge-attachment').getAttribute('href')
        expect(href).toMatch(/^\/assets\/[0-9a-f]{64}\//)
        await expect(pageA.getByTestId('challenge-attachment-size').textContent()).resolves.toBe('16 B')
        await expect(pageA.evaluate(async (url) => (await fetch(url!)).text(), href)).resolves.toBe('hello attachment')

        // A wrong flag first: WrongAnswer, inline.
        await pageA.getByTestId('flag-input').fill('flag{nope}')
        await pageA.getByTestId('flag-submit').click()
        await pageA.locator('[data-testid="submit-result"][data-status="WrongAnswer"]').waitFor({ timeout: LIVE_TIMEOUT })
        await screenshot(pageA, 'play-03-a-wrong-answer')

        // The right flag: Accepted, celebrated, marked solved.
        await pageA.getByTestId('flag-input').fill('flag{alpha_first}')
        await pageA.getByTestId('flag-submit').click()
        await pageA.getByTestId('solve-celebration').waitFor({ timeout: LIVE_TIMEOUT })
        await pageA.getByTestId('challenge-modal-solved').waitFor()
        await screenshot(pageA, 'play-04-a-accepted')
        console.info(`[play] status calls while the socket was up: ${statusCalls.length}`)
        await pageA.keyboard.press('Escape')
        await card(pageA, warmup.id).locator('[data-testid="challenge-solved-mark"]').waitFor()
        await expect(card(pageA, warmup.id).getAttribute('data-solved')).resolves.toBe('true')

        // B's scoreboard: Alpha first with a first blood on Warmup, no reload.
        const alphaWarmup = row(pageB, alpha.team.id).locator(`[data-testid="scoreboard-cell"][data-challenge-id="${warmup.id}"]`)
        await pageB.waitForFunction(
          ([teamId, challengeId]) =>
            document.querySelector(`[data-testid="scoreboard-row"][data-team-id="${teamId}"] [data-testid="scoreboard-cell"][data-challenge-id="${challengeId}"]`)?.getAttribute('data-type') ===
            'FirstBlood',
          [alpha.team.id, warmup.id],
          { timeout: LIVE_TIMEOUT },
        )
        await expect(alphaWarmup.getAttribute('data-type')).resolves.toBe('FirstBlood')
        await expect(row(pageB, alpha.team.id).getAttribute('data-rank')).resolves.toBe('1')
        await expect(row(pageB, alpha.team.id).getByTestId('scoreboard-solved').textContent()).resolves.toBe('1')
        await expect(pageB.locator('[data-testid="scoreboard-row"]').first().getAttribute('data-team-id')).resolves.toBe(String(alpha.team.id))
        await expectNotReloaded(pageB)
        await screenshot(pageB, 'play-05-b-scoreboard-live')

        // B's board: Warmup now solved once, with a first blood (by Alpha), not solved by B.
        await bBoard.waitForFunction(
          (id) => document.querySelector(`[data-testid="challenge-card"][data-challenge-id="${id}"] [data-testid="challenge-solved-count"]`)?.getAttribute('data-count') === '1',
          warmup.id,
          { timeout: LIVE_TIMEOUT },
        )
        await card(bBoard, warmup.id).locator('[data-testid="challenge-blood"][data-blood="FirstBlood"]').waitFor()
        await expect(card(bBoard, warmup.id).getAttribute('data-solved')).resolves.toBe('false')
        // The blood notice reached B's notice panel.
        await bBoard.locator('[data-testid="notice-item"][data-type="FirstBlood"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(bBoard.locator('[data-testid="notice-item"][data-type="FirstBlood"]').textContent()).resolves.toContain('Alpha')
        await expectNotReloaded(bBoard)
        await screenshot(bBoard, 'play-06-b-board-live')

        // B solves Cipher with its realtime connection blocked: the verdict comes from polling.
        await bBoard.close()
        const offline = await b.context.newPage()
        offlinePage = offline
        offline.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`))
        offline.on('console', (m) => m.type() === 'error' && b.errors.push(`console: ${m.text()}`))
        await offline.routeWebSocket(/\/socket\.io\//, (ws) => ws.close())
        const bStatusCalls: string[] = []
        offline.on('request', (r) => {
          if (/\/status\/\d+$/.test(new URL(r.url()).pathname)) bStatusCalls.push(r.url())
        })
        await offline.goto(`/games/${game.id}/challenges`)
        await card(offline, cipher.id).waitFor()
        await expect(offline.getByTestId('challenges-page').getAttribute('data-live')).resolves.toBe('false')
        await card(offline, cipher.id).click()
        await offline.getByTestId('flag-input').fill('flag{bravo_second}')
        await offline.getByTestId('flag-submit').click()
        await offline.getByTestId('solve-celebration').waitFor({ timeout: LIVE_TIMEOUT })
        expect(bStatusCalls.length).toBeGreaterThan(0)
        await screenshot(offline, 'play-07-b-accepted-by-polling')

        // A's open board shows Cipher's first blood (Bravo) live.
        await pageA.waitForFunction(
          (id) => document.querySelector(`[data-testid="challenge-card"][data-challenge-id="${id}"] [data-testid="challenge-solved-count"]`)?.getAttribute('data-count') === '1',
          cipher.id,
          { timeout: LIVE_TIMEOUT },
        )
        await card(pageA, cipher.id).locator('[data-testid="challenge-blood"][data-blood="FirstBlood"]').waitFor()
        await expect(card(pageA, cipher.id).getAttribute('data-solved')).resolves.toBe('false')
        await screenshot(pageA, 'play-08-a-board-live')

        // An announcement reaches A's notice panel live, with a toast.
        const admin = await server.admin()
        expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: '**注意**：比赛延长一小时' })).status).toBe(200)
        await pageA.locator('[data-testid="notice-item"][data-type="Normal"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(pageA.locator('[data-testid="notice-item"]').first().getAttribute('data-type')).resolves.toBe('Normal')
        await pageA.getByText('注意：比赛延长一小时').first().waitFor()
        await pageA.getByText('比赛公告').first().waitFor()
        await screenshot(pageA, 'play-09-a-notice-toast')

        for (const s of [a, b]) expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(pageA, 'play-failure-a').catch(() => undefined)
        await screenshot(pageB, 'play-failure-b').catch(() => undefined)
        if (offlinePage) await screenshot(offlinePage, 'play-failure-b-offline').catch(() => undefined)
        console.error('browser errors:', a.errors, b.errors)
        throw error
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'a user joins from the game page (team, organization, invite code) and enters the challenges',
    async () => {
      const joinGame = await createGame(server, {
        title: `Join CTF ${randomBytes(2).toString('hex')}`,
        organizations: ['Org A', 'Org B'],
        inviteCode: 'open-sesame',
        acceptWithoutReview: true,
      })
      await createChallenge(server, joinGame, { title: 'Sanity', tag: 'Web', flags: ['flag{sanity}'] })
      const user = await createUser(server)
      const team = await createTeam(server, user.user, [], { name: 'Charlie' })
      const session = await open(user, 'C')
      const { page } = session
      try {
        // The game list (first read of GET /api/game on this server, so the new games are in it).
        await page.goto('/games')
        const gameCard = page.locator(`[data-testid="game-card"][data-game-id="${joinGame.id}"]`)
        await gameCard.waitFor()
        await expect(gameCard.getByTestId('game-phase').getAttribute('data-phase')).resolves.toBe('running')
        await screenshot(page, 'play-10-games-list')
        await gameCard.click()
        await page.getByTestId('game-detail-page').waitFor()
        expect(new URL(page.url()).pathname).toBe(`/games/${joinGame.id}`)
        await expect(page.getByTestId('game-status').getAttribute('data-status')).resolves.toBe('Unsubmitted')
        await page.getByTestId('game-countdown').waitFor()
        await page.getByTestId('game-join-open').click()
        await page.getByTestId('join-submit').waitFor()
        // The only team is preselected; pick an organization and give the invite code.
        await page.getByTestId('join-org-select').click()
        await page.getByRole('option', { name: 'Org B' }).click()
        await page.getByTestId('join-invite-code').fill('wrong-code')
        await screenshot(page, 'play-11-join-form')
        await page.getByTestId('join-submit').click()
        await page.getByText('比赛邀请码错误').waitFor()
        await page.getByTestId('join-invite-code').fill('open-sesame')
        await page.getByTestId('join-submit').click()
        await page.waitForFunction(() => document.querySelector('[data-testid="game-status"]')?.getAttribute('data-status') === 'Accepted', undefined, { timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('game-team-name').textContent()).resolves.toBe(team.name)
        await expect(page.getByTestId('game-team-division').textContent()).resolves.toBe('分组：Org B')
        await screenshot(page, 'play-12-joined')
        await page.getByTestId('game-enter-challenges').click()
        await page.getByTestId('challenges-page').waitFor()
        await page.locator('[data-testid="challenge-card"]').first().waitFor({ timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('team-card-name').textContent()).resolves.toBe('Charlie')
        await screenshot(page, 'play-13-joined-board')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'play-failure-join').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'joining a division with its own invite code asks for the code only when that division is chosen; a division closed to joining is not offered',
    async () => {
      const joinGame = await createGame(server, { title: `Division CTF ${randomBytes(2).toString('hex')}`, acceptWithoutReview: true })
      await createDivision(server, joinGame, { name: 'Open' })
      await createDivision(server, joinGame, { name: 'Invited', inviteCode: 'vip' })
      await createDivision(server, joinGame, { name: 'Closed', defaultPermissions: GamePermission.All & ~GamePermission.JoinGame })
      const user = await createUser(server)
      const team = await createTeam(server, user.user, [], { name: 'Delta' })
      const session = await open(user, 'D')
      const { page } = session
      try {
        await page.goto(`/games/${joinGame.id}`)
        await page.getByTestId('game-join-open').click()
        await page.getByTestId('join-submit').waitFor()
        // The dialog asks GET …/check which divisions take new teams: Closed is not among the options.
        await page.getByTestId('join-org-select').click()
        await expect.poll(() => page.getByRole('option').allTextContents(), { timeout: 10_000 }).toEqual(['Open', 'Invited'])
        await page.getByRole('option', { name: 'Open' }).click()
        expect(await page.getByTestId('join-invite-code').count()).toBe(0)
        await page.getByTestId('join-org-select').click()
        await page.getByRole('option', { name: 'Invited' }).click()
        await page.getByTestId('join-invite-code').fill('vip')
        await page.getByTestId('join-submit').click()
        await page.waitForFunction(() => document.querySelector('[data-testid="game-status"]')?.getAttribute('data-status') === 'Accepted', undefined, { timeout: LIVE_TIMEOUT })
        await expect(page.getByTestId('game-team-name').textContent()).resolves.toBe(team.name)
        await expect(page.getByTestId('game-team-division').textContent()).resolves.toBe('分组：Invited')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'play-failure-division').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      }
    },
    E2E_TIMEOUT,
  )
})
