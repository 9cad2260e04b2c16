/**
 * Hygiene (issue 13):
 * - Swagger UI and the OpenAPI document are served only when ENABLE_SWAGGER is on: by default in
 *   development and test, not in production (where a stranger would get the whole attack surface
 *   mapped), unless ENABLE_SWAGGER=true.
 * - The SPA and every response carry a Content-Security-Policy whose script-src is this origin
 *   plus, by hash, exactly the inline scripts of the built index.html — never 'unsafe-inline' —
 *   and in Chromium a script injected into the page does not run while the SPA itself works.
 * - Stored files under /assets/* are served with `Content-Security-Policy: sandbox`: an uploaded
 *   HTML page opened in the browser gets an opaque origin and no scripts.
 * - PUBLIC_URL: the public origin comes from configuration; mail configured without it is warned about.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, newSession } from '../support/browser.js'
import { createStoredFile } from '../support/factories/games.js'
import { CLIENT_DIST } from '../../server/src/app.js'
import { configWarnings, loadConfig } from '../../server/src/config.js'
import { publicOrigin } from '../../server/src/lib/publicOrigin.js'

const SWAGGER_PATHS = ['/swagger/v1/swagger.json', '/swagger/index.html', '/swagger/init.js', '/swagger/swagger-ui-bundle.js']

describe('Swagger in production', () => {
  let hidden: TestServer
  let enabled: TestServer
  beforeAll(async () => {
    ;[hidden, enabled] = await Promise.all([
      startTestServer({ env: { NODE_ENV: 'production' } }),
      startTestServer({ env: { NODE_ENV: 'production', ENABLE_SWAGGER: 'true' } }),
    ])
  })
  afterAll(async () => {
    await Promise.all([hidden?.close(), enabled?.close()])
  })

  it('is not served by default: the document and the UI are 404, /swagger is only the SPA', async () => {
    for (const p of SWAGGER_PATHS) expect((await hidden.client().get(p)).status, p).toBe(404)
    const page = await hidden.client().get('/swagger')
    expect(page.text).not.toContain('swagger-ui')
  })

  it('is served with ENABLE_SWAGGER=true', async () => {
    for (const p of SWAGGER_PATHS) expect((await enabled.client().get(p)).status, p).toBe(200)
  })

  it('defaults to on outside production and follows an explicit setting', () => {
    const base = { DATA_DIR: '/tmp/x' }
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).enableSwagger).toBe(false)
    expect(loadConfig({ ...base }).enableSwagger).toBe(false)
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).enableSwagger).toBe(true)
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).enableSwagger).toBe(true)
    expect(loadConfig({ ...base, NODE_ENV: 'development', ENABLE_SWAGGER: 'false' }).enableSwagger).toBe(false)
  })
})

/** The script-src sources of a policy. */
function scriptSources(policy: string | null): string[] {
  const directive = (policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0] === 'script-src')
  return directive ? directive.slice(1) : []
}

describe('Content-Security-Policy', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('the SPA: scripts from this origin and, by hash, only index.html’s own inline scripts', async () => {
    const html = fs.readFileSync(path.join(CLIENT_DIST, 'index.html'), 'utf8')
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`)
    for (const p of ['/', '/games', '/account/login']) {
      const res = await server.client().get(p)
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/)
      const policy = res.headers.get('content-security-policy')
      expect(scriptSources(policy).sort(), p).toEqual(["'self'", ...inline].sort())
      expect(policy).toContain("object-src 'none'")
      expect(policy).toContain("frame-ancestors 'self'")
      expect(policy).toContain("base-uri 'self'")
    }
    // API answers carry it too (a JSON body opened as a document runs nothing).
    expect(scriptSources((await server.client().get('/api/config')).headers.get('content-security-policy'))).toContain("'self'")
  })

  it('stored files under /assets are sandboxed, whatever the case of the path', async () => {
    const file = await createStoredFile(server, '<script>document.title = "pwned"</script>', 'page.html')
    for (const p of [`/assets/${file.hash}/page.html`, `/ASSETS/${file.hash}/page.html`, `/assets/${file.hash}/image.svg`]) {
      const res = await server.client().get(p)
      expect(res.status, p).toBe(200)
      expect(res.headers.get('content-security-policy'), p).toBe('sandbox')
    }
  })

  describe.skipIf(!browserAvailable())('in Chromium', () => {
    it('the SPA renders with no policy violation, and a script injected into the page does not run', { timeout: 120_000 }, async () => {
      const browser = await launchBrowser()
      try {
        const session = await newSession(browser, server.url)
        const { page, errors } = session
        await page.goto('/')
        await page.locator('#root a:visible, #root button:visible').first().waitFor({ timeout: 30_000 })
        await page.waitForLoadState('networkidle')
        // An attacker's markup that got into the DOM: an inline script and an inline handler.
        await page.evaluate(() => {
          const script = document.createElement('script')
          script.textContent = 'window.__injected = true'
          document.head.append(script)
          const img = document.createElement('img')
          img.setAttribute('onerror', 'window.__handler = true')
          img.src = 'data:,broken'
          document.body.append(img)
        })
        await page.waitForTimeout(500)
        const ran = await page.evaluate(() => ({ injected: (window as { __injected?: boolean }).__injected ?? false, handler: (window as { __handler?: boolean }).__handler ?? false }))
        expect(ran).toEqual({ injected: false, handler: false })
        // The only violations are the two injected ones: the SPA's own scripts, styles and theme script all ran.
        const violations = errors.filter((e) => /Content Security Policy/i.test(e))
        expect(violations.length).toBe(2)
        expect(violations.every((v) => /inline (script|event handler)/i.test(v))).toBe(true)
        await session.close()
      } finally {
        await browser.close()
      }
    })
  })
})

describe('PUBLIC_URL', () => {
  const base = { DATA_DIR: '/tmp/x', PORT: '8123' }

  it('is the origin of links that leave the request; http://localhost:$PORT when unset', () => {
    expect(publicOrigin(loadConfig({ ...base, PUBLIC_URL: 'https://ctf.example.org/' }))).toBe('https://ctf.example.org')
    expect(publicOrigin(loadConfig({ ...base, PUBLIC_URL: 'https://ctf.example.org:8443' }))).toBe('https://ctf.example.org:8443')
    expect(publicOrigin(loadConfig(base))).toBe('http://localhost:8123')
    expect(publicOrigin(loadConfig({ ...base, PORT: '0' }), 40123)).toBe('http://localhost:40123')
  })

  it('must be an origin (http or https, no path, query or credentials)', () => {
    for (const bad of ['ctf.example.org', 'ftp://ctf.example.org', 'https://ctf.example.org/ctf', 'https://ctf.example.org/?a=1', 'https://u:p@ctf.example.org']) {
      expect(() => loadConfig({ ...base, PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/)
    }
  })

  it('is warned about at boot when mail is configured without it', () => {
    expect(configWarnings(loadConfig({ ...base, SMTP_URL: 'smtp://mail.example.org:587' }))).toEqual([expect.stringContaining('PUBLIC_URL')])
    expect(configWarnings(loadConfig({ ...base, SMTP_URL: 'smtp://mail.example.org:587', PUBLIC_URL: 'https://ctf.example.org' }))).toEqual([])
    expect(configWarnings(loadConfig(base))).toEqual([])
  })

  it('TRUSTED_PROXIES must be IPs or CIDRs', () => {
    expect(() => loadConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8, loopback, 192.0.2.1' })).not.toThrow()
    for (const bad of ['proxy.example.org', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129']) {
      expect(() => loadConfig({ ...base, TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/)
    }
  })
})
