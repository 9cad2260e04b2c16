/**
 * Events as data in Chromium (docs/archive.md): the static archive of a finished game, unpacked
 * and opened from disk by a `file://` URL, shows the final board, its chart, the challenges and
 * the notices; and the admin screens import a challenge.yml with upload progress and a report,
 * export a game, clone it, and save its static archive.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, screenshot } from '../support/browser.js'
import { unzip } from '../support/zip.js'
import { finishedGame } from '../support/factories/archive.js'
import { Game } from '../../server/src/entities/Game.js'

const E2E_TIMEOUT = 240_000

describe.skipIf(!browserAvailable())('events as data (Chromium)', () => {
  let server: TestServer
  let browser: Browser
  let tmpDir: string

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
    tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-e2e-archive-'))
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true })
  })

  it(
    'the static archive opened from disk shows the final board, its chart, the challenges and the notices',
    async () => {
      const { game, attachment } = await finishedGame(server)
      const admin = await server.admin()
      const res = await fetch(`${server.url}/api/edit/games/${game.id}/archive`, {
        method: 'POST',
        headers: { cookie: admin.cookieHeader, 'content-type': 'application/json' },
        body: JSON.stringify({ challenges: true, attachments: true }),
      })
      expect(res.status).toBe(200)
      const site = path.join(tmpDir, 'site')
      for (const [name, data] of await unzip(Buffer.from(await res.arrayBuffer()))) {
        await fs.mkdir(path.dirname(path.join(site, name)), { recursive: true })
        await fs.writeFile(path.join(site, name), data)
      }
      // As if the platform were gone: nothing may be loaded but from the disk.
      const session = await newSession(browser, 'http://127.0.0.1:9')
      const requests: string[] = []
      session.page.on('request', (r) => requests.push(r.url()))
      await runInSession(session, 'static-archive-file', async (page) => {
        const url = pathToFileURL(path.join(site, 'index.html')).href
        await page.goto(url)
        const rows = page.locator('#board tbody tr')
        await expect.poll(() => rows.count()).toBe(2)
        // The final board, blood bonuses included, as the platform computed it.
        const board = await server.services.scoreboard.get(game.id)
        expect(board.items.map((i) => i.name)).toEqual(['Alpha', 'Beta'])
        expect(await rows.nth(0).locator('td').allTextContents()).toEqual(['1', 'Alpha', '', '2', String(board.items[0]!.score)])
        expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['2', 'Beta', '', '1', String(board.items[1]!.score)])
        expect(await page.locator('#chart svg polyline').count()).toBe(2)
        expect(await page.locator('#chart .legend').textContent()).toContain('Alpha')
        expect(await page.locator('h1').textContent()).toBe('Finished </script> CTF')
        expect(await page.locator('#challenge-list h4').allTextContents()).toEqual(['First', 'Second'])
        // Archived HTML stays text.
        expect(await page.locator('#challenge-list .content').first().textContent()).toBe('Describe <b>me</b>')
        expect(await page.locator('#challenge-list b').count()).toBe(0)
        expect(await page.locator('#notice-list').textContent()).toContain('Thanks for playing')
        const href = await page.locator('#challenge-list a').first().getAttribute('href')
        expect(await fs.readFile(path.join(site, href!), 'utf8')).toBe(attachment)
        expect(requests.every((r) => r.startsWith('file://'))).toBe(true)
        expect(session.errors).toEqual([])
        await screenshot(page, 'static-archive-from-disk')
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'the admin screens import a challenge.yml with a report, export, clone and archive a game',
    async () => {
      const yml = path.join(tmpDir, 'challenge.yml')
      await fs.writeFile(yml, 'name: Imported One\ncategory: web\nvalue: 100\nflags: ["flag{ui}", {type: regex, content: "x.*"}]\ntags: [easy]\n')
      const session = await newSession(browser, server.url, { acceptDownloads: true })
      await runInSession(session, 'game-archive-ui', async (page) => {
        await loginAdmin(page, '/admin/games')
        await page.getByTestId('game-import-open-modal').click()
        await page.getByTestId('game-import-modal').locator('input[type="file"]').setInputFiles(yml)
        await page.getByTestId('game-import-submit').click()
        await page.getByTestId('game-import-result').waitFor()
        expect(await page.getByTestId('game-import-result').textContent()).toContain('已导入「Imported One」')
        expect(await page.getByTestId('game-import-unmapped').textContent()).toContain('regex flag "x.*"')
        expect(await page.getByTestId('game-import-unmapped').textContent()).toContain('tags easy')
        await screenshot(page, 'game-import-report')
        await page.getByTestId('game-import-open').click()
        await page.getByTestId('game-data-card').waitFor()
        const importedId = Number(/\/admin\/games\/(\d+)\//.exec(page.url())![1])

        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('game-export').click()])
        const exported = await unzip(await fs.readFile((await download.path())!))
        expect(JSON.parse(exported.get('manifest.json')!.toString()).challenges[0].title).toBe('Imported One')

        expect(await page.getByTestId('game-static-archive').isDisabled()).toBe(true)
        await page.getByTestId('game-clone').click()
        await page.waitForURL((url) => /\/admin\/games\/\d+\/info/.test(url.pathname) && !url.pathname.includes(`/${importedId}/`))
        const copyId = Number(/\/admin\/games\/(\d+)\//.exec(page.url())![1])
        const copy = await server.services.orm.em.fork().findOneOrFail(Game, { id: copyId })
        expect(copy.title).toBe('Imported One (copy)')

        const { game } = await finishedGame(server)
        await page.goto(`/admin/games/${game.id}/info`)
        await page.getByTestId('game-static-archive').click()
        await page.getByTestId('static-archive-attachments').click()
        const [site] = await Promise.all([page.waitForEvent('download'), page.getByTestId('static-archive-submit').click()])
        const entries = await unzip(await fs.readFile((await site.path())!))
        expect([...entries.keys()].some((k) => k.startsWith('files/'))).toBe(true)
        expect(entries.get('index.html')!.toString()).toContain('Alpha')
      })
    },
    E2E_TIMEOUT,
  )
})
