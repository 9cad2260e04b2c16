/**
 * An opening reaches open pages as a difference (Chromium against the real server;
 * docs/realtime.md#scoreboard-versions-and-gap-repair): with every whole board announced
 * (`SCOREBOARD_PUSH_MAX_BYTES=0`, standing for a thousand-team board), an admin enabling a
 * challenge makes the player's open scoreboard page show the new challenge's column and the open
 * challenge board its card, without a reload and without reading the scoreboard again — the SPA
 * folds the pushed difference (`added`) into the board it holds (the 10-second refresh is paused
 * while the socket is up, and the NewChallenge notice refetches only the challenge board). The old
 * board stays on screen, its solves included. The board read the notice calls for — spread over a
 * few seconds when the card is shown already — corrects what is the team's own (a lock).
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAMESPACES, rooms } from '@flagwave/shared/events'
import { OPENING_READ_SPREAD_MS } from '@flagwave/shared/limits'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, settled, submit, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 180_000
/** Far below the 10-second refresh (paused anyway while the socket is up), generous for 2 shared cores. */
const LIVE_TIMEOUT = 5_000

const cell = (page: Page, teamId: number, challengeId: number) =>
  page.locator(`[data-testid="scoreboard-row"][data-team-id="${teamId}"] [data-testid="scoreboard-cell"][data-challenge-id="${challengeId}"]`)
/** A challenge's card on the challenge board; `more` narrows it (an attribute selector). */
const card = (page: Page, challengeId: number, more = '') => page.locator(`[data-testid="challenge-card"][data-challenge-id="${challengeId}"]${more}`)

describe.skipIf(!browserAvailable())('an opening on a large board, folded as a difference (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let sanity: Challenge
  let alpha: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer({ env: { SCOREBOARD_PUSH_MAX_BYTES: '0' } }), launchBrowser()])
    game = await createGame(server, { title: `Opening ${randomBytes(2).toString('hex')}`, practiceMode: false })
    sanity = await createChallenge(server, game, { title: 'Sanity', tag: 'Misc', flags: ['flag{sanity}'] })
    alpha = await createPlayer(server, game, { teamName: 'Alpha' })
    await createInstances(server, [alpha.participation], [sanity])
    expect(await settled(alpha.client, game.id, sanity.id, await submit(alpha.client, game.id, sanity.id, 'flag{sanity}'))).toBe('Accepted')
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** How many sockets watch the game (the pages' sockets must before the opening). */
  const watching = () => server.services.realtime.server!.of(NAMESPACES.user).adapter.rooms.get(rooms.game(game.id))?.size ?? 0

  it(
    'shows the new column on the open scoreboard and the new card on the open challenge board',
    async () => {
      const fresh = await createChallenge(server, game, { title: 'Fresh', tag: 'Web', isEnabled: false, flags: ['flag{fresh}'] })
      const session = await newSession(browser, server.url)
      await signIn(session.context, alpha.client, server.url)
      await runInSession(session, 'opening-player', async (page) => {
        const board = await session.context.newPage()
        await page.goto(`/games/${game.id}/scoreboard`)
        await cell(page, alpha.team.id, sanity.id).waitFor()
        await board.goto(`/games/${game.id}/challenges`)
        await card(board, sanity.id).waitFor()
        // Both pages' sockets watch the game before the opening.
        await expect.poll(watching, { timeout: LIVE_TIMEOUT }).toBeGreaterThanOrEqual(2)
        expect(await cell(page, alpha.team.id, fresh.id).count()).toBe(0)

        // Every read of the scoreboard from here on: the difference needs none.
        const reads: string[] = []
        page.on('request', (request) => {
          if (new URL(request.url()).pathname.toLowerCase() === `/api/game/${game.id}/scoreboard`) reads.push(request.url())
        })
        const admin = await server.admin()
        const started = Date.now()
        expect((await admin.put(`/api/edit/games/${game.id}/challenges/${fresh.id}`, { isEnabled: true })).status).toBe(200)
        await cell(page, alpha.team.id, fresh.id).waitFor({ state: 'attached', timeout: LIVE_TIMEOUT })
        await expect(cell(page, alpha.team.id, fresh.id).getAttribute('data-type')).resolves.toBe('Unaccepted')
        // The board kept what it showed: alpha's solve is still there.
        await cell(page, alpha.team.id, sanity.id).waitFor()
        await card(board, fresh.id).waitFor({ timeout: LIVE_TIMEOUT })
        console.log(`[opening] new column on the open scoreboard ${Date.now() - started} ms after the admin's request`)
        expect(reads).toEqual([])
        await screenshot(page, 'opening-01-scoreboard')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'the board read after an opening corrects what is the team’s own: a challenge locked by prerequisites turns locked',
    async () => {
      // Locked for alpha until it solves First: the pushed column shows the card,
      // the board read the NewChallenge notice calls for (spread over OPENING_READ_SPREAD_MS) shows it locked.
      const admin = await server.admin()
      const first = await createChallenge(server, game, { title: 'First', tag: 'Web', flags: ['flag{first}'] })
      await createInstances(server, [alpha.participation], [first])
      const gated = await createChallenge(server, game, { title: 'Gated', tag: 'Web', isEnabled: false, flags: ['flag{gated}'] })
      expect((await admin.put(`/api/edit/games/${game.id}/challenges/${gated.id}/prerequisites`, { prerequisites: [first.id] })).status).toBe(200)
      const session = await newSession(browser, server.url)
      await signIn(session.context, alpha.client, server.url)
      await runInSession(session, 'opening-locked', async (page) => {
        await page.goto(`/games/${game.id}/challenges`)
        await card(page, first.id).waitFor()
        await expect.poll(watching, { timeout: LIVE_TIMEOUT }).toBeGreaterThanOrEqual(1)
        let detailsReads = 0
        page.on('request', (request) => {
          if (new URL(request.url()).pathname.toLowerCase() === `/api/game/${game.id}/details`) detailsReads += 1
        })
        expect((await admin.put(`/api/edit/games/${game.id}/challenges/${gated.id}`, { isEnabled: true })).status).toBe(200)
        await card(page, gated.id).waitFor({ timeout: LIVE_TIMEOUT })
        await card(page, gated.id, '[data-locked="true"]').waitFor({ timeout: OPENING_READ_SPREAD_MS + LIVE_TIMEOUT })
        expect(detailsReads).toBeGreaterThanOrEqual(1)
        await screenshot(page, 'opening-02-locked')
      })
    },
    E2E_TIMEOUT,
  )
})
