/**
 * Interface features of issue 16, in Chromium against the real server (desktop):
 * - math and code: challenge statements, hints, notices and posts render KaTeX math and
 *   highlighted code, sanitised; KaTeX and highlight.js stay out of the first page's JavaScript;
 * - the home page shows the running and upcoming games (poster, time left, a way in) above the posts;
 * - admin ↔ game: the game editor links to the game's page, scoreboard, big screen and monitor; the
 *   navbar's monitor entry works for Admins and Monitors before any game was opened;
 * - the notice panel filters by type, and a disabled challenge's NewChallenge notice is gone;
 * - branding: Flagwave's own title and slogan by default; an organiser's logo shows in the header and
 *   its favicon in the tab;
 * - container failures: the player and the editor read the reason in their language; enabling a
 *   container challenge without a container engine warns the editor.
 */
import { gzipSync } from 'node:zlib'
import sharp from 'sharp'
import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createUser } from '../support/factories/users.js'
import { createChallenge, createGame, createNotice } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 120_000
const HOUR = 3_600_000

const STATEMENT = [
  'Euler: $e^{i\\pi} + 1 = 0$, and costs $5 or $10 stay text.',
  '',
  '$$',
  '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
  '$$',
  '',
  '```python',
  'def solve(n):',
  '    return n * 2  # double',
  '```',
  '',
  'Inline `$not math$` code. <img src="x" onerror="window.__pwned = 1">',
].join('\n')

/** JavaScript files a page load fetched, with their gzipped sizes. */
function collectScripts(page: Page): Promise<{ url: string; gzip: number }[]>[] {
  const sizes: Promise<{ url: string; gzip: number }[]>[] = []
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return
    sizes.push(response.body().then((body) => [{ url: response.url(), gzip: gzipSync(body, { level: 9 }).length }]))
  })
  return sizes
}

