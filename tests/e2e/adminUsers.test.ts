/**
 * Administration of users, teams and files end to end in Chromium against the real server
 * (serving client/dist): paging and search, batch creation from pasted lines, role change,
 * approving an account (e-mail confirmed), password reset shown once with copy, editing,
 * deletion; team editing, locking and deletion; file upload, download and deletion.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, screenshot } from '../support/browser.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient } from '../support/client.js'

const E2E_TIMEOUT = 180_000

describe.skipIf(!browserAvailable())('admin users, teams and files (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let api: ApiClient

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    api = await server.admin()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const row = (page: Page, userName: string) => page.locator(`[data-testid="admin-user-row"][data-user-name="${userName}"]`)

  /** Search for a user name and wait for its row. */
  async function search(page: Page, hint: string): Promise<void> {
    await page.getByTestId('admin-user-search').fill(hint)
    await page.getByTestId('admin-user-search').press('Enter')
    await row(page, hint).waitFor()
  }

  async function confirm(page: Page): Promise<void> {
    await page.getByTestId('confirm-ok').click()
    await page.getByTestId('confirm-ok').waitFor({ state: 'detached' })
  }

  const userByName = async (userName: string) => {
    const found = await api.post(`/api/admin/users/search?hint=${encodeURIComponent(userName)}`)
    return (found.body as { data: { id: string; userName: string; role: string; emailConfirmed: boolean; realName: string; stdNumber: string }[] }).data.find((u) => u.userName === userName)
  }

  it(
    'users: paging, batch creation, search, role, approval, password reset, edit, delete',
    async () => {
      const suffix = randomBytes(2).toString('hex')
      // Enough users for a second page (20 per page).
      const bulk = Array.from({ length: 22 }, (_, i) => ({ userName: `pg${suffix}${String(i).padStart(2, '0')}`, password: 'Passw0rd!', email: `pg${suffix}${i}@example.com` }))
      expect((await api.post('/api/admin/users', bulk)).status).toBe(200)
      // An account waiting for the admin's approval cannot log in yet.
      const waiting = await createUser(server, { userName: `wait${suffix}`, emailConfirmed: false })
      expect((await server.client().post('/api/account/login', { userName: waiting.user.userName, password: waiting.password })).status).toBe(401)

      const session = await newSession(browser, server.url)
      const { page } = session
      try {
        await loginAdmin(page, '/admin/users')
        await page.getByTestId('admin-users-page').waitFor()
        await page.getByTestId('admin-user-table').waitFor()
        const total = (await api.get('/api/admin/users?count=1')).body.total as number
        expect(total).toBeGreaterThan(20)
        await expect(page.getByTestId('admin-users-total').textContent()).resolves.toBe(`共 ${total} 个用户`)
        await expect(page.locator('[data-testid="admin-user-row"]').count()).resolves.toBe(20)
        // Users are listed by id, and ids are random: the Admin's row is on page 1 or page 2.
        const listed = (await api.get('/api/admin/users?count=100')).body.data as { userName: string }[]
        const adminOnFirstPage = listed.findIndex((u) => u.userName === 'Admin') < 20
        // The Admin's own row offers no ban, role change or deletion.
        const adminRowRefusesBan = async () => expect(row(page, 'Admin').getByTestId('user-ban').isDisabled()).resolves.toBe(true)
        if (adminOnFirstPage) await adminRowRefusesBan()
        await screenshot(page, 'admin-users-01-page-1')
        await page.getByTestId('admin-users-pagination').getByRole('button', { name: '2' }).click()
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid="admin-user-row"]').length === n, total - 20)
        if (!adminOnFirstPage) await adminRowRefusesBan()

        // Batch creation: a bad line is reported with the shared schema's message, then fixed.
        const t1 = `bt${suffix}a`
        const t2 = `bt${suffix}b`
        const teamName = `Batch${suffix}`
        await page.getByTestId('admin-user-batch-open').click()
        await page.getByTestId('user-batch-text').fill(`${t1},Passw0rd!,${t1}@example.com,张三,2023001,,${teamName}\nxx,Passw0rd!,bad-email`)
        await page.getByTestId('user-batch-errors').filter({ hasText: '第 2 行：用户名过短' }).waitFor()
        await expect(page.getByTestId('user-batch-submit').isDisabled()).resolves.toBe(true)
        await page.getByTestId('user-batch-text').fill(`# name,password,email,real name,student no.,phone,team\n${t1},Passw0rd!,${t1}@example.com,张三,2023001,,${teamName}\n${t2}\tPassw0rd!\t${t2}@example.com\t\t\t\t${teamName}`)
        await page.getByTestId('user-batch-count').filter({ hasText: '将添加 2 个用户' }).waitFor()
        await screenshot(page, 'admin-users-02-batch')
        await page.getByTestId('user-batch-submit').click()
        await page.getByText('已添加 2 个用户').waitFor()
        const teams = (await api.post(`/api/admin/teams/search?hint=${teamName}`)).body.data as { name: string; members: { userName: string; captain: boolean }[] }[]
        expect(teams).toHaveLength(1)
        expect(teams[0].members.map((m) => [m.userName, m.captain]).sort()).toEqual([
          [t1, true],
          [t2, false],
        ])

        // Search, then change the role.
        await search(page, t1)
        await expect(page.locator('[data-testid="admin-user-row"]').count()).resolves.toBe(1)
        await row(page, t1).getByTestId('user-role-select').click()
        await page.getByRole('option', { name: '监视者', exact: true }).click()
        await page.getByText(`${t1} 的角色已改为 监视者`).waitFor()
        await row(page, t1).and(page.locator('[data-role="Monitor"]')).waitFor()
        expect((await userByName(t1))?.role).toBe('Monitor')

        // Approve the waiting account; it can log in afterwards.
        await search(page, waiting.user.userName)
        await expect(row(page, waiting.user.userName).getByTestId('user-email-confirmed').isChecked()).resolves.toBe(false)
        await row(page, waiting.user.userName).getByTestId('user-email-confirmed').click({ force: true })
        await page.getByText(`已批准 ${waiting.user.userName} 的账户`).waitFor()
        expect((await userByName(waiting.user.userName))?.emailConfirmed).toBe(true)
        expect((await server.client().post('/api/account/login', { userName: waiting.user.userName, password: waiting.password })).status).toBe(200)

        // Reset the password: the new one is shown once, with a copy button, and works.
        await row(page, waiting.user.userName).getByTestId('user-more').click()
        await page.getByTestId('user-reset-password').click()
        await confirm(page)
        await page.getByTestId('reset-password-value').waitFor()
        const password = (await page.getByTestId('reset-password-value').textContent())!.trim()
        expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*()\-_=+]{16}$/)
        await page.getByTestId('reset-password-copy').click()
        await page.getByText('密码已复制').waitFor()
        await screenshot(page, 'admin-users-03-password-reset')
        await page.getByTestId('reset-password-close').click()
        expect((await server.client().post('/api/account/login', { userName: waiting.user.userName, password })).status).toBe(200)
        expect((await server.client().post('/api/account/login', { userName: waiting.user.userName, password: waiting.password })).status).toBe(401)

        // Edit details; a client-side check uses the shared message first.
        await row(page, waiting.user.userName).getByTestId('user-edit').click()
        await page.getByTestId('user-edit-phone').fill('not a phone')
        await page.getByTestId('user-edit-save').click()
        await page.getByText('手机号格式错误').waitFor()
        await page.getByTestId('user-edit-phone').fill('')
        await page.getByTestId('user-edit-realname').fill('李四')
        await page.getByTestId('user-edit-stdnumber').fill('20230929')
        await page.getByTestId('user-edit-save').click()
        await page.getByText(`已更新 ${waiting.user.userName} 的信息`).waitFor()
        expect(await userByName(waiting.user.userName)).toMatchObject({ realName: '李四', stdNumber: '20230929' })

        // Ban and unban with the shortcut.
        await row(page, waiting.user.userName).getByTestId('user-ban').click()
        await confirm(page)
        await row(page, waiting.user.userName).and(page.locator('[data-role="Banned"]')).waitFor()
        await row(page, waiting.user.userName).getByTestId('user-banned-badge').waitFor()
        await row(page, waiting.user.userName).getByTestId('user-ban').click()
        await row(page, waiting.user.userName).and(page.locator('[data-role="User"]')).waitFor()
        expect((await userByName(waiting.user.userName))?.role).toBe('User')

        // Deleting a captain is refused with the server's title, verbatim.
        await search(page, t1)
        await row(page, t1).getByTestId('user-more').click()
        await page.getByTestId('user-delete').click()
        await confirm(page)
        await page.getByText('不可以删除队长').waitFor()
        expect(await userByName(t1)).toBeDefined()

        // Delete a plain user.
        await search(page, waiting.user.userName)
        await row(page, waiting.user.userName).getByTestId('user-more').click()
        await page.getByTestId('user-delete').click()
        await confirm(page)
        await page.getByText(`已删除用户 ${waiting.user.userName}`).waitFor()
        await page.getByTestId('admin-users-empty').waitFor()
        expect((await api.get(`/api/admin/users/${waiting.user.id}`)).body).toEqual({ title: '用户未找到', status: 404 })
        await screenshot(page, 'admin-users-04-deleted')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-users-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'teams: search, edit name and bio, lock, delete',
    async () => {
      const suffix = randomBytes(2).toString('hex')
      const teamName = `Adm${suffix}`
      const captain = `cap${suffix}`
      expect((await api.post('/api/admin/users', [{ userName: captain, password: 'Passw0rd!', email: `${captain}@example.com`, teamName }])).status).toBe(200)
      const session = await newSession(browser, server.url)
      const { page } = session
      const teamRow = (name: string) => page.locator(`[data-testid="admin-team-row"][data-team-name="${name}"]`)
      try {
        await loginAdmin(page, '/admin/teams')
        await page.getByTestId('admin-teams-page').waitFor()
        await teamRow(teamName).waitFor()
        await page.getByTestId('admin-team-search').fill(teamName)
        await page.getByTestId('admin-team-search').press('Enter')
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="admin-team-row"]').length === 1)
        const id = Number(await teamRow(teamName).getAttribute('data-team-id'))

        // Edit: a too-long name is refused with the shared message, then a valid edit is saved.
        await teamRow(teamName).getByTestId('admin-team-edit').click()
        await page.getByTestId('admin-team-edit-name').fill('x'.repeat(16))
        await page.getByTestId('admin-team-edit-save').click()
        await page.getByText('队伍名称过长').waitFor()
        const renamed = `Ren${suffix}`
        await page.getByTestId('admin-team-edit-name').fill(renamed)
        await page.getByTestId('admin-team-edit-bio').fill('edited by admin')
        await page.getByTestId('admin-team-edit-save').click()
        await page.getByText(`已更新队伍 ${renamed}`).waitFor()
        expect((await api.get(`/api/team/${id}`)).body).toMatchObject({ name: renamed, bio: 'edited by admin', locked: false })

        // Lock from the table.
        await page.getByTestId('admin-team-search').fill(renamed)
        await page.getByTestId('admin-team-search').press('Enter')
        // The switch's own label, as a person clicks it (its input is visually hidden).
        await teamRow(renamed).getByTestId('admin-team-locked').locator('xpath=ancestor::label[1]').click()
        await page.getByText(`已锁定队伍 ${renamed}`).waitFor()
        expect((await api.get(`/api/team/${id}`)).body.locked).toBe(true)
        await screenshot(page, 'admin-teams-01-edited-locked')

        // Delete.
        await teamRow(renamed).getByTestId('admin-team-delete').click()
        await confirm(page)
        await page.getByText(`已删除队伍 ${renamed}`).waitFor()
        await page.getByTestId('admin-teams-empty').waitFor()
        expect((await api.get(`/api/team/${id}`)).body).toEqual({ title: '队伍不存在', status: 404 })
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-teams-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'files: the admin tab, upload, download link, delete',
    async () => {
      const session = await newSession(browser, server.url)
      const { page } = session
      const first = `alpha-${randomBytes(3).toString('hex')}.txt`
      const second = `beta-${randomBytes(3).toString('hex')}.txt`
      const fileRow = (name: string) => page.locator(`[data-testid="admin-file-row"][data-name="${name}"]`)
      try {
        await loginAdmin(page, '/admin/users')
        await page.getByTestId('admin-tabs').getByRole('tab', { name: '文件' }).click()
        await page.waitForURL(/\/admin\/files$/)
        await page.getByTestId('admin-files-page').waitFor()

        const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/assets') && r.request().method() === 'POST')
        await page.getByTestId('admin-file-input').setInputFiles([
          { name: first, mimeType: 'text/plain', buffer: Buffer.from(`first ${first}`) },
          { name: second, mimeType: 'text/plain', buffer: Buffer.from(`second ${second}`) },
        ])
        const response = await uploaded
        expect(response.status()).toBe(200)
        const stored = (await response.json()) as { hash: string; name: string }[]
        expect(stored.map((f) => f.name)).toEqual([first, second])
        await fileRow(first).waitFor()
        await fileRow(second).waitFor()
        await screenshot(page, 'admin-files-01-uploaded')

        // The download link serves the bytes.
        const href = await fileRow(first).getByTestId('admin-file-link').getAttribute('href')
        expect(href).toBe(`/assets/${stored[0].hash}/${first}`)
        await expect(page.evaluate(async (url) => (await fetch(url!)).text(), href)).resolves.toBe(`first ${first}`)

        // Delete one (confirmed); the other stays.
        await fileRow(first).getByTestId('admin-file-delete').click()
        await confirm(page)
        await page.getByText(`已删除 ${first}`).waitFor()
        await fileRow(first).waitFor({ state: 'detached' })
        await fileRow(second).waitFor()
        expect((await api.get(`/assets/${stored[0].hash}/${first}`)).status).toBe(404)
        await screenshot(page, 'admin-files-02-deleted')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'admin-files-failure').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
})
