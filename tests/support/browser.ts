/**
 * Browser tests drive Debian's Chromium (`/usr/bin/chromium`) with playwright-core; no tool
 * ever downloads a browser. Each test gets a fresh context (own cookies and storage);
 * `screenshot(page, name)` saves PNGs under tests/artifacts/ (git-ignored).
 *
 * Without /usr/bin/chromium: on CI (`CI` set) the browser suites fail; elsewhere they are
 * skipped with a message saying why.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts')

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/**
 * Whether browser tests can run here. Throws on CI when Chromium is missing, so that a broken
 * image fails loudly instead of silently skipping the end-to-end suites.
 */
export function browserAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true
  const message = `Chromium not found at ${CHROMIUM_PATH} (install Debian's "chromium" package)`
  if (process.env.CI) throw new Error(`${message}; browser tests cannot run on CI without it`)
  console.warn(`[browser] ${message}: skipping the browser tests`)
  return false
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

export interface BrowserSession {
  context: BrowserContext
  page: Page
  /** Console errors and uncaught page errors seen so far (for assertions and debugging). */
  errors: string[]
  close(): Promise<void>
}

/** A fresh context and page against `baseURL` (own cookies and localStorage). */
export async function newSession(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserSession> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 860 }, locale: 'zh-CN', ...options })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  return { context, page, errors, close: () => context.close() }
}

let counter = 0
/** Save a full-page PNG under tests/artifacts/<name>.png; returns the file path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true })
  const safe = name.replace(/[^a-zA-Z0-9._-]+/g, '-')
  const file = path.join(ARTIFACTS_DIR, `${safe || `shot-${++counter}`}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}