describe.skipIf(!browserAvailable())('interface features (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let challenge: Challenge
  let player: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Running ${randomBytes(2).toString('hex')}` })
    challenge = await createChallenge(server, game, { title: 'Math', content: STATEMENT, hints: ['Try $x \\bmod 7$ first'], flags: ['flag{m}'] })
    player = await createPlayer(server, game, { teamName: 'Mathletes' })
    await createInstances(server, [player.participation], [challenge])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'first page: KaTeX and highlight.js are not loaded (the 250 KB budget itself is checked with the rest of the bundle)',
    async () => {
      const admin = await server.admin()
      expect((await admin.post('/api/edit/posts', { title: 'Plain', summary: 'Welcome, **players**.', content: 'x' })).status).toBe(200)
      const session = await newSession(browser, server.url)
      const scripts = collectScripts(session.page)
      await runInSession(session, 'features-first-page', async (page) => {
        await page.goto('/', { waitUntil: 'networkidle' })
        await page.getByTestId('post-summary').first().waitFor()
        const loaded = (await Promise.all(scripts)).flat()
        const total = loaded.reduce((sum, s) => sum + s.gzip, 0)
        console.info(`[features] first page: ${loaded.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped`)
        expect(loaded.length).toBeGreaterThan(0)
        expect(loaded.filter((s) => /katex|languages/i.test(s.url))).toEqual([])
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'math and code in a statement, a hint, a notice and a post; markup stays sanitised',
    async () => {
      await createNotice(server, game, { content: 'Notice: $\\sqrt{2}$ is irrational' })
      const admin = await server.admin()
      expect((await admin.post('/api/edit/posts', { title: 'Math post', summary: 'Area $\\pi r^2$\n\n```c\nint main(void) { return 0; }\n```', content: 'x', isPinned: true })).status).toBe(200)
      const session = await newSession(browser, server.url)
      await signIn(session.context, player.client, server.url)
      await runInSession(session, 'features-math', async (page) => {
        await page.goto(`/games/${game.id}/challenges`)
        await page.getByTestId('notice-panel').locator('.katex').first().waitFor()
        await page.locator(`[data-testid="challenge-card"][data-challenge-id="${challenge.id}"]`).click()
        const content = page.getByTestId('challenge-content')
        await content.locator('.katex').first().waitFor()
        expect(await content.locator('.katex-display').count()).toBe(1)
        expect(await content.locator('.katex').count()).toBe(2)
        // Rendered (HTML and MathML), not the TeX source.
        await expect(content.locator('.katex').first().locator('.katex-html').textContent()).resolves.toContain('π')
        expect(await content.locator('.katex math').count()).toBe(2)
        for (const text of await content.locator('.katex-html').allTextContents()) expect(text).not.toContain('\\')
        // Prices are not math; math inside inline code stays code.
        await expect(content.textContent()).resolves.toContain('costs $5 or $10 stay text')
        await expect(content.locator('p code').last().textContent()).resolves.toBe('$not math$')
        const code = content.locator('pre code.hljs.language-python')
        await expect(code.locator('.hljs-keyword').first().textContent()).resolves.toBe('def')
        await expect(code.locator('.hljs-comment').textContent()).resolves.toBe('# double')
        const colors = await code.evaluate((el) => [getComputedStyle(el.querySelector('.hljs-keyword')!).color, getComputedStyle(el).color])
        expect(colors[0]).not.toBe(colors[1])
        expect(await content.locator('img[onerror]').count()).toBe(0)
        expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
        await page.getByTestId('challenge-hint').locator('.katex').waitFor()
        await screenshot(page, 'features-math-challenge')
        await page.keyboard.press('Escape')
        await page.goto('/')
        const summary = page.getByTestId('post-summary').first()
        await summary.locator('.katex').waitFor()
        await summary.locator('pre code.hljs.language-c .hljs-keyword').first().waitFor()
        await screenshot(page, 'features-math-post')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'home: running and upcoming games above the posts, with poster, time left and a way in, in both languages',
    async () => {
      const now = Date.now()
      const upcoming = await createGame(server, { title: `Upcoming ${randomBytes(2).toString('hex')}`, start: new Date(now + 2 * HOUR), end: new Date(now + 30 * HOUR) })
      await createGame(server, { title: `Ended ${randomBytes(2).toString('hex')}`, start: new Date(now - 30 * HOUR), end: new Date(now - 2 * HOUR) })
      await createGame(server, { title: `Hidden ${randomBytes(2).toString('hex')}`, hidden: true })
      for (const [locale, running, starts] of [
        ['zh-CN', '距结束', '距开始'],
        ['en-US', 'Ends in', 'Starts in'],
      ] as const) {
        const session = await newSession(browser, server.url, { locale })
        await runInSession(session, `features-home-${locale}`, async (page) => {
          await page.goto('/')
          const section = page.getByTestId('home-games')
          await section.waitFor()
          await page.getByTestId('latest-posts').waitFor()
          // Ended and hidden games are not shown.
          const cards = section.getByTestId('home-game')
          await expect(cards.evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-game-id')), el.getAttribute('data-phase')]))).resolves.toEqual([
            [game.id, 'running'],
            [upcoming.id, 'upcoming'],
          ])
          const first = cards.first()
          expect(await first.getByTestId('home-game-countdown').textContent()).toMatch(new RegExp(`^${running} \\d`))
          expect(await cards.nth(1).getByTestId('home-game-countdown').textContent()).toMatch(new RegExp(`^${starts} \\d`))
          await first.getByRole('heading', { name: game.title }).waitFor()
          await first.getByTestId('game-poster').or(first.getByText(game.title).first()).first().waitFor()
          // Above the posts.
          const [gamesBox, postsBox] = await Promise.all([section.boundingBox(), page.getByTestId('latest-posts').boundingBox()])
          expect(gamesBox!.y + gamesBox!.height).toBeLessThanOrEqual(postsBox!.y)
          await screenshot(page, `features-home-${locale}`)
          await first.getByTestId('home-game-join').click()
          await page.waitForURL(new RegExp(`/games/${game.id}$`))
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'admin ↔ game: editor links to the public page, scoreboard, big screen and monitor; the monitor entry works without visiting a game',
    async () => {
      for (const locale of ['zh-CN', 'en-US']) {
        const session = await newSession(browser, server.url, { locale })
        await runInSession(session, `features-admin-links-${locale}`, async (page) => {
          await loginAdmin(page, `/admin/games/${game.id}/info`)
          const links = page.getByTestId('edit-game-links')
          await links.waitFor()
          const hrefs = await links.locator('a').evaluateAll((els) => els.map((el) => [el.getAttribute('data-testid'), el.getAttribute('href'), el.getAttribute('target')]))
          expect(hrefs).toEqual([
            ['edit-link-public', `/games/${game.id}`, null],
            ['edit-link-scoreboard', `/games/${game.id}/scoreboard`, null],
            ['edit-link-bigscreen', `/games/${game.id}/scoreboard/bigscreen`, '_blank'],
            ['edit-link-monitor', `/games/${game.id}/monitor/events`, null],
          ])
          await expect(page.getByTestId('edit-link-bigscreen').textContent()).resolves.toBe(locale === 'zh-CN' ? '大屏' : 'Big screen')
          await screenshot(page, `features-editor-links-${locale}`)
          await page.getByTestId('edit-link-scoreboard').click()
          await page.getByTestId('scoreboard-page').first().waitFor()
          await page.goBack()
          await page.getByTestId('edit-link-monitor').click()
          await page.getByTestId('monitor-events-page').waitFor()
        })
      }
      // A Monitor who never opened a game: the entry leads to the games to monitor.
      const monitor = await createUser(server, { role: 'Monitor' })
      const session = await newSession(browser, server.url, { locale: 'en-US' })
      await signIn(session.context, monitor.client, server.url)
      await runInSession(session, 'features-monitor-entry', async (page) => {
        await page.goto('/')
        const entry = page.getByTestId('nav-monitor')
        await expect(entry.getAttribute('href')).resolves.toBe('/monitor')
        await entry.click()
        const row = page.locator(`[data-testid="monitor-game"][data-game-id="${game.id}"]`)
        await row.waitFor()
        await expect(row.getByTestId('monitor-game-open').textContent()).resolves.toBe('Open monitor')
        await expect(entry.getAttribute('data-active')).resolves.not.toBeNull()
        await screenshot(page, 'features-monitor-games-en')
        await row.getByTestId('monitor-game-open').click()
        await page.getByTestId('monitor-events-page').waitFor()
        // From now on the entry leads straight to that game's monitor.
        await expect(entry.getAttribute('href')).resolves.toBe(`/games/${game.id}/monitor/events`)
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'notice panel: filters by type in both languages; a disabled challenge is not announced',
    async () => {
      const noticeGame = await createGame(server, { title: `Notices ${randomBytes(2).toString('hex')}` })
      const open = await createChallenge(server, noticeGame, { title: 'Open One', flags: ['flag{o}'] })
      const secret = await createChallenge(server, noticeGame, { title: 'Hidden Stage', isEnabled: false, flags: ['flag{h}'] })
      const reader = await createPlayer(server, noticeGame, { teamName: 'Readers' })
      await createInstances(server, [reader.participation], [open])
      const admin = await server.admin()
      expect((await admin.post(`/api/edit/games/${noticeGame.id}/notices`, { content: 'Welcome **all**' })).status).toBe(200)
      await createNotice(server, noticeGame, { type: 'FirstBlood', content: '恭喜 Readers 获得 「Open One」 的一血' })
      await createNotice(server, noticeGame, { type: 'NewHint', content: '「Open One」 更新了提示' })
      const put = (body: object) => admin.put(`/api/edit/games/${noticeGame.id}/challenges/${secret.id}`, body)
      expect((await put({ isEnabled: true })).status).toBe(200)
      expect((await put({ isEnabled: false })).status).toBe(200)

      for (const [locale, labels] of [
        ['zh-CN', ['全部', '公告', '一二三血', '提示', '新题']],
        ['en-US', ['All', 'Notices', 'Bloods', 'Hints', 'New']],
      ] as const) {
        const session = await newSession(browser, server.url, { locale })
        await signIn(session.context, reader.client, server.url)
        await runInSession(session, `features-notices-${locale}`, async (page) => {
          await page.goto(`/games/${noticeGame.id}/challenges`)
          const panel = page.getByTestId('notice-panel')
          await panel.getByTestId('notice-item').first().waitFor()
          const types = () => panel.getByTestId('notice-item').evaluateAll((els) => els.map((el) => el.getAttribute('data-type')))
          await expect(types()).resolves.toEqual(['Normal', 'NewHint', 'FirstBlood'])
          await expect(panel.textContent()).resolves.not.toContain('Hidden Stage')
          const filter = panel.getByTestId('notice-filter')
          await expect(filter.locator('label').allTextContents()).resolves.toEqual([...labels])
          await filter.getByText(labels[2], { exact: true }).click()
          await expect(types()).resolves.toEqual(['FirstBlood'])
          await filter.getByText(labels[1], { exact: true }).click()
          await expect(types()).resolves.toEqual(['Normal'])
          await screenshot(page, `features-notices-${locale}`)
          await filter.getByText(labels[4], { exact: true }).click()
          await expect(types()).resolves.toEqual([])
          await panel.getByTestId('notice-empty').waitFor()
          await filter.getByText(labels[0], { exact: true }).click()
          await expect(types()).resolves.toEqual(['Normal', 'NewHint', 'FirstBlood'])
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    "branding: Flagwave's title and slogan by default in both languages; the organiser's logo in the header and as the favicon",
    async () => {
      for (const [locale, slogan] of [
        ['zh-CN', '实时推送的 CTF 竞赛平台'],
        ['en-US', 'A CTF platform where everything updates live'],
      ] as const) {
        const session = await newSession(browser, server.url, { locale })
        await runInSession(session, `features-branding-${locale}`, async (page) => {
          await page.goto('/')
          await expect(page.getByTestId('home-title').textContent()).resolves.toBe('Flagwave::CTF')
          await expect(page.getByTestId('footer-slogan').textContent()).resolves.toBe(slogan)
          await expect(page.title()).resolves.toBe('Flagwave::CTF')
          expect(await page.getByTestId('platform-logo').count()).toBe(0)
        })
      }
      const png = await sharp({ create: { width: 300, height: 100, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer()
      const session = await newSession(browser, server.url, { locale: 'en-US' })
      await runInSession(session, 'features-branding-logo', async (page) => {
        await loginAdmin(page, '/admin/configs')
        const card = page.getByTestId('config-logo')
        await card.waitFor()
        await page.getByTestId('config-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png })
        await card.getByTestId('config-logo-preview').waitFor()
        const config = (await (await fetch(`${server.url}/api/config`)).json()) as { logoHash: string; faviconHash: string }
        expect(config.logoHash).toMatch(/^[0-9a-f]{64}$/)
        const logo = page.getByTestId('platform-logo')
        await logo.waitFor()
        await expect(logo.getAttribute('src')).resolves.toBe(`/assets/${config.logoHash}/logo`)
        await expect.poll(() => page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement).getAttribute('href'))).toBe(`/assets/${config.faviconHash}/favicon`)
        // The image really loads (served as its stored type).
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300)
        await screenshot(page, 'features-branding-logo-en')
        // Another visitor sees it at once.
        const other = await browser.newPage()
        await other.goto(server.url)
        await other.getByTestId('platform-logo').waitFor()
        await other.close()
        await card.getByTestId('config-logo-remove').click()
        await expect.poll(() => page.getByTestId('platform-logo').count()).toBe(0)
        await expect.poll(() => page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement).getAttribute('href'))).toMatch(/favicon\.svg$/)
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'container failures: the reason in words for the player (both languages) and the editor; enabling without an engine warns',
    async () => {
      expect(server.services.containers.provider.name).toBe('none')
      const boxGame = await createGame(server, { title: `Boxes ${randomBytes(2).toString('hex')}` })
      const box = await createChallenge(server, boxGame, { title: 'Box', type: 'StaticContainer', containerImage: 'busybox:latest', containerExposePort: 8080, flags: ['flag{b}'] })
      const later = await createChallenge(server, boxGame, { title: 'Later Box', type: 'StaticContainer', containerImage: 'busybox:latest', containerExposePort: 8080, isEnabled: false, flags: ['flag{l}'] })
      const boxer = await createPlayer(server, boxGame, { teamName: 'Boxers' })
      await createInstances(server, [boxer.participation], [box])
      for (const [locale, text] of [
        ['zh-CN', '平台尚未配置容器后端，暂时无法启动容器。请联系主办方。'],
        ['en-US', 'No container engine is configured on this platform, so containers cannot start. Please contact the organisers.'],
      ] as const) {
        const session = await newSession(browser, server.url, { locale })
        await signIn(session.context, boxer.client, server.url)
        await runInSession(session, `features-container-failure-${locale}`, async (page) => {
          await page.goto(`/games/${boxGame.id}/challenges`)
          await page.locator(`[data-testid="challenge-card"][data-challenge-id="${box.id}"]`).click()
          await page.getByTestId('container-start').click()
          const note = page.getByTestId('container-failure')
          await note.waitFor()
          await expect(note.textContent()).resolves.toContain(text)
          // The API's title (the contract's, or its English text) is the notification's title.
          await expect(note.textContent()).resolves.toContain(locale === 'zh-CN' ? '题目创建容器失败' : 'Creating the container failed')
          await screenshot(page, `features-container-failure-${locale}`)
        })
      }
      const session = await newSession(browser, server.url, { locale: 'en-US' })
      await runInSession(session, 'features-container-editor', async (page) => {
        await loginAdmin(page, `/admin/games/${boxGame.id}/challenges`)
        const card = page.locator(`[data-testid="admin-challenge-card"][data-challenge-id="${later.id}"]`)
        await card.getByTestId('admin-challenge-enable').click({ force: true })
        const warning = page.getByTestId('container-provider-warning')
        await warning.waitFor()
        await expect(warning.textContent()).resolves.toContain('No container engine is configured: players cannot start')
        await page.goto(`/admin/games/${boxGame.id}/challenges/${box.id}`)
        await page.getByTestId('challenge-no-provider').waitFor()
        await page.getByTestId('test-container-start').click()
        const note = page.getByTestId('container-failure')
        await note.waitFor()
        await expect(note.textContent()).resolves.toContain('set CONTAINER_PROVIDER (docker or kubernetes) and restart the platform')
        await screenshot(page, 'features-container-editor-en')
      })
    },
    E2E_TIMEOUT,
  )
})
