/**
 * The interface in Simplified Chinese and English, end to end in Chromium
 * (docs/architecture.md#languages):
 * - an English browser gets English, a Chinese one Chinese (the browser's language by default);
 * - the header's switch changes the language and the choice outlives reloads and the browser's language;
 * - form validation speaks the interface language (the contract's English API strings are mapped);
 * - server error titles come back in the interface language (Accept-Language);
 * - dates, confirm/cancel labels and role names follow the language;
 * - screenshots of the main screens in both languages, both colour schemes, desktop and phone.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { browserAvailable, launchBrowser, loginAdmin, newSession, runInSession, screenshot } from '../support/browser.js'

const E2E_TIMEOUT = 120_000
const PHONE = { width: 390, height: 844 }

describe.skipIf(!browserAvailable())('languages (Chromium)', () => {
  let server: TestServer
  let browser: Browser

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang)
  const fieldError = (page: Page, testId: string) =>
    page.evaluate((id) => {
      // Mantine names an input's error element `<input id>-error`.
      const input = document.querySelector(`[data-testid="${id}"]`)
      return input ? (document.getElementById(`${input.id}-error`)?.textContent ?? '').trim() : ''
    }, testId)

  it(
    'English browser: English texts, English validation and server titles; the switch goes to Chinese and is remembered',
    async () => {
      const session = await newSession(browser, server.url, { locale: 'en-US' })
      await runInSession(session, 'languages-en', async (page) => {
        await page.goto('/')
        await page.getByTestId('home-page').waitFor()
        await expect(htmlLang(page)).resolves.toBe('en')
        await expect(page.getByTestId('nav-login').textContent()).resolves.toBe('Sign in')
        await expect(page.getByTestId('nav-posts').textContent()).resolves.toContain('Posts')

        // Client-side validation: the shared schema's messages in English, including the contract's
        // English one mapped to the interface's wording.
        await page.goto('/account/register')
        await page.getByTestId('register-username').fill('ab')
        await page.getByTestId('register-email').fill('someone@example.com')
        await page.getByTestId('register-password').fill('abc')
        await page.getByTestId('register-confirm').fill('abc')
        await page.getByTestId('register-submit').click()
        await expect.poll(() => fieldError(page, 'register-username')).toBe('The user name is too short')
        await expect.poll(() => fieldError(page, 'register-password')).toBe('At least 6 characters')
        await screenshot(page, 'languages-en-register-validation')

        // A server title in English (the request carried Accept-Language: en).
        await page.goto('/account/login')
        await page.getByTestId('login-username').fill('nobody-here')
        await page.getByTestId('login-password').fill('Wrong0ne!')
        await page.getByTestId('login-submit').click()
        await page.getByText('Wrong user name or password').first().waitFor()

        // Switch to Chinese in the header: the page reloads in Chinese, and stays Chinese on the next visit.
        await page.getByTestId('language-switch').click()
        await page.getByTestId('language-zh').click()
        await page.waitForFunction(() => document.documentElement.lang === 'zh-CN')
        await expect(page.getByTestId('login-submit').textContent()).resolves.toBe('登录')
        await page.goto('/')
        await page.getByTestId('home-page').waitFor()
        await expect(page.getByTestId('nav-login').textContent()).resolves.toBe('登录')
        await page.goto('/account/login')
        await page.getByTestId('login-username').fill('nobody-here')
        await page.getByTestId('login-password').fill('Wrong0ne!')
        await page.getByTestId('login-submit').click()
        await page.getByText('用户名或密码错误').first().waitFor()
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'Chinese browser: Chinese by default with Chinese validation; English chosen in the header changes dates, roles and confirm labels',
    async () => {
      const session = await newSession(browser, server.url, { locale: 'zh-CN' })
      await runInSession(session, 'languages-zh', async (page) => {
        await page.goto('/account/register')
        await page.getByTestId('register-page').waitFor()
        await expect(htmlLang(page)).resolves.toBe('zh-CN')
        await page.getByTestId('register-username').fill('ab')
        await page.getByTestId('register-password').fill('abc')
        await page.getByTestId('register-submit').click()
        // Never the API's English contract string in a Chinese interface.
        await expect.poll(() => fieldError(page, 'register-password')).toBe('至少 6 个字符')
        await expect.poll(() => fieldError(page, 'register-username')).toBe('用户名过短')
        await screenshot(page, 'languages-zh-register-validation')

        await loginAdmin(page, '/admin/users')
        await page.getByTestId('admin-user-table').waitFor()
        const adminRow = page.locator('[data-testid="admin-user-row"][data-user-name="Admin"]')
        await expect(adminRow.getByTestId('user-role-select').inputValue()).resolves.toBe('管理员')
        await page.getByTestId('language-switch').click()
        await page.getByTestId('language-en').click()
        await page.waitForFunction(() => document.documentElement.lang === 'en')
        await page.getByTestId('admin-user-table').waitFor()
        await expect(adminRow.getByTestId('user-role-select').inputValue()).resolves.toBe('Admin')
        // Dates in the English form (month name first).
        await expect(adminRow.textContent()).resolves.toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4} \d\d:\d\d/)

        // Confirm/cancel labels of the modals manager follow the language.
        await adminRow.getByTestId('user-more').click()
        await page.getByTestId('user-reset-password').click()
        const dialog = page.getByRole('dialog')
        await dialog.getByRole('button', { name: 'Cancel' }).waitFor()
        await dialog.getByRole('button', { name: 'Reset' }).waitFor()
        await expect(dialog.textContent()).resolves.not.toMatch(/[\u4e00-\u9fff]/)
        await screenshot(page, 'languages-en-confirm')
        await dialog.getByRole('button', { name: 'Cancel' }).click()
      })
    },
    E2E_TIMEOUT,
  )

  it(
    'screenshots: home and login in both languages, both colour schemes, desktop and phone',
    async () => {
      // One session per language; the viewport and the remembered colour scheme change between page loads.
      for (const locale of ['zh-CN', 'en-US']) {
        const session = await newSession(browser, server.url, { locale })
        await runInSession(session, `languages-${locale}-screens`, async (page) => {
          await page.goto('/about')
          for (const colorScheme of ['dark', 'light'] as const) {
            for (const [device, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', PHONE]] as const) {
              await page.setViewportSize(viewport)
              await page.evaluate((scheme) => localStorage.setItem('flagwave-color-scheme', scheme), colorScheme)
              await page.goto('/')
              await page.getByTestId('home-page').waitFor()
              await expect(page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).resolves.toBe(colorScheme)
              await expect(htmlLang(page)).resolves.toBe(locale === 'zh-CN' ? 'zh-CN' : 'en')
              await screenshot(page, `languages-${locale}-${colorScheme}-${device}-home`)
              await page.goto('/account/login')
              await page.getByTestId('login-page').waitFor()
              await screenshot(page, `languages-${locale}-${colorScheme}-${device}-login`)
            }
          }
        })
      }
    },
    E2E_TIMEOUT,
  )
})
