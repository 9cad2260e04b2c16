/**
 * The game editors end to end in Chromium against the real server (which serves client/dist):
 * an admin creates a game, uploads a poster, sets the blood bonus and other settings (with the
 * unsaved-changes guard in the way), creates a static-attachment and a dynamic-attachment
 * challenge, checks the live score-curve preview, uploads a challenge attachment and per-flag
 * attachments, adds flags, is refused enabling a challenge without flags (server title shown
 * verbatim), enables both, posts a notice — and the API confirms every piece was saved.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import sharp from 'sharp'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { challengeScore, encodeBloodBonus } from '@flagwave/shared/scoring'
import { WEAK_TEMPLATE_MESSAGE } from '@flagwave/shared/flags'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import { createChallenge as insertChallenge, createGame as insertGame, createParticipation, setWriteup } from '../support/factories/games.js'
import { createTeam } from '../support/factories/teams.js'
import { createUser } from '../support/factories/users.js'
import { browserAvailable, launchBrowser, newSession, screenshot } from '../support/browser.js'

const E2E_TIMEOUT = 240_000

describe.skipIf(!browserAvailable())('admin game editing (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let tmpDir: string
  let posterFile: string
  let attachmentFile: string
  let dynamicFiles: string[]

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-e2e-games-'))
    posterFile = path.join(tmpDir, 'poster.png')
    await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 13, g: 176, b: 138 } } })
      .png()
      .toFile(posterFile)
    attachmentFile = path.join(tmpDir, 'static-attachment.txt')
    await fs.writeFile(attachmentFile, 'the challenge-wide attachment\n')
    dynamicFiles = [path.join(tmpDir, 'team-a.txt'), path.join(tmpDir, 'team-b.txt')]
    await fs.writeFile(dynamicFiles[0]!, 'attachment for flag A\n')
    await fs.writeFile(dynamicFiles[1]!, 'attachment for flag B\n')
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true })
  })

  /** Wait for a response of `method` whose path matches `pattern`. */
  const response = (page: Page, method: string, pattern: RegExp) =>
    page.waitForResponse((r) => r.request().method() === method && pattern.test(new URL(r.url()).pathname))

  /** Click a Mantine Switch (its input is visually hidden: click the track's label). */
  const clickSwitch = async (page: Page, selector: string) => {
    await page.locator(`${selector}`).locator('xpath=ancestor::label[1]').click()
  }

  /** Pick an option of a Mantine Select. */
  const selectOption = async (page: Page, testId: string, label: string) => {
    await page.getByTestId(testId).click()
    await page.getByRole('option', { name: label, exact: true }).click()
  }

  /** Sign in through the login screen and land on `from`. */
  async function signIn(page: Page, from: string, testId: string) {
    await page.goto(`/account/login?from=${encodeURIComponent(from)}`)
    await page.getByTestId('login-username').fill('Admin')
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD)
    await page.getByTestId('login-submit').click()
    await page.getByTestId(testId).waitFor()
  }

  async function createChallenge(page: Page, title: string, tag: string, typeLabel: string): Promise<number> {
    await page.getByTestId('challenge-create-open').click()
    await page.getByTestId('challenge-create-title').fill(title)
    await selectOption(page, 'challenge-create-tag', tag)
    await selectOption(page, 'challenge-create-type', typeLabel)
    const created = response(page, 'POST', /\/api\/edit\/games\/\d+\/challenges$/)
    await page.getByTestId('challenge-create-submit').click()
    const res = await created
    expect(res.status()).toBe(200)
    const { id } = (await res.json()) as { id: number }
    await page.waitForURL(new RegExp(`/admin/games/\\d+/challenges/${id}$`))
    await page.getByTestId('challenge-form').waitFor()
    return id
  }

  it(
    'creates a game with poster, blood bonus, two challenges with flags and attachments, and a notice',
    async () => {
      const session = await newSession(browser, server.url)
      const { page } = session
      const api = await server.admin()
      try {
        // Sign in as the bootstrap admin; back on the game list.
        await signIn(page, '/admin/games', 'admin-games-page')
        await page.getByTestId('admin-games-empty').waitFor()

        // Create a game (title; start and end are prefilled) → the Info editor opens.
        await page.getByTestId('game-create-open').click()
        await page.getByTestId('game-create-title').fill('E2E Cup')
        await screenshot(page, 'admin-games-01-create')
        const created = response(page, 'POST', /^\/api\/edit\/games$/)
        await page.getByTestId('game-create-submit').click()
        const createdGame = (await (await created).json()) as { id: number; start: string; end: string; wpddl: string }
        const gameId = createdGame.id
        await page.waitForURL(new RegExp(`/admin/games/${gameId}/info$`))
        await page.getByTestId('game-info-form').waitFor()
        // The write-up deadline is end + 3 h, like the reference client.
        expect(Date.parse(createdGame.wpddl) - Date.parse(createdGame.end)).toBe(3 * 3600 * 1000)
        expect(Date.parse(createdGame.end)).toBeGreaterThan(Date.parse(createdGame.start))

        // Upload a poster.
        const posterUploaded = response(page, 'PUT', new RegExp(`/api/edit/games/${gameId}/poster$`))
        await page.getByTestId('game-poster-input').setInputFiles(posterFile)
        const posterRes = await posterUploaded
        expect(posterRes.status()).toBe(200)
        expect(await posterRes.json()).toMatch(/^\/assets\/[0-9a-f]{64}\/poster\.webp$/)
        await page.waitForFunction(() => /^\/assets\/[0-9a-f]{64}\/poster$/.test(document.querySelector('[data-testid="game-poster-card"]')?.getAttribute('data-poster') ?? ''))
        await page.waitForFunction(() => {
          const img = document.querySelector('[data-testid="game-poster-card"] img') as HTMLImageElement | null
          return !!img && img.complete && img.naturalWidth > 0
        })

        // The team-hash salt is shown.
        await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.querySelector('[data-testid="game-team-hash-salt"]')?.textContent ?? ''))

        // Settings: summary, content, invite code (generated), organizations, limits, blood bonus.
        await page.getByTestId('game-info-summary').fill('An end-to-end game')
        await page.getByTestId('game-info-content').fill('# Welcome\n\nHave **fun**.')
        await page.getByTestId('game-info-content-mode').getByText('预览').click()
        await page.getByTestId('game-info-content-preview').locator('strong', { hasText: 'fun' }).waitFor()
        await page.getByTestId('game-info-content-mode').getByText('编辑').click()
        await page.getByTestId('game-info-invite-generate').click()
        const inviteCode = await page.getByTestId('game-info-invite').inputValue()
        expect(inviteCode).toMatch(/^[0-9a-f]{24}$/)
        await page.getByTestId('game-info-organizations').fill('Org A')
        await page.getByTestId('game-info-organizations').press('Enter')
        await page.getByTestId('game-info-member-limit').fill('4')
        await page.getByTestId('blood-bonus-first').fill('10')
        await page.getByTestId('blood-bonus-second').fill('5.5')
        await page.getByTestId('blood-bonus-third').fill('0.1')
        const expectedBonus = encodeBloodBonus(100, 55, 1)
        await page.waitForFunction((value) => document.querySelector('[data-testid="blood-bonus-encoded"]')?.getAttribute('data-encoded') === String(value), expectedBonus)
        // Shown in points, not as the packed value.
        await expect(page.getByTestId('blood-bonus-encoded').textContent()).resolves.toBe('例如 100 分的题目：一血得 110 分，二血 105.5 分，三血 100.1 分')
        // Move the end one day later with the date-time picker (local time, sent as UTC).
        const endBefore = await page.getByTestId('game-info-end').getAttribute('data-value')
        const newEnd = dayjs(endBefore!).add(1, 'day')
        await page.getByTestId('game-info-end').click()
        await page.locator(`.mantine-DateTimePicker-day[aria-label="${newEnd.locale('zh-cn').format('D MMMM YYYY')}"]`).first().click()
        await page.locator('.mantine-DateTimePicker-submitButton').click()
        await page.waitForFunction((iso) => document.querySelector('[data-testid="game-info-end"]')?.getAttribute('data-value') === iso, newEnd.toISOString())
        await page.locator('[data-testid="game-info-form"][data-dirty="true"]').waitFor()

        // Leaving with unsaved changes asks first; cancelling stays on the editor.
        await page.getByTestId('game-edit-tab-notices').click()
        await page.getByTestId('confirm-cancel').click()
        await page.getByTestId('confirm-cancel').waitFor({ state: 'detached' })
        expect(new URL(page.url()).pathname).toBe(`/admin/games/${gameId}/info`)
        await screenshot(page, 'admin-games-02-info-dirty')

        const saved = response(page, 'PUT', new RegExp(`/api/edit/games/${gameId}$`))
        await page.getByTestId('game-info-save').click()
        const savedRes = await saved
        expect(savedRes.status()).toBe(200)
        const putBody = JSON.parse(savedRes.request().postData() ?? '{}') as Record<string, unknown>
        // Dates go out as UTC ISO strings.
        for (const key of ['start', 'end', 'wpddl']) expect(putBody[key]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        await page.getByText('比赛信息已保存').waitFor()
        await page.locator('[data-testid="game-info-form"][data-dirty="false"]').waitFor()

        const gameAfterSave = (await api.get(`/api/edit/games/${gameId}`)).body
        expect(gameAfterSave).toMatchObject({
          id: gameId,
          title: 'E2E Cup',
          summary: 'An end-to-end game',
          content: '# Welcome\n\nHave **fun**.',
          inviteCode,
          organizations: ['Org A'],
          teamMemberCountLimit: 4,
          bloodBonus: expectedBonus,
        })
        expect(gameAfterSave.poster).toMatch(/^\/assets\/[0-9a-f]{64}\/poster$/)
        expect(Date.parse(gameAfterSave.start)).toBe(Date.parse(createdGame.start))
        expect(Date.parse(gameAfterSave.end)).toBe(newEnd.valueOf())
        expect(putBody.end).toBe(newEnd.toISOString())
        await screenshot(page, 'admin-games-03-info-saved')

        // The list shows the game with its poster thumbnail.
        await page.getByTestId('edit-back-to-games').click()
        await page.locator(`[data-testid="admin-game-row"][data-game-id="${gameId}"]`).waitFor()
        await page.waitForFunction(() => {
          const img = document.querySelector('[data-testid="admin-game-poster"]') as HTMLImageElement | null
          return !!img && img.complete && img.naturalWidth > 0
        })
        await screenshot(page, 'admin-games-04-list')
        await page.locator(`[data-testid="admin-game-row"][data-game-id="${gameId}"]`).click()
        await page.getByTestId('game-info-form').waitFor()

        // Challenge 1: static attachment.
        await page.getByTestId('game-edit-tab-challenges').click()
        await page.getByTestId('admin-challenges-empty').waitFor()
        const staticId = await createChallenge(page, 'Static One', 'Web', '静态附件')

        // The score-curve preview renders and follows the inputs (shared challengeScore).
        await page.locator('[data-testid="score-curve-chart"] .recharts-line path.recharts-curve').first().waitFor()
        await expect(page.getByTestId('score-curve-at-50').textContent()).resolves.toBe(String(challengeScore(500, 0.25, 5, 50)))
        await page.getByTestId('challenge-original-score').fill('1000')
        await page.getByTestId('challenge-min-rate').fill('0.3')
        await page.getByTestId('challenge-difficulty').fill('10')
        await page.waitForFunction(
          (value) => document.querySelector('[data-testid="score-curve-at-10"]')?.textContent === String(value),
          challengeScore(1000, 0.3, 10, 10),
        )
        await expect(page.getByTestId('score-curve-min').textContent()).resolves.toBe('300')
        await page.getByTestId('challenge-content').fill('Find the flag in the **attachment**.')
        await page.getByTestId('challenge-content-preview').locator('strong', { hasText: 'attachment' }).waitFor()
        await page.getByTestId('challenge-hint-add').click()
        await page.getByTestId('challenge-hint').first().fill('Read the file')
        await screenshot(page, 'admin-games-05-challenge-edit')

        // Reloading with unsaved changes triggers the browser's beforeunload prompt; stay.
        const dialogShown = page.waitForEvent('dialog', { timeout: 10_000 })
        void page.evaluate(() => window.location.reload()).catch(() => undefined)
        const dialog = await dialogShown
        expect(dialog.type()).toBe('beforeunload')
        await dialog.dismiss()
        await page.locator('[data-testid="challenge-form"][data-dirty="true"]').waitFor()
        await expect(page.getByTestId('challenge-hint').first().inputValue()).resolves.toBe('Read the file')

        const chalSaved = response(page, 'PUT', new RegExp(`/api/edit/games/${gameId}/challenges/${staticId}$`))
        await page.getByTestId('challenge-save').click()
        expect((await chalSaved).status()).toBe(200)
        await page.locator('[data-testid="challenge-form"][data-dirty="false"]').waitFor()

        // Upload the challenge-wide attachment (POST /api/assets, then …/attachment with the hash).
        await page.getByTestId('challenge-attachment-type').getByText('平台附件').click()
        const assetUploaded = response(page, 'POST', /^\/api\/assets$/)
        const attached = response(page, 'POST', new RegExp(`/api/edit/games/${gameId}/challenges/${staticId}/attachment$`))
        await page.getByTestId('challenge-attachment-file').setInputFiles(attachmentFile)
        expect((await assetUploaded).status()).toBe(200)
        const attachedRes = await attached
        expect(attachedRes.status()).toBe(200)
        expect(JSON.parse(attachedRes.request().postData() ?? '{}')).toMatchObject({ attachmentType: 'Local', fileHash: expect.stringMatching(/^[0-9a-f]{64}$/) })
        await page.locator('[data-testid="challenge-attachment-current"][data-type="Local"]').waitFor()

        // Static flags, several at once.
        await page.getByTestId('challenge-section').getByText(/Flag 管理/).click()
        await page.getByTestId('flags-editor').waitFor()
        await page.getByTestId('flags-new').fill('flag{static_one}\nflag{static_two}\n')
        await page.getByTestId('flags-add').click()
        await page.locator('[data-testid="flag-item"]').nth(1).waitFor()
        await expect(page.getByTestId('flag-text').allTextContents()).resolves.toEqual(['flag{static_one}', 'flag{static_two}'])
        await screenshot(page, 'admin-games-06-static-flags')

        // Challenge 2: dynamic attachment; enabling it without flags is refused, verbatim.
        await page.getByTestId('game-edit-tab-challenges').click()
        await page.getByTestId('admin-challenge-list').waitFor()
        const dynamicId = await createChallenge(page, 'Dynamic Two', 'Misc', '动态附件')
        await page.getByTestId('challenge-file-name').waitFor()
        await page.getByTestId('challenge-back').click()
        const dynamicCard = page.locator(`[data-testid="admin-challenge-card"][data-challenge-id="${dynamicId}"]`)
        await dynamicCard.waitFor()
        await clickSwitch(page, `[data-testid="admin-challenge-card"][data-challenge-id="${dynamicId}"] [data-testid="admin-challenge-enable"]`)
        await page.getByText('题目无 flag，不可启用', { exact: true }).waitFor()
        await expect(dynamicCard.getAttribute('data-enabled')).resolves.toBe('false')
        await screenshot(page, 'admin-games-07-enable-refused')

        // Per-flag attachments: each file uploaded, then the flags added with Local + hash.
        await dynamicCard.getByTestId('admin-challenge-flags').click()
        await page.locator('[data-testid="flags-editor"][data-type="DynamicAttachment"]').waitFor()
        await page.getByTestId('flag-files-input').setInputFiles(dynamicFiles)
        await page.locator('[data-testid="flag-upload-row"]').nth(1).waitFor()
        await page.getByTestId('flag-upload-flag').nth(0).fill('flag{dynamic_a}')
        await page.getByTestId('flag-upload-flag').nth(1).fill('flag{dynamic_b}')
        const flagsPosted = response(page, 'POST', new RegExp(`/api/edit/games/${gameId}/challenges/${dynamicId}/flags$`))
        await page.getByTestId('flag-upload-submit').click()
        const flagsRes = await flagsPosted
        expect(flagsRes.status()).toBe(200)
        const flagBody = JSON.parse(flagsRes.request().postData() ?? '[]') as { flag: string; attachmentType: string; fileHash: string }[]
        expect(flagBody).toHaveLength(2)
        for (const f of flagBody) expect(f).toMatchObject({ attachmentType: 'Local', fileHash: expect.stringMatching(/^[0-9a-f]{64}$/) })
        await page.locator('[data-testid="flag-item"]').nth(1).waitFor()
        await expect(page.locator('[data-testid="flag-attachment"][data-type="Local"]').count()).resolves.toBe(2)
        await screenshot(page, 'admin-games-08-dynamic-flags')

        // Enable both on the list.
        await page.getByTestId('game-edit-tab-challenges').click()
        await page.getByTestId('admin-challenge-list').waitFor()
        for (const id of [staticId, dynamicId]) {
          const card = `[data-testid="admin-challenge-card"][data-challenge-id="${id}"]`
          const enabled = response(page, 'PUT', new RegExp(`/api/edit/games/${gameId}/challenges/${id}$`))
          await clickSwitch(page, `${card} [data-testid="admin-challenge-enable"]`)
          expect((await enabled).status()).toBe(200)
          await page.locator(`${card}[data-enabled="true"]`).waitFor()
        }
        await expect(page.locator('[data-testid="admin-challenge-group"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-tag')))).resolves.toEqual(['Misc', 'Web'])
        await screenshot(page, 'admin-games-09-challenges-enabled')

        // Post a notice; it is listed.
        await page.getByTestId('game-edit-tab-notices').click()
        await page.getByTestId('admin-game-notices-page').waitFor()
        await page.getByTestId('notice-new-content').fill('Welcome to **E2E Cup**!')
        const noticePosted = response(page, 'POST', new RegExp(`/api/edit/games/${gameId}/notices$`))
        await page.getByTestId('notice-post').click()
        expect((await noticePosted).status()).toBe(200)
        await page.locator('[data-testid="notice-item"] [data-testid="notice-content"] strong', { hasText: 'E2E Cup' }).waitFor()
        await screenshot(page, 'admin-games-10-notice')

        // Edit it (PUT); the list shows the new text. The toasts of the steps above close first: one under
        // the pointer stays open (Mantine pauses it on hover) and would cover the button.
        await page.mouse.move(0, 0)
        await expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 20_000 }).toBe(0)
        await page.getByTestId('notice-edit').first().click()
        await page.getByTestId('notice-edit-content').fill('Welcome to **E2E Cup**, good luck!')
        const noticeEdited = response(page, 'PUT', new RegExp(`/api/edit/games/${gameId}/notices/\\d+$`))
        await page.getByTestId('notice-edit-save').click()
        expect((await noticeEdited).status()).toBe(200)
        await page.locator('[data-testid="notice-item"] [data-testid="notice-content"]', { hasText: 'good luck!' }).waitFor()
        // Deleting asks first; cancelling keeps it.
        await page.getByTestId('notice-delete').first().click()
        await page.getByTestId('confirm-cancel').click()

        // Reload: everything is listed from the server.
        await page.reload()
        await page.locator('[data-testid="notice-item"]').first().waitFor()
        await expect(page.locator('[data-testid="notice-item"]').count()).resolves.toBe(1)

        // The API has it all.
        const challenges = (await api.get(`/api/edit/games/${gameId}/challenges`)).body as { id: number; title: string; tag: string; type: string; isEnabled: boolean; originalScore: number }[]
        expect(challenges).toEqual([
          expect.objectContaining({ id: staticId, title: 'Static One', tag: 'Web', type: 'StaticAttachment', isEnabled: true, originalScore: 1000 }),
          expect.objectContaining({ id: dynamicId, title: 'Dynamic Two', tag: 'Misc', type: 'DynamicAttachment', isEnabled: true }),
        ])
        const staticDetail = (await api.get(`/api/edit/games/${gameId}/challenges/${staticId}`)).body
        expect(staticDetail).toMatchObject({
          content: 'Find the flag in the **attachment**.',
          hints: ['Read the file'],
          minScoreRate: 0.3,
          difficulty: 10,
          attachment: { type: 'Local', url: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\/static-attachment\.txt$/), fileSize: 30 },
        })
        expect(staticDetail.flags.map((f: { flag: string }) => f.flag)).toEqual(['flag{static_one}', 'flag{static_two}'])
        const dynamicDetail = (await api.get(`/api/edit/games/${gameId}/challenges/${dynamicId}`)).body
        expect(dynamicDetail.flags.map((f: { flag: string }) => f.flag).sort()).toEqual(['flag{dynamic_a}', 'flag{dynamic_b}'])
        for (const flag of dynamicDetail.flags) expect(flag.attachment).toMatchObject({ type: 'Local', url: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\//) })
        const notices = (await api.get(`/api/edit/games/${gameId}/notices`)).body
        expect(notices).toEqual([expect.objectContaining({ type: 'Normal', content: 'Welcome to **E2E Cup**, good luck!' })])

        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-games-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
  it(
    'reviews participations, lists and downloads write-ups, and deletes the game',
    async () => {
      const game = await insertGame(server, { title: 'Review Cup' })
      const captainA = await createUser(server, { realName: '张三', stdNumber: '2023001' })
      const memberA = await createUser(server)
      const outsider = await createUser(server)
      const teamA = await createTeam(server, captainA.user, [memberA.user, outsider.user], { name: 'Alpha' })
      const partA = await createParticipation(server, game, teamA, [captainA.user, memberA.user], 'Pending', 'Org A')
      const captainB = await createUser(server)
      const teamB = await createTeam(server, captainB.user, [], { name: 'Bravo' })
      const partB = await createParticipation(server, game, teamB, [captainB.user], 'Pending')
      await setWriteup(server, partA, Buffer.from('%PDF-1.4 alpha write-up'), `Writeup-${game.id}-${teamA.id}-20240101-00.00.00Z.pdf`)

      const session = await newSession(browser, server.url, { acceptDownloads: true })
      const { page } = session
      const api = await server.admin()
      const statusOf = async (id: number) =>
        ((await api.get(`/api/game/${game.id}/participations`)).body as { id: number; status: string }[]).find((p) => p.id === id)?.status
      try {
        await signIn(page, `/admin/games/${game.id}/review`, 'admin-game-review-page')
        const pending = page.locator('[data-testid="review-group"][data-status="Pending"] [data-testid="participation-card"]')
        await pending.nth(1).waitFor()
        const cardA = page.locator(`[data-testid="participation-card"][data-participation-id="${partA.id}"]`)
        // The organization is a division of the game: its select shows it.
        await expect(cardA.getByTestId('participation-division').inputValue()).resolves.toBe('Org A')
        // Registered members first; the team member who did not register is marked.
        await expect(cardA.locator('[data-testid="participation-member"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-registered')))).resolves.toEqual([
          'true',
          'true',
          'false',
        ])
        await cardA.getByText('张三').waitFor()
        await screenshot(page, 'admin-games-11-review-pending')

        // Accept Alpha.
        const accepted = response(page, 'PUT', new RegExp(`/api/admin/participation/${partA.id}/Accepted$`))
        await cardA.getByTestId('participation-accepted').click()
        expect((await accepted).status()).toBe(200)
        await page.locator(`[data-testid="review-group"][data-status="Accepted"] [data-participation-id="${partA.id}"]`).waitFor()
        await expect(statusOf(partA.id)).resolves.toBe('Accepted')

        // Reject Bravo (confirmed).
        const cardB = page.locator(`[data-testid="participation-card"][data-participation-id="${partB.id}"]`)
        await cardB.getByTestId('participation-rejected').click()
        await page.getByTestId('confirm-ok').click()
        await page.locator(`[data-testid="review-group"][data-status="Rejected"] [data-participation-id="${partB.id}"]`).waitFor()
        await expect(statusOf(partB.id)).resolves.toBe('Rejected')

        // Suspend Alpha; cancelling the confirmation first changes nothing.
        await cardA.getByTestId('participation-suspended').click()
        await page.getByTestId('confirm-cancel').click()
        await expect(statusOf(partA.id)).resolves.toBe('Accepted')
        await cardA.getByTestId('participation-suspended').click()
        await page.getByTestId('confirm-ok').click()
        await page.locator(`[data-testid="review-group"][data-status="Suspended"] [data-participation-id="${partA.id}"]`).waitFor()
        await expect(statusOf(partA.id)).resolves.toBe('Suspended')
        await screenshot(page, 'admin-games-12-review-decided')

        // Write-ups: the list, one download, all as a zip.
        await page.getByTestId('game-edit-tab-writeups').click()
        await page.getByTestId('admin-game-writeups-page').waitFor()
        await page.locator('[data-testid="writeup-item"]').first().waitFor()
        await expect(page.locator('[data-testid="writeup-item"]').count()).resolves.toBe(1)
        await expect(page.getByTestId('writeup-team').textContent()).resolves.toBe('Alpha')
        const href = await page.getByTestId('writeup-download').getAttribute('href')
        expect(href).toMatch(/^\/assets\/[0-9a-f]{64}\/Writeup-/)
        await expect(page.evaluate(async (url) => (await fetch(url!)).text(), href)).resolves.toBe('%PDF-1.4 alpha write-up')
        const downloadStarted = page.waitForEvent('download')
        await page.getByTestId('writeups-download-all').click()
        const download = await downloadStarted
        expect(download.suggestedFilename()).toMatch(/^Writeups-.*\.zip$/)
        const zipPath = path.join(tmpDir, 'writeups.zip')
        await download.saveAs(zipPath)
        const zip = await fs.readFile(zipPath)
        expect(zip.subarray(0, 2).toString('latin1')).toBe('PK')
        await screenshot(page, 'admin-games-13-writeups')

        // Delete the game from its Info editor (确认/取消 dialog).
        await page.getByTestId('game-edit-tab-info').click()
        await page.getByTestId('game-info-form').waitFor()
        await page.getByTestId('game-delete').click()
        await page.getByTestId('confirm-cancel').click()
        expect((await api.get(`/api/edit/games/${game.id}`)).status).toBe(200)
        await page.getByTestId('game-delete').click()
        const deleted = response(page, 'DELETE', new RegExp(`/api/edit/games/${game.id}$`))
        await page.getByTestId('confirm-ok').click()
        expect((await deleted).status()).toBe(200)
        await page.waitForURL(/\/admin\/games$/)
        await page.getByTestId('admin-games-page').waitFor()
        await expect(page.locator(`[data-testid="admin-game-row"][data-game-id="${game.id}"]`).count()).resolves.toBe(0)
        expect((await api.get(`/api/edit/games/${game.id}`)).body).toEqual({ title: '比赛未找到', status: 404 })
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-games-review-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'checks flag templates live and shows test-container errors verbatim',
    async () => {
      const game = await insertGame(server, { title: 'Container Cup' })
      const challenge = await insertChallenge(server, game, { title: 'Dyn Box', type: 'DynamicContainer', isEnabled: false, flags: [] })
      const session = await newSession(browser, server.url)
      const { page } = session
      const api = await server.admin()
      try {
        await signIn(page, `/admin/games/${game.id}/challenges/${challenge.id}`, 'challenge-form')
        await page.locator('[data-testid="challenge-form"][data-type="DynamicContainer"]').waitFor()

        // A weak template: entropy shown, the server's message shown before saving, save refused client-side.
        await page.getByTestId('challenge-flag-template').fill('flag{short}')
        await page.locator('[data-testid="flag-template-check"][data-acceptable="false"]').waitFor()
        await expect(page.getByTestId('flag-template-weak').textContent()).resolves.toBe(WEAK_TEMPLATE_MESSAGE)
        await page.getByTestId('flag-template-help').getByText('flag 模板说明').click()
        await page.getByTestId('leet-table').waitFor()
        await screenshot(page, 'admin-games-14-template-weak')
        // A template with a placeholder is accepted and saved.
        await page.getByTestId('challenge-flag-template').fill('flag{[TEAM_HASH]_leet_me}')
        await page.locator('[data-testid="flag-template-check"][data-acceptable="true"]').waitFor()
        await page.getByTestId('challenge-image').fill('nginx:alpine')
        await page.getByTestId('challenge-port').fill('8080')
        await page.getByTestId('challenge-cpu').fill('5')
        await clickSwitch(page, '[data-testid="challenge-traffic-capture"]')
        const saved = response(page, 'PUT', new RegExp(`/api/edit/games/${game.id}/challenges/${challenge.id}$`))
        await page.getByTestId('challenge-save').click()
        expect((await saved).status()).toBe(200)
        await page.locator('[data-testid="challenge-form"][data-dirty="false"]').waitFor()
        expect((await api.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).body).toMatchObject({
          flagTemplate: 'flag{[TEAM_HASH]_leet_me}',
          containerImage: 'nginx:alpine',
          containerExposePort: 8080,
          cpuCount: 5,
          enableTrafficCapture: true,
        })

        // A dynamic container may be enabled without flags; the flags screen explains why.
        await clickSwitch(page, '[data-testid="challenge-enable"]')
        await page.waitForFunction(() => (document.querySelector('[data-testid="challenge-enable"]') as HTMLInputElement | null)?.checked === true)
        // Toggling sends an explicit null for traffic capture, which keeps it (omitted would clear it).
        expect((await api.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).body).toMatchObject({ isEnabled: true, enableTrafficCapture: true })
        await page.waitForFunction(() => (document.querySelector('[data-testid="challenge-traffic-capture"]') as HTMLInputElement | null)?.checked === true)
        await page.getByTestId('challenge-section').getByText(/Flag 管理/).click()
        await page.getByTestId('flags-dynamic-container').waitFor()
        await page.getByTestId('challenge-section').getByText('编辑题目').click()
        await page.getByTestId('challenge-form').waitFor()

        // Test container: whatever the server answers (no container backend here), the page
        // shows it and stays usable.
        const started = response(page, 'POST', new RegExp(`/api/edit/games/${game.id}/challenges/${challenge.id}/container$`))
        await page.getByTestId('test-container-start').click()
        const startRes = await started
        if (startRes.status() === 200) {
          await page.locator('[data-testid="test-container"][data-state="running"]').waitFor()
          await page.getByTestId('test-container-hint').waitFor()
          await page.getByTestId('test-container-stop').click()
          await page.locator('[data-testid="test-container"][data-state="none"]').waitFor()
        } else {
          const body = (await startRes.json().catch(() => ({}))) as { title?: string }
          if (body.title) await page.getByText(body.title, { exact: true }).first().waitFor()
          await expect(page.getByTestId('test-container-start').isEnabled()).resolves.toBe(true)
        }
        await screenshot(page, 'admin-games-15-test-container')

        // Delete the challenge (confirmed) → back on the (now empty) list.
        await page.getByTestId('challenge-delete').click()
        const removed = response(page, 'DELETE', new RegExp(`/api/edit/games/${game.id}/challenges/${challenge.id}$`))
        await page.getByTestId('confirm-ok').click()
        expect((await removed).status()).toBe(200)
        await page.waitForURL(new RegExp(`/admin/games/${game.id}/challenges$`))
        await page.getByTestId('admin-challenges-empty').waitFor()
        expect((await api.get(`/api/edit/games/${game.id}/challenges`)).body).toEqual([])
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-games-container-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
})
