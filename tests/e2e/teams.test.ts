/**
 * The teams screen end to end in Chromium against the real server (serving client/dist), with
 * two users in separate browser contexts:
 *
 * A creates a team, reads the invite code from the page (and copies it), B joins with it and
 * A's open page shows B live; A hands the captaincy to B, B kicks A (A's page drops the team
 * live); then the Admin bans B on admin/Users while B's page is open: the server drops B's
 * sockets, B's next request gets 403 `无权访问` and the client logs out saying the account is
 * disabled; signing in again is refused.
 *
 * A second scenario: avatar upload (and a refused file type), a locked team's deletion showing
 * the server's `队伍已锁定` verbatim, a member leaving, and a deletion reaching the other
 * member's open page live.
 */
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAMESPACES, rooms } from '@flagwave/shared/events'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, screenshot, type BrowserSession } from '../support/browser.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam, lockTeamInRunningGame, reloadTeam } from '../support/factories/teams.js'

const E2E_TIMEOUT = 180_000

describe.skipIf(!browserAvailable())('teams screen (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let tmpDir: string

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-e2e-teams-'))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true })
  })

  async function login(page: Page, userName: string, password: string, to = '/teams'): Promise<void> {
    await page.goto(`/account/login?from=${encodeURIComponent(to)}`)
    await page.getByTestId('login-username').fill(userName)
    await page.getByTestId('login-password').fill(password)
    await page.getByTestId('login-submit').click()
    await page.getByTestId('user-menu').waitFor()
  }

  /** Signed in on /teams with the realtime connection up (pushes can arrive). */
  async function openTeams(session: BrowserSession, user: TestUser): Promise<Page> {
    const { page } = session
    await login(page, user.user.userName, user.password)
    await page.locator('[data-testid="teams-page"][data-live="true"]').waitFor()
    return page
  }

  const card = (page: Page, teamName: string) => page.locator(`[data-testid="team-card"][data-team-name="${teamName}"]`)
  const memberRow = (page: Page, teamName: string, userName: string) => card(page, teamName).locator(`[data-testid="team-member"][data-user-name="${userName}"]`)

  async function confirm(page: Page): Promise<void> {
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('confirm-ok').waitFor({ state: 'detached' })
  }

  /** A marker that disappears on a full reload: live updates must keep it. */
  const markNoReload = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 1))
  const stillNoReload = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload === 1)

  it(
    'create, invite, live join, transfer, kick; a ban signs the open page out',
    async () => {
      const a = await createUser(server)
      const b = await createUser(server)
      const teamName = `Alpha${randomBytes(3).toString('hex')}`
      const sa = await newSession(browser, server.url)
      const sb = await newSession(browser, server.url)
      const sAdmin = await newSession(browser, server.url)
      await sa.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      try {
        // A: an empty list, then create a team (client-side validation first).
        const pa = await openTeams(sa, a)
        await pa.getByTestId('teams-empty').waitFor()
        await pa.getByTestId('team-create-open').click()
        await pa.getByTestId('team-create-name').fill('x'.repeat(16))
        await pa.getByTestId('team-create-submit').click()
        await pa.getByText('队伍名称过长').waitFor()
        await pa.getByTestId('team-create-name').fill(teamName)
        await pa.getByTestId('team-create-bio').fill('we hack things')
        await screenshot(pa, 'teams-01-create')
        await pa.getByTestId('team-create-submit').click()
        await card(pa, teamName).waitFor()
        await memberRow(pa, teamName, a.user.userName).locator('[data-testid="team-captain"]').waitFor()
        await expect(card(pa, teamName).getByTestId('team-bio').textContent()).resolves.toBe('we hack things')

        // A: the invite code, read from the page and copied to the clipboard.
        await card(pa, teamName).getByTestId('team-manage').click()
        await pa.getByTestId('invite-code').waitFor()
        const code = (await pa.getByTestId('invite-code').textContent())!.trim()
        const teamId = Number(await card(pa, teamName).getAttribute('data-team-id'))
        expect(code).toBe(`${teamName}:${teamId}:${code.slice(-32)}`)
        expect(code.slice(-32)).toMatch(/^[0-9a-f]{32}$/)
        await pa.getByTestId('invite-copy').click()
        await pa.getByText('邀请码已复制').waitFor()
        await expect(pa.evaluate(() => navigator.clipboard.readText())).resolves.toBe(code)
        await screenshot(pa, 'teams-02-invite-code')
        await markNoReload(pa)

        // B: a wrong code shows the server's title verbatim; the real one joins.
        const pb = await openTeams(sb, b)
        await pb.getByTestId('team-join-open').click()
        await pb.getByTestId('team-join-code').fill(`${teamName}:${teamId}:${'0'.repeat(32)}`)
        await pb.getByTestId('team-join-submit').click()
        await pb.getByText(`${teamName} 邀请无效`).waitFor()
        await pb.getByTestId('team-join-code').fill(code)
        await pb.getByTestId('team-join-submit').click()
        await card(pb, teamName).waitFor()
        await memberRow(pb, teamName, b.user.userName).waitFor()
        await expect(card(pb, teamName).getByTestId('team-manage').count()).resolves.toBe(0)
        await screenshot(pb, 'teams-03-b-joined')

        // A's open page shows B without a reload: in the dialog and on the card.
        await pa.locator(`[data-testid="manage-member"][data-user-name="${b.user.userName}"]`).waitFor()
        await memberRow(pa, teamName, b.user.userName).waitFor({ state: 'attached' })
        await pa.getByText(`${b.user.userName} 加入了队伍「${teamName}」`).waitFor()
        expect(await stillNoReload(pa)).toBe(true)
        await screenshot(pa, 'teams-04-a-sees-b-live')

        // A hands the captaincy to B (select, confirm); the dialog closes, A becomes a member.
        await pa.getByTestId('team-transfer-select').click()
        await pa.getByRole('option', { name: b.user.userName }).click()
        await pa.getByTestId('team-transfer-submit').click()
        await confirm(pa)
        await pa.getByTestId('invite-box').waitFor({ state: 'detached' })
        await memberRow(pa, teamName, b.user.userName).locator('[data-testid="team-captain"]').waitFor()
        await card(pa, teamName).getByTestId('team-leave').waitFor()
        expect((await reloadTeam(server, teamId))!.captain.id).toBe(b.user.id)

        // B's open page follows: B is captain now.
        await pb.getByText(`你已成为队伍「${teamName}」的队长`).waitFor()
        await card(pb, teamName).getByTestId('team-manage').waitFor()
        expect(await pb.evaluate(() => document.querySelectorAll('[data-testid="team-card"]').length)).toBe(1)
        await screenshot(pb, 'teams-05-b-captain')

        // B kicks A; A's open page drops the team live.
        await card(pb, teamName).getByTestId('team-manage').click()
        await pb.locator(`[data-testid="manage-member"][data-user-name="${a.user.userName}"] [data-testid="team-kick"]`).click()
        await confirm(pb)
        await pb.locator(`[data-testid="manage-member"][data-user-name="${a.user.userName}"]`).waitFor({ state: 'detached' })
        await pb.keyboard.press('Escape')
        await pb.getByTestId('invite-box').waitFor({ state: 'detached' })
        await expect(card(pb, teamName).locator('[data-testid="team-member"]').count()).resolves.toBe(1)
        await card(pa, teamName).waitFor({ state: 'detached' })
        await pa.getByTestId('teams-empty').waitFor()
        await pa.getByText(`你已不在队伍「${teamName}」中`).waitFor()
        expect(await stillNoReload(pa)).toBe(true)
        await screenshot(pa, 'teams-06-a-kicked-live')
        expect((await reloadTeam(server, teamId))!.members.getItems().map((m) => m.id)).toEqual([b.user.id])

        // The Admin bans B on admin/Users while B's page is open.
        await markNoReload(pb)
        const userSockets = async () => (await server.services.realtime.server!.of(NAMESPACES.user).in(rooms.user(b.user.id)).fetchSockets()).length
        expect(await userSockets()).toBeGreaterThan(0)
        const refused = pb.waitForResponse((r) => new URL(r.url()).pathname === '/api/team' && r.request().method() === 'GET' && r.status() === 403, { timeout: 60_000 })
        const pAdmin = sAdmin.page
        await login(pAdmin, 'Admin', ADMIN_PASSWORD, '/admin/users')
        await pAdmin.getByTestId('admin-users-page').waitFor()
        await pAdmin.getByTestId('admin-user-search').fill(b.user.userName)
        await pAdmin.getByTestId('admin-user-search').press('Enter')
        const row = pAdmin.locator(`[data-testid="admin-user-row"][data-user-name="${b.user.userName}"]`)
        await row.waitFor()
        await expect(pAdmin.locator('[data-testid="admin-user-row"]').count()).resolves.toBe(1)
        await row.getByTestId('user-ban').click()
        await confirm(pAdmin)
        await pAdmin.locator(`[data-testid="admin-user-row"][data-user-name="${b.user.userName}"][data-role="Banned"]`).waitFor()
        await screenshot(pAdmin, 'teams-07-admin-banned-b')

        // B's open page: the server dropped B's sockets; the screen refetches at once, its next
        // request is refused with 403, and the client logs out saying the account is disabled.
        const forbidden = await refused
        expect(await forbidden.json()).toEqual({ title: '无权访问', status: 403 })
        await pb.getByText('账户已被禁用').waitFor()
        await pb.getByTestId('login-page').waitFor()
        await pb.getByTestId('nav-login').waitFor()
        expect(await stillNoReload(pb)).toBe(true)
        expect(new URL(pb.url()).searchParams.get('from')).toBe('/teams')
        expect(await userSockets()).toBe(0)
        await screenshot(pb, 'teams-08-b-signed-out')
        // The client shows B signed out; the (HttpOnly) cookie the server still holds keeps answering 403.
        await expect(pb.evaluate(async () => (await fetch('/api/team')).json())).resolves.toEqual({ title: '无权访问', status: 403 })

        // Signing in again is refused with the server's message, verbatim.
        await pb.getByTestId('login-username').fill(b.user.userName)
        await pb.getByTestId('login-password').fill(b.password)
        await pb.getByTestId('login-submit').click()
        await pb.getByText('用户已被禁用').waitFor()
        await screenshot(pb, 'teams-09-b-login-disabled')

        for (const s of [sa, sb, sAdmin]) expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(sa.page, 'teams-failure-a').catch(() => undefined)
        await screenshot(sb.page, 'teams-failure-b').catch(() => undefined)
        await screenshot(sAdmin.page, 'teams-failure-admin').catch(() => undefined)
        console.error('browser errors:', sa.errors, sb.errors, sAdmin.errors)
        throw error
      } finally {
        await Promise.all([sa.close(), sb.close(), sAdmin.close()])
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'avatar upload, edit, locked team errors verbatim, leave, and a deletion reaching a member live',
    async () => {
      const captain = await createUser(server)
      const member = await createUser(server)
      const other = await createUser(server)
      const team = await createTeam(server, captain.user, [member.user, other.user], { name: `Beta${randomBytes(3).toString('hex')}` })
      const sc = await newSession(browser, server.url)
      const sm = await newSession(browser, server.url)
      try {
        const pc = await openTeams(sc, captain)
        await card(pc, team.name).waitFor()
        await card(pc, team.name).getByTestId('team-manage').click()
        await pc.getByTestId('invite-box').waitFor()

        // A file type outside docs/compatibility.md#file-and-image-urls is refused before upload; a PNG is stored as the avatar.
        const textFile = path.join(tmpDir, 'notes.txt')
        await fs.writeFile(textFile, 'not an image')
        await pc.getByTestId('team-avatar-input').setInputFiles(textFile)
        await pc.getByText('不支持此文件类型（text/plain）：请选择 PNG、GIF、JPEG、WebP、BMP 或 TIFF 图片').waitFor()
        const png = path.join(tmpDir, 'team.png')
        await sharp({ create: { width: 80, height: 80, channels: 3, background: { r: 240, g: 36, b: 36 } } })
          .png()
          .toFile(png)
        const uploaded = pc.waitForResponse((r) => r.url().endsWith(`/api/team/${team.id}/avatar`) && r.request().method() === 'PUT')
        await pc.getByTestId('team-avatar-input').setInputFiles(png)
        expect((await uploaded).status()).toBe(200)
        await pc.waitForFunction(
          (id) => /^\/assets\/[0-9a-f]{64}\/avatar$/.test(document.querySelector(`[data-testid="team-card"][data-team-id="${id}"] [data-testid="team-avatar"]`)?.getAttribute('data-src') ?? ''),
          team.id,
        )

        // Rename and new bio; the invite code follows the new name.
        const renamed = `Gamma${randomBytes(3).toString('hex')}`
        await pc.getByTestId('invite-code').waitFor()
        await pc.getByTestId('team-edit-name').fill(renamed)
        await pc.getByTestId('team-edit-bio').fill('renamed')
        await pc.getByTestId('team-edit-save').click()
        await pc.getByText('队伍信息已更新').waitFor()
        await card(pc, renamed).waitFor()
        await pc.waitForFunction((name) => document.querySelector('[data-testid="invite-code"]')?.textContent?.startsWith(`${name}:`), renamed)

        // Regenerating the invite code (confirmed) changes the token.
        const before = await pc.getByTestId('invite-code').textContent()
        await pc.getByTestId('invite-regenerate').click()
        await confirm(pc)
        await pc.waitForFunction((old) => document.querySelector('[data-testid="invite-code"]')?.textContent !== old, before)
        await screenshot(pc, 'teams-10-manage-dialog')

        // Locked: deleting shows the server's title verbatim and changes nothing.
        await lockTeamInRunningGame(server, team)
        await pc.getByTestId('team-delete').click()
        await confirm(pc)
        await pc.getByText('队伍已锁定').first().waitFor()
        expect(await reloadTeam(server, team.id)).not.toBeNull()
        await screenshot(pc, 'teams-11-locked-error')
        await pc.keyboard.press('Escape')
        await pc.getByTestId('invite-box').waitFor({ state: 'detached' })
        // Reopened after a reload, the locked team's dialog offers no invite code (joining would fail).
        await pc.reload()
        await card(pc, renamed).getByTestId('team-locked').waitFor()
        await card(pc, renamed).getByTestId('team-manage').click()
        await pc.getByTestId('team-manage-modal').getByText('队伍正在参加比赛，比赛结束前无法变动成员或解散队伍。').waitFor()
        await expect(pc.getByTestId('invite-box').count()).resolves.toBe(0)
        await pc.keyboard.press('Escape')

        // Locked: a member cannot leave either.
        const pm = await openTeams(sm, member)
        await card(pm, renamed).getByTestId('team-locked').waitFor()
        await card(pm, renamed).getByTestId('team-leave').click()
        await confirm(pm)
        await pm.getByText('队伍已锁定').waitFor()

        // Unlocked (the game is over): the member leaves, the captain's page follows live.
        const em = server.services.orm.em.fork()
        await em.getConnection().execute(`update games set "end" = now() - interval '1 hour', start = now() - interval '2 hour'`)
        await card(pm, renamed).getByTestId('team-leave').click()
        await confirm(pm)
        await pm.getByTestId('teams-empty').waitFor()
        await memberRow(pc, renamed, member.user.userName).waitFor({ state: 'detached' })

        // The member joins again with the new code; the captain deletes the team and the
        // member's open page drops it live.
        const code = (await (await captain.client.get(`/api/team/${team.id}/invite`)).body) as string
        await pm.getByTestId('team-join-open').click()
        await pm.getByTestId('team-join-code').fill(code)
        await pm.getByTestId('team-join-submit').click()
        await card(pm, renamed).waitFor()
        await memberRow(pc, renamed, member.user.userName).waitFor()
        await markNoReload(pm)
        await card(pc, renamed).getByTestId('team-manage').click()
        await pc.getByTestId('team-delete').click()
        await confirm(pc)
        await pc.getByTestId('teams-empty').waitFor()
        await pm.getByText(`队伍「${renamed}」已解散`).waitFor()
        await pm.getByTestId('teams-empty').waitFor()
        expect(await stillNoReload(pm)).toBe(true)
        expect(await reloadTeam(server, team.id)).toBeNull()
        await screenshot(pm, 'teams-12-deleted-live')

        for (const s of [sc, sm]) expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(sc.page, 'teams-failure-captain').catch(() => undefined)
        await screenshot(sm.page, 'teams-failure-member').catch(() => undefined)
        console.error('browser errors:', sc.errors, sm.errors)
        throw error
      } finally {
        await Promise.all([sc.close(), sm.close()])
      }
    },
    E2E_TIMEOUT,
  )
})
