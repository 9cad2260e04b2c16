/**
 * Posts end to end in Chromium against the real server (serving client/dist):
 *
 * - The Admin writes a post in the editor (live preview side by side) whose Markdown carries
 *   `<script>`, `<img onerror>` and other script vectors; the editor preview, the list (summary)
 *   and the detail page render it without running any of them (a global flag the payloads
 *   would set stays unset, no dialog opens) — for the Admin and for an anonymous visitor.
 * - Pinned posts come first (list and home), the list's pin toggle keeps the post's content,
 *   editing title and pin together saves both, and deleting asks for confirmation.
 */
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, screenshot, type BrowserSession } from '../support/browser.js'

const E2E_TIMEOUT = 180_000

const PAYLOAD = [
  '# XSS 测试',
  '',
  'normal **bold** text',
  '',
  `<script>window.__xss = 'script'; alert('script')</script>`,
  '',
  `<img src=x onerror="window.__xss = 'img'; alert('img')">`,
  '',
  `<svg onload="window.__xss = 'svg'"><script>window.__xss = 'svg-script'</script></svg>`,
  '',
  `<a href="javascript:window.__xss = 'href'" id="evil-link">click me</a>`,
  '',
  `<iframe src="javascript:window.__xss = 'iframe'"></iframe>`,
  '',
  `<details open ontoggle="window.__xss = 'toggle'"><summary>more</summary>hidden</details>`,
  '',
  `[md link](javascript:window.__xss='mdlink')`,
].join('\n')

const SUMMARY = `摘要 *emphasis* <img src=x onerror="window.__xss = 'summary'; alert('summary')">`

