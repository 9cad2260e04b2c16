/**
 * Divisions in the browser (docs/scoring.md#divisions), in Chromium against the real server: the
 * editor's divisions tab creates, renames, sets flags and per-challenge overrides, and deletes
 * (refused with the server's message while teams are in it); the review page moves a team to
 * another division; the scoreboard has a tab per division with division ranks, and its overall tab
 * leaves out divisions not ranked overall, and a division tab follows a solve live; the game page names the team's division; the big
 * screen shows one division (?division=ID).
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createDivision, createGame, createParticipation } from '../support/factories/games.js'
import { createInstances, createPlayer, createSubmission, submit } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import type { ApiClient } from '../support/client.js'
import type { Game } from '../../server/src/entities/Game.js'

const E2E_TIMEOUT = 180_000

interface DivisionBody {
  id: number
  name: string
  inviteCode: string | null
  defaultPermissions: number
  challengeConfigs: { challengeId: number; permissions: number }[]
}

describe.skipIf(!browserAvailable())('divisions (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let admin: ApiClient

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    admin = await server.admin()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const divisionsOf = async (game: Game): Promise<DivisionBody[]> => {
    const res = await admin.get<DivisionBody[]>(`/api/edit/games/${game.id}/divisions`)
    expect(res.status).toBe(200)
    return res.body
  }

  async function adminSession() {
    const session = await newSession(browser, server.url)
    await signIn(session.context, admin, server.url)
    return session
  }

  async function team(game: Game, division: Parameters<typeof createParticipation>[5], name = `T${randomBytes(3).toString('hex')}`) {
    const captain = await createUser(server)
    const t = await createTeam(server, captain.user, [], { name })
    const participation = await createParticipation(server, game, t, [captain.user], 'Accepted', division)
    return { captain, team: t, participation }
  }

  it(
    'the editor creates, renames, sets flags, invite code and a challenge override, and deletes a division',
    async () => {
      const game = await createGame(server, { title: `Div Edit ${randomBytes(2).toString('hex')}` })
      const web = await createChallenge(server, game, { title: 'WebOne', tag: 'Web' })
      await createChallenge(server, game, { title: 'PwnOne', tag: 'Pwn' })
      const occupied = await createDivision(server, game, { name: 'Occupied' })
      await team(game, occupied)

      await runInSession(await adminSession(), 'divisions-editor', async (page) => {
        await page.goto(`/admin/games/${game.id}/divisions`)
        await page.getByTestId('admin-game-divisions-page').waitFor()
        await page.locator(`[data-testid="division-card"][data-division-id="${occupied.id}"]`).waitFor()

        // Create.
        await page.getByTestId('division-create-name').fill('Students')
        const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/divisions$/.test(r.url()))
        await page.getByTestId('division-create-submit').click()
        const { id } = (await (await created).json()) as DivisionBody
        const card = page.locator(`[data-testid="division-card"][data-division-id="${id}"]`)
        await card.waitFor()
        await expect(card.getByTestId('division-save').isDisabled()).resolves.toBe(true)

        // Rename, invite code, drop RankOverall from the defaults, an override on WebOne without SubmitFlags.
        await card.getByTestId('division-name').fill('Students (campus)')
        await card.getByTestId('division-invite-code').fill('campus-code')
        await card.getByTestId('division-default-RankOverall').click()
        const row = card.locator(`[data-testid="division-override"][data-challenge-id="${web.id}"]`)
        await expect(row.getByTestId('division-override-SubmitFlags').isDisabled()).resolves.toBe(true)
        await row.getByTestId('division-override-custom').click()
        await row.getByTestId('division-override-SubmitFlags').click()
        await card.getByTestId('division-dirty').waitFor()
        await screenshot(page, 'divisions-01-editor')
        const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/divisions/${id}`))
        await card.getByTestId('division-save').click()
        expect((await saved).status()).toBe(200)
        await card.getByTestId('division-dirty').waitFor({ state: 'detached' })

        const stored = (await divisionsOf(game)).find((d) => d.id === id)!
        const defaults = GamePermission.All & ~GamePermission.RankOverall
        expect(stored).toEqual({
          id,
          name: 'Students (campus)',
          inviteCode: 'campus-code',
          defaultPermissions: defaults,
          challengeConfigs: [{ challengeId: web.id, permissions: defaults & ~GamePermission.SubmitFlags }],
        })

        // A reload shows what was stored.
        await page.reload()
        await card.waitFor()
        await expect(card.getByTestId('division-name').inputValue()).resolves.toBe('Students (campus)')
        await expect(card.getByTestId('division-default-RankOverall').isChecked()).resolves.toBe(false)
        await expect(row.getAttribute('data-custom')).resolves.toBe('true')
        await expect(row.getByTestId('division-override-SubmitFlags').isChecked()).resolves.toBe(false)

        // Deleting a division with a team is refused with the server's message; an empty one goes.
        const occupiedCard = page.locator(`[data-testid="division-card"][data-division-id="${occupied.id}"]`)
        await occupiedCard.getByTestId('division-delete').click()
        await page.getByTestId('confirm-ok').click()
        await page.getByText('分组中仍有队伍，无法删除').first().waitFor()
        await card.getByTestId('division-delete').click()
        await page.getByTestId('confirm-ok').click()
        await card.waitFor({ state: 'detached' })
        expect((await divisionsOf(game)).map((d) => d.id)).toEqual([occupied.id])
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'the review page shows each team’s division and moves a team to another',
    async () => {
      const game = await createGame(server, { title: `Div Review ${randomBytes(2).toString('hex')}` })
      const open = await createDivision(server, game, { name: 'Open' })
      const students = await createDivision(server, game, { name: 'Students' })
      const { participation } = await team(game, open)

      await runInSession(await adminSession(), 'divisions-review', async (page) => {
        await page.goto(`/admin/games/${game.id}/review`)
        const card = page.locator(`[data-testid="participation-card"][data-participation-id="${participation.id}"]`)
        const select = card.getByTestId('participation-division')
        await expect(select.inputValue()).resolves.toBe('Open')
        await select.click()
        const moved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/admin/participation/${participation.id}`))
        await page.getByRole('option', { name: 'Students', exact: true }).click()
        const res = await moved
        expect(res.status()).toBe(200)
        expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({ divisionId: students.id })
        await page.getByText('已移至分组').first().waitFor()
        await screenshot(page, 'divisions-02-review')
        await page.reload()
        await expect(card.getByTestId('participation-division').inputValue()).resolves.toBe('Students')
      })
      const list = await admin.get<{ id: number; divisionId: number | null; organization: string | null }[]>(`/api/game/${game.id}/participations`)
      expect(list.body.find((p) => p.id === participation.id)).toMatchObject({ divisionId: students.id, organization: 'Students' })
    },
    E2E_TIMEOUT,
  )

  it(
    'the scoreboard has a tab per division, the game page names the division, the big screen shows one division or cycles',
    async () => {
      const game = await createGame(server, { title: `Div Board ${randomBytes(2).toString('hex')}` })
      const web = await createChallenge(server, game, { title: 'WebOne', tag: 'Web' })
      const pwn = await createChallenge(server, game, { title: 'PwnOne', tag: 'Pwn' })
      const open = await createDivision(server, game, { name: 'Open' })
      // Guests: not ranked overall, and PwnOne hidden from them.
      const guestDefaults = GamePermission.All & ~GamePermission.RankOverall
      const guests = await createDivision(server, game, {
        name: 'Guests',
        defaultPermissions: guestDefaults,
        challengeConfigs: [{ challengeId: pwn.id, permissions: guestDefaults & ~GamePermission.ViewChallenge }],
      })
      const o1 = await createPlayer(server, game, { organization: open, teamName: 'OpenOne' })
      const o2 = await createPlayer(server, game, { organization: open, teamName: 'OpenTwo' })
      const g1 = await createPlayer(server, game, { organization: guests, teamName: 'GuestOne' })
      const g2 = await createPlayer(server, game, { organization: guests, teamName: 'GuestTwo' })
      await createInstances(server, [o1, o2, g1, g2].map((p) => p.participation), [web, pwn])
      const minute = 60_000
      const t0 = Date.now() - 30 * minute
      await createSubmission(server, game, web, g1.participation, g1.user, { submitTime: new Date(t0) })
      await createSubmission(server, game, web, o1.participation, o1.user, { submitTime: new Date(t0 + minute) })
      await createSubmission(server, game, web, o2.participation, o2.user, { submitTime: new Date(t0 + 2 * minute) })
      await createSubmission(server, game, pwn, o2.participation, o2.user, { submitTime: new Date(t0 + 3 * minute) })

      const rows = async (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-team-id'))))
      const shownRanks = async (page: Page, selector: string) => page.locator(selector).allTextContents()

      const session = await newSession(browser, server.url, { viewport: { width: 1600, height: 900 } })
      await signIn(session.context, g1.client, server.url)
      await runInSession(session, 'divisions-board', async (page) => {
        // The game page names the team's division.
        await page.goto(`/games/${game.id}`)
        await expect(page.getByTestId('game-team-division').textContent()).resolves.toBe('分组：Guests')
        await expect(page.getByTestId('game-team-division').getAttribute('data-division-id')).resolves.toBe(String(guests.id))

        // Overall: only the teams ranked overall, ranked overall.
        await page.goto(`/games/${game.id}/scoreboard`)
        await page.getByTestId('scoreboard-division-tabs').waitFor()
        await page.locator('[data-testid="scoreboard-row"]').first().waitFor()
        expect(await rows(page, '[data-testid="scoreboard-row"]')).toEqual([o2.team.id, o1.team.id])
        expect(await shownRanks(page, '[data-testid="scoreboard-rank"]')).toEqual(['1', '2'])
        await screenshot(page, 'divisions-03-board-overall')

        // Guests: its team with its division rank, and only the challenges it may view.
        await page.getByTestId(`scoreboard-division-tab-${guests.id}`).click()
        await page.locator(`[data-testid="scoreboard-row"][data-team-id="${g1.team.id}"]`).waitFor()
        expect(await rows(page, '[data-testid="scoreboard-row"]')).toEqual([g1.team.id, g2.team.id])
        expect(await shownRanks(page, '[data-testid="scoreboard-rank"]')).toEqual(['1', '2'])
        await expect(page.locator(`[data-testid="scoreboard-cell"][data-challenge-id="${pwn.id}"]`).count()).resolves.toBe(0)
        await expect(page.locator(`[data-testid="scoreboard-cell"][data-challenge-id="${web.id}"]`).count()).resolves.toBe(2)
        await expect(page.getByTestId('scoreboard-my-rank').textContent()).resolves.toContain('#1')
        await screenshot(page, 'divisions-04-board-guests')

        // Live on the division tab: GuestTwo solves WebOne over the API; the pushed delta fills its
        // cell and its score without a reload (the marker set on the window survives).
        await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
        const g2Web = page.locator(`[data-testid="scoreboard-row"][data-team-id="${g2.team.id}"] [data-testid="scoreboard-cell"][data-challenge-id="${web.id}"]`)
        await expect(g2Web.getAttribute('data-type')).resolves.toBe('Unaccepted')
        await submit(g2.client, game.id, web.id, 'flag{test}')
        await page.locator(`[data-testid="scoreboard-row"][data-team-id="${g2.team.id}"] [data-testid="scoreboard-cell"][data-challenge-id="${web.id}"]:not([data-type="Unaccepted"])`).waitFor({ timeout: 8_000 })
        await expect(page.locator(`[data-testid="scoreboard-row"][data-team-id="${g2.team.id}"] [data-testid="scoreboard-score"]`).textContent()).resolves.not.toBe('0')
        await expect(page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).resolves.toBe(true)
        await screenshot(page, 'divisions-04b-board-guests-live')

        // Open: both Open teams with division ranks, both challenges.
        await page.getByTestId(`scoreboard-division-tab-${open.id}`).click()
        await page.locator(`[data-testid="scoreboard-row"][data-team-id="${o1.team.id}"]`).waitFor()
        expect(await rows(page, '[data-testid="scoreboard-row"]')).toEqual([o2.team.id, o1.team.id])
        await expect(page.locator(`[data-testid="scoreboard-cell"][data-challenge-id="${pwn.id}"]`).count()).resolves.toBe(2)
        await expect(page.getByTestId('scoreboard-my-rank').count()).resolves.toBe(0)
        // The big-screen button keeps the division.
        await expect(page.getByTestId('open-bigscreen').getAttribute('href')).resolves.toBe(`/games/${game.id}/scoreboard/bigscreen?division=${open.id}`)

        // Big screen: one division.
        await page.goto(`/games/${game.id}/scoreboard/bigscreen?division=${guests.id}`)
        await page.locator(`[data-testid="bigscreen-row"][data-team-id="${g1.team.id}"]`).waitFor()
        expect(await rows(page, '[data-testid="bigscreen-row"]')).toEqual([g1.team.id, g2.team.id])
        expect(await shownRanks(page, '[data-testid="bigscreen-rank"]')).toEqual(['1', '2'])
        await expect(page.getByTestId('bigscreen-division').textContent()).resolves.toBe('Guests')
        await screenshot(page, 'divisions-05-bigscreen-guests')

        // Big screen without a division: the overall board.
        await page.goto(`/games/${game.id}/scoreboard/bigscreen`)
        await page.locator(`[data-testid="bigscreen-row"][data-team-id="${o2.team.id}"]`).waitFor()
        expect(await rows(page, '[data-testid="bigscreen-row"]')).toEqual([o2.team.id, o1.team.id])
        await expect(page.getByTestId('bigscreen-division').textContent()).resolves.toBe('总榜')

        // Cycling: overall, then each division in id order, then overall again.
        await page.goto(`/games/${game.id}/scoreboard/bigscreen?cycle=5`)
        await page.locator('[data-testid="bigscreen"][data-division-id="all"] [data-testid="bigscreen-row"]').first().waitFor()
        for (const id of [open.id, guests.id, 'all']) await page.locator(`[data-testid="bigscreen"][data-division-id="${id}"]`).waitFor({ timeout: 12_000 })
      })
    },
    E2E_TIMEOUT,
  )
})
