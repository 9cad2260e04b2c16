/**
 * Fixes of the interface's broken items, in Chromium against the real server:
 * - scoreboard challenge headers read correctly in Chinese, English and mixed titles of any length
 *   (top to bottom, never turned upside down, long ones end in an ellipsis, the full title on hover),
 *   in both interface languages;
 * - the big screen's feed shows a notice's rendered text (no Markdown markup) and cuts on that text.
 */
import { randomBytes } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession, runInSession, screenshot, signIn } from '../support/browser.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

const E2E_TIMEOUT = 120_000
const LONG_CHINESE = '这是一个非常非常长的中文题目标题用来检查表头是否会被截断或者倒置显示'
const TITLES = ['签到', 'Hello Web', `RSA 入门 part 2`, LONG_CHINESE]

describe.skipIf(!browserAvailable())('interface fixes (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let game: Game
  let challenges: Challenge[]
  let player: Player

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    await isolateIds(server)
    game = await createGame(server, { title: `Headers ${randomBytes(2).toString('hex')}` })
    challenges = []
    for (const [i, title] of TITLES.entries()) challenges.push(await createChallenge(server, game, { title, tag: i % 2 ? 'Web' : 'Misc', flags: [`flag{c${i}}`] }))
    player = await createPlayer(server, game, { teamName: 'Alpha' })
    await createInstances(server, [player.participation], challenges)
    await server.services.scoreboard.rebuild(game.id)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it(
    'scoreboard headers: upright, top to bottom, ellipsis for long titles, full title on hover, in both languages',
    async () => {
      for (const locale of ['zh-CN', 'en-US']) {
        const session = await newSession(browser, server.url, { locale })
        await signIn(session.context, player.client, server.url)
        await runInSession(session, `interface-headers-${locale}`, async (page) => {
          await page.goto(`/games/${game.id}/scoreboard`)
          await page.getByTestId('scoreboard-table').waitFor()
          const heads = await page.evaluate(() =>
            [...document.querySelectorAll('[data-testid="scoreboard-table"] thead tr:last-child th[title]')].map((th) => {
              const span = th.querySelector('span')!
              const style = getComputedStyle(span)
              return { title: th.getAttribute('title'), text: span.textContent, writingMode: style.writingMode, transform: style.transform, overflowing: span.scrollHeight > span.clientHeight + 1, height: span.getBoundingClientRect().height }
            }),
          )
          expect(heads.map((h) => h.text).sort()).toEqual([...TITLES].sort())
          for (const head of heads) {
            expect(head.writingMode).toBe('vertical-rl')
            expect(head.transform).toBe('none')
            expect(head.title).toContain(head.text)
            expect(head.height).toBeLessThanOrEqual(161)
          }
          expect(heads.find((h) => h.text === LONG_CHINESE)!.overflowing).toBe(true)
          expect(heads.find((h) => h.text === '签到')!.overflowing).toBe(false)
          await screenshot(page, `interface-scoreboard-headers-${locale}`)
        })
      }
    },
    E2E_TIMEOUT,
  )

  it(
    'big screen feed: a Markdown notice reads as text, cut on the rendered text',
    async () => {
      const admin = await server.admin()
      const long = `**重要**：请访问 [说明](https://example.com/guide) 并阅读 \`README\`。${'很长的说明'.repeat(40)}`
      expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: '**Bold** and _soft_ news' })).status).toBe(200)
      expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: long })).status).toBe(200)
      const session = await newSession(browser, server.url, { viewport: { width: 1600, height: 900 } })
      await runInSession(session, 'interface-bigscreen-feed', async (page) => {
        await page.goto(`/games/${game.id}/scoreboard/BigScreen`)
        await page.getByTestId('bigscreen-feed').waitFor()
        const texts = page.getByTestId('bigscreen-feed-text')
        await expect.poll(() => texts.allTextContents(), { timeout: 10_000 }).toContain('Bold and soft news')
        const all = await texts.allTextContents()
        const cut = all.find((t) => t.startsWith('重要：请访问 说明 并阅读 README。'))!
        expect(cut).toBeDefined()
        expect(cut.endsWith('…')).toBe(true)
        expect(cut.length).toBe(141)
        expect(all.join('\n')).not.toMatch(/\*\*|\]\(|`/)
        await screenshot(page, 'interface-bigscreen-feed')
      })
    },
    E2E_TIMEOUT,
  )
})
