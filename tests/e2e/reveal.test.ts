/**
 * Replay and the staged reveal in Chromium (docs/scoring.md#replay, #staged-reveal): the replay
 * slider moves the board through the game; a full reveal driven by the big screen's keyboard and
 * the admin's phone page, the big screen following every step (also after losing the network),
 * showing a cell tried only wrongly after the freeze as pending until it resolves to not solved,
 * ending unfrozen on the live final board, with the QR code of the game page in the corner.
 */
import type { Browser, Page } from 'playwright-core'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import type { ApiClient } from '../support/client.js'
import { createGame } from '../support/factories/games.js'
import { isolateIds, type Player } from '../support/factories/play.js'
import { pastSolves, pastWrongAnswers, playersHolding, threeChallenges } from '../support/factories/history.js'
import { nativePool } from '../../server/src/db/pg.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 240_000
const LIVE_TIMEOUT = 15_000
const MIN = 60_000
const T0 = Date.now()
const FREEZE = T0 - 60 * MIN

/** The big screen's rows as [team id, score], top to bottom. */
const bigRows = (page: Page) =>
  page.$$eval('[data-testid="bigscreen-row"]', (rows) => rows.map((r) => [Number(r.getAttribute('data-team-id')), Number(r.querySelector('[data-testid="bigscreen-score"]')?.textContent)]))