describe.skipIf(!browserAvailable())('posts (Chromium)', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Record dialogs (alert/confirm/prompt) instead of blocking on them. */
  function watchDialogs(session: BrowserSession): string[] {
    const dialogs: string[] = []
    session.page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`)
      void dialog.dismiss()
    })
    return dialogs
  }

  const xssFlag = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null)

  /** No script vector survived in the rendered HTML under `selector`. */
  async function assertSanitised(page: Page, selector: string): Promise<void> {
    const found = await page.evaluate((sel) => {
      const root = document.querySelector(sel)
      if (!root) return null
      const handlers = [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`))
      return {
        scripts: root.querySelectorAll('script').length,
        iframes: root.querySelectorAll('iframe').length,
        jsLinks: [...root.querySelectorAll('[href], [src]')].filter((el) => /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? '')).length,
        handlers,
      }
    }, selector)
    expect(found).toEqual({ scripts: 0, iframes: 0, jsLinks: 0, handlers: [] })
  }

  it(
    'a post with script payloads renders without executing them (editor preview, list, detail)',
    async () => {
      const admin = await newSession(browser, server.url)
      const visitor = await newSession(browser, server.url)
      const adminDialogs = watchDialogs(admin)
      const visitorDialogs = watchDialogs(visitor)
      const { page } = admin
      const title = `XSS ${randomBytes(3).toString('hex')}`
      try {
        await loginAdmin(page, '/posts')
        await page.getByTestId('posts-page').waitFor()
        await page.getByTestId('post-new').click()
        await page.getByTestId('post-editor').waitFor()

        // Client-side validation uses the shared schema's message.
        await page.getByTestId('post-save').click()
        await page.getByText('标题是必需的').waitFor()

        await page.getByTestId('post-edit-title').fill(title)
        await page.getByTestId('post-edit-tags').fill('security')
        await page.getByTestId('post-edit-tags').press('Enter')
        await page.getByTestId('post-edit-summary').fill(SUMMARY)
        await page.getByTestId('post-edit-content').fill(PAYLOAD)

        // The live preview renders the Markdown, sanitised.
        await page.locator('[data-testid="post-preview-content"] h1', { hasText: 'XSS 测试' }).waitFor()
        await page.locator('[data-testid="post-preview-content"] strong', { hasText: 'bold' }).waitFor()
        await page.locator('[data-testid="post-preview-summary"] em', { hasText: 'emphasis' }).waitFor()
        await assertSanitised(page, '[data-testid="post-preview"]')
        await screenshot(page, 'posts-01-editor-preview')

        await page.getByTestId('post-save').click()
        await page.waitForURL(/\/posts\/[0-9a-f]{8}\/edit$/)
        const id = /\/posts\/([0-9a-f]{8})\/edit$/.exec(page.url())![1]
        await page.getByText('文章已创建').waitFor()
        const stored = await page.evaluate(async (postId) => (await fetch(`/api/posts/${postId}`)).json(), id)
        expect(stored).toMatchObject({ id, title, summary: SUMMARY, content: PAYLOAD, tags: ['security'], isPinned: false, authorName: 'Admin' })

        // Detail page for the Admin.
        await page.getByTestId('post-view').click()
        await page.locator('[data-testid="post-content"] h1', { hasText: 'XSS 测试' }).waitFor()
        await expect(page.getByTestId('post-title').textContent()).resolves.toBe(title)
        await page.locator('#evil-link, [data-testid="post-content"] a', { hasText: 'click me' }).first().click()
        await assertSanitised(page, '[data-testid="post-content"]')
        await screenshot(page, 'posts-02-detail-admin')

        // The list shows the summary as sanitised Markdown.
        await page.getByTestId('nav-posts').click()
        const listed = page.locator(`[data-testid="post-card"][data-post-id="${id}"]`)
        await listed.locator('[data-testid="post-summary"] em', { hasText: 'emphasis' }).waitFor()
        await assertSanitised(page, `[data-testid="post-card"][data-post-id="${id}"]`)

        // An anonymous visitor opens the post directly.
        await visitor.page.goto(`/posts/${id}`)
        await visitor.page.locator('[data-testid="post-content"] h1', { hasText: 'XSS 测试' }).waitFor()
        await visitor.page.locator('[data-testid="post-content"] img').first().waitFor({ state: 'attached' })
        await assertSanitised(visitor.page, '[data-testid="post-content"]')
        await expect(visitor.page.getByTestId('post-edit').count()).resolves.toBe(0)
        await screenshot(visitor.page, 'posts-03-detail-visitor')

        // Give any broken-image handler time to fire: nothing ran.
        await Promise.all([page.waitForTimeout(1_500), visitor.page.waitForTimeout(1_500)])
        expect(await xssFlag(page)).toBeNull()
        expect(await xssFlag(visitor.page)).toBeNull()
        expect(adminDialogs).toEqual([])
        expect(visitorDialogs).toEqual([])
        for (const s of [admin, visitor]) expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'posts-failure-admin').catch(() => undefined)
        await screenshot(visitor.page, 'posts-failure-visitor').catch(() => undefined)
        console.error('browser errors:', admin.errors, visitor.errors)
        throw error
      } finally {
        await Promise.all([admin.close(), visitor.close()])
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'pinned posts come first; pin toggle keeps the content; edit title and pin together; delete with confirmation',
    async () => {
      const api = await server.admin()
      const suffix = randomBytes(3).toString('hex')
      const create = async (title: string, isPinned: boolean) => {
        const res = await api.post('/api/edit/posts', { title, summary: `summary of ${title}`, content: `content of **${title}**`, tags: ['news'], isPinned })
        expect(res.status).toBe(200)
        return res.body as string
      }
      // Oldest first: the pinned one is the oldest, yet it must be listed first.
      const pinned = await create(`Pinned ${suffix}`, true)
      const middle = await create(`Middle ${suffix}`, false)
      const newest = await create(`Newest ${suffix}`, false)

      const session = await newSession(browser, server.url)
      const { page } = session
      const order = () => page.$$eval('[data-testid="post-list"] [data-testid="post-card"]', (cards) => cards.map((c) => [c.getAttribute('data-post-id'), c.getAttribute('data-pinned')]))
      try {
        // Anonymous list and home: the pinned post first, with its pin icon.
        await page.goto('/posts')
        await page.getByTestId('post-list').waitFor()
        expect((await order()).slice(0, 3)).toEqual([
          [pinned, 'true'],
          [newest, 'false'],
          [middle, 'false'],
        ])
        await page.locator(`[data-testid="post-card"][data-post-id="${pinned}"] [data-testid="post-pinned-icon"]`).waitFor()
        await expect(page.locator(`[data-testid="post-card"][data-post-id="${newest}"] [data-testid="post-pinned-icon"]`).count()).resolves.toBe(0)
        await expect(page.getByTestId('post-pin-toggle').count()).resolves.toBe(0)
        await page.goto('/')
        await page.getByTestId('latest-posts').waitFor()
        const home = await page.$$eval('[data-testid="latest-posts"] [data-testid="post-card"]', (cards) => cards.map((c) => c.getAttribute('data-post-id')))
        expect(home.slice(0, 3)).toEqual([pinned, newest, middle])
        await screenshot(page, 'posts-04-home-pinned-first')

        // The Admin pins the middle post from the list: it joins the pinned group, content intact.
        await loginAdmin(page, '/posts')
        await page.getByTestId('post-list').waitFor()
        await page.locator(`[data-testid="post-card"][data-post-id="${middle}"] [data-testid="post-pin-toggle"]`).click()
        await page.locator(`[data-testid="post-card"][data-post-id="${middle}"][data-pinned="true"]`).waitFor()
        const afterPin = await order()
        const firstUnpinned = afterPin.findIndex(([, p]) => p === 'false')
        expect(afterPin.slice(0, firstUnpinned).map(([postId]) => postId).sort()).toEqual([pinned, middle].sort())
        expect(afterPin.slice(firstUnpinned).every(([, p]) => p === 'false')).toBe(true)
        const middlePost = (await api.get(`/api/posts/${middle}`)).body
        expect(middlePost).toMatchObject({ isPinned: true, summary: `summary of Middle ${suffix}`, content: `content of **Middle ${suffix}**`, tags: ['news'] })
        await screenshot(page, 'posts-05-list-admin-pinned')

        // Edit the newest post: new title and pinned in one save.
        await page.locator(`[data-testid="post-card"][data-post-id="${newest}"] [data-testid="post-edit-link"]`).click()
        await page.getByTestId('post-editor').waitFor()
        await page.waitForFunction(
          (expected) => (document.querySelector('[data-testid="post-edit-title"]') as HTMLInputElement | null)?.value === expected,
          `Newest ${suffix}`,
        )
        await page.getByTestId('post-edit-title').fill(`Renamed ${suffix}`)
        await page.getByTestId('post-edit-pinned').check()
        await page.getByTestId('post-save').click()
        await page.getByText('文章已保存').waitFor()
        expect((await api.get(`/api/posts/${newest}`)).body).toMatchObject({ title: `Renamed ${suffix}`, isPinned: true, content: `content of **Newest ${suffix}**` })

        // Delete it: cancel first (nothing happens), then confirm.
        await page.getByTestId('post-delete').click()
        await page.getByTestId('confirm-cancel').click()
        expect((await api.get(`/api/posts/${newest}`)).status).toBe(200)
        await page.getByTestId('post-delete').click()
        await page.getByTestId('confirm-ok').click()
        await page.getByTestId('posts-page').waitFor()
        await page.getByText('文章已删除').waitFor()
        await page.locator(`[data-testid="post-card"][data-post-id="${newest}"]`).waitFor({ state: 'detached' })
        expect((await api.get(`/api/posts/${newest}`)).body).toEqual({ title: '文章不存在', status: 404 })

        // The deleted post's page says so.
        await page.goto(`/posts/${newest}`)
        await page.getByTestId('post-not-found').waitFor()
        await page.getByText('文章不存在').waitFor()
        await screenshot(page, 'posts-06-deleted')
        expect(session.errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
      } catch (error) {
        await screenshot(page, 'posts-failure-pinned').catch(() => undefined)
        console.error('browser errors:', session.errors)
        throw error
      } finally {
        await session.close()
      }
    },
    E2E_TIMEOUT,
  )
})