describe.skipIf(!browserAvailable())('replay and staged reveal (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let pool: pg.Pool
  let admin: ApiClient
  let game: Game
  let players: Player[]
  let misc: Challenge

  async function solves(list: [Player, Challenge, number][]) {
    await pastSolves(pool, game, T0, list)
  }

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    pool = await nativePool(server.services.orm)
    admin = await server.admin()
    game = await createGame(server, { title: 'Finals', start: new Date(T0 - 180 * MIN), end: new Date(T0 - 5 * MIN), practiceMode: false, freezeTime: new Date(FREEZE), replayPublic: true })
    const challenges = await threeChallenges(server, game)
    const { web, crypto } = challenges
    misc = challenges.misc
    players = await playersHolding(server, game, [web, crypto, misc], ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'])
    const [a, b, c, d, e] = players as [Player, Player, Player, Player, Player]
    await solves([
      [a, web, -170],
      [b, web, -160],
      [c, crypto, -140],
      [a, crypto, -130],
      [d, misc, -120],
      [e, web, -55],
      [e, misc, -50],
      [c, web, -45],
      [b, crypto, -40],
      [d, crypto, -20],
      [e, crypto, -15],
    ])
    // Alpha tries misc after the freeze, wrongly only: pending on the big screen, then not solved.
    await pastWrongAnswers(pool, game, T0, [[a, misc, -35]])
    await server.services.scoreboard.rebuild(game.id)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'moves the board with the replay slider',
    async () => {
      const session = await newSession(browser, server.url)
      await signIn(session.context, admin, server.url)
      await runInSession(session, 'replay-slider', async (page) => {
        await page.goto(`/games/${game.id}/scoreboard`)
        await page.getByTestId('open-replay').click()
        await page.getByTestId('replay-page').waitFor()
        const board = page.getByTestId('replay-board')
        await board.waitFor({ timeout: LIVE_TIMEOUT })
        const live = (await admin.get<ScoreboardModel>(`/api/game/${game.id}/scoreboard?at=${T0}`)).body
        const topScore = () => page.locator('[data-testid="replay-board"] [data-testid="scoreboard-score"]').first().textContent()
        await expect.poll(topScore, { timeout: LIVE_TIMEOUT }).toBe(String(live.items[0]!.score))
        const thumb = page.getByTestId('replay-slider').getByRole('slider')
        await thumb.focus()
        await page.keyboard.press('Home')
        // At the start nobody has solved anything.
        await expect.poll(topScore, { timeout: LIVE_TIMEOUT }).toBe('0')
        await screenshot(page, 'replay-01-start')
        // Forward by keyboard steps and by play at 600×: the board fills up again.
        await page.getByTestId('replay-speed').getByText('600×').click()
        await page.getByTestId('replay-play').click()
        await expect.poll(async () => Number(await topScore()), { timeout: 30_000 }).toBeGreaterThan(0)
        const playedAt = Number(await page.getByTestId('replay-time').getAttribute('data-at'))
        expect(playedAt).toBeGreaterThan(Date.parse(game.start.toISOString()))
        await thumb.focus()
        await page.keyboard.press('End')
        await expect.poll(topScore, { timeout: LIVE_TIMEOUT }).toBe(String(live.items[0]!.score))
        const ranked = await page.$$eval('[data-testid="replay-board"] [data-testid="scoreboard-row"]', (rows) => rows.map((r) => Number(r.getAttribute('data-team-id'))))
        expect(ranked).toEqual(live.items.map((i) => i.id))
        await screenshot(page, 'replay-02-end')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'runs a full reveal from the big screen and the admin phone, ending on the live final board',
    async () => {
      const screen = await newSession(browser, server.url, { viewport: { width: 1600, height: 900 } })
      await signIn(screen.context, admin, server.url)
      const phone = await newSession(browser, server.url, { viewport: { width: 390, height: 844 }, isMobile: true })
      await signIn(phone.context, admin, server.url)
      try {
        const big = screen.page
        await big.goto(`/games/${game.id}/scoreboard/bigscreen`)
        await big.locator('[data-testid="bigscreen"][data-realtime="connected"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(big.getByTestId('bigscreen-qr').getAttribute('data-url')).resolves.toBe(`${server.url}/games/${game.id}`)
        const remote = phone.page
        await remote.goto(`/games/${game.id}/scoreboard/reveal`)
        await remote.getByTestId('reveal-open').click()
        await remote.locator('[data-testid="reveal-control"][data-open="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        const steps = Number(await remote.getByTestId('reveal-control').getAttribute('data-steps'))
        // One step per pending cell: Bravo, Charlie, Delta one each, Echo three, Alpha its wrong-only misc.
        expect(steps).toBe(7)
        // The big screen switched to the frozen board.
        await big.locator('[data-testid="bigscreen-reveal"][data-step="0"]').waitFor({ timeout: LIVE_TIMEOUT })
        const frozen = (await admin.get<ScoreboardModel>(`/api/game/${game.id}/scoreboard?at=${FREEZE - 1}`)).body
        expect(await bigRows(big)).toEqual(frozen.items.map((i) => [i.id, i.score]))
        await expect(big.getByTestId('bigscreen-pending').count()).resolves.toBe(5)
        const alpha = players[0]!.team.id
        const alphaMisc = (state: string) => big.locator(`[data-testid="bigscreen-row"][data-team-id="${alpha}"] [data-state="${state}"][data-challenge-id="${misc.id}"]`)
        await expect(alphaMisc('pending').count()).resolves.toBe(1)
        await screenshot(big, 'reveal-01-frozen')

        /** After a step: a cell opened without a solve reads "not solved" on the big screen. */
        let resolvedUnsolved = false
        const checkOpened = async (step: number) => {
          const { last } = (await admin.get<RevealState>(`/api/game/${game.id}/reveal`)).body
          if (!last || last.solved.length > 0) return
          expect([last.teamId, last.challenges]).toEqual([alpha, [misc.id]])
          await alphaMisc('unsolved').waitFor({ timeout: LIVE_TIMEOUT })
          await expect(alphaMisc('pending').count()).resolves.toBe(0)
          await big.locator('[data-testid="bigscreen-reveal-cell"][data-solved="false"]').waitFor({ timeout: LIVE_TIMEOUT })
          await screenshot(big, `reveal-step-${step}-not-solved`)
          resolvedUnsolved = true
        }

        // Step 1 by the big screen's keyboard; the phone follows.
        await big.keyboard.press('ArrowRight')
        await big.locator('[data-testid="bigscreen-reveal"][data-step="1"]').waitFor({ timeout: LIVE_TIMEOUT })
        await remote.locator('[data-testid="reveal-control"][data-step="1"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(big.locator('[data-testid="bigscreen-row"][data-revealed="true"]').count()).resolves.toBe(1)
        await checkOpened(1)

        // The big screen loses the network while the phone steps on; it catches up when back.
        await screen.context.setOffline(true)
        // The screen says the connection is lost and keeps the board (no blank screen).
        await big.getByTestId('bigscreen-offline').waitFor({ timeout: 20_000 })
        await remote.getByTestId('reveal-next').click()
        await remote.locator('[data-testid="reveal-control"][data-step="2"]').waitFor({ timeout: LIVE_TIMEOUT })
        await expect(big.getByTestId('bigscreen-row').count()).resolves.toBe(5)
        await screen.context.setOffline(false)
        await big.locator('[data-testid="bigscreen-reveal"][data-step="2"]').waitFor({ timeout: 30_000 })
        await big.getByTestId('bigscreen-offline').waitFor({ state: 'detached', timeout: 30_000 })
        await checkOpened(2)

        for (let step = 3; step <= steps; step++) {
          await remote.getByTestId('reveal-next').click()
          await big.locator(`[data-testid="bigscreen-reveal"][data-step="${step}"]`).waitFor({ timeout: LIVE_TIMEOUT })
          await checkOpened(step)
        }
        expect(resolvedUnsolved).toBe(true)
        await screenshot(big, 'reveal-02-last-step')
        await expect(big.getByTestId('bigscreen-pending').count()).resolves.toBe(0)

        await remote.getByTestId('reveal-finish').click()
        await remote.locator('[data-testid="reveal-control"][data-finished="true"]').waitFor({ timeout: LIVE_TIMEOUT })
        await big.getByTestId('bigscreen-reveal').waitFor({ state: 'detached', timeout: LIVE_TIMEOUT })
        const final = JSON.parse(JSON.stringify(await server.services.scoreboard.get(game.id))) as ScoreboardModel
        await expect.poll(() => bigRows(big), { timeout: LIVE_TIMEOUT }).toEqual(final.items.map((i) => [i.id, i.score]))
        const { rows } = await pool.query<{ unfrozen: boolean }>('select unfrozen_at is not null as unfrozen from games where id = $1', [game.id])
        expect(rows[0]!.unfrozen).toBe(true)
        await screenshot(big, 'reveal-03-final')
        expect(screen.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
        expect(phone.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } finally {
        await screen.close()
        await phone.close()
      }
    },
    E2E_TIMEOUT,
  )
})
