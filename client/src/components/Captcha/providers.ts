import { t } from '../../i18n'
/**
 * The providers' browser APIs (only what Flagwave uses) and the lazy script loader.
 *
 * Nothing here runs at import time: a provider's script is added to the page only when a form
 * with a captcha is shown and GET /api/captcha names that provider, so with `None` (the default)
 * no external script is ever requested.
 */

export const RECAPTCHA_SCRIPT = (siteKey: string) => `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

/** How long a provider script (or a reCAPTCHA `execute`) may take before the form says so. */
const SCRIPT_TIMEOUT_MS = 20_000

/** Google reCAPTCHA v3 (`grecaptcha`). */
interface ReCaptchaApi {
  ready(callback: () => void): void
  execute(siteKey: string, options: { action: string }): Promise<string>
}

interface TurnstileRenderOptions {
  sitekey: string
  action?: string
  theme?: 'auto' | 'light' | 'dark'
  size?: 'normal' | 'flexible' | 'compact'
  callback?: (token: string) => void
  'expired-callback'?: () => void
  'timeout-callback'?: () => void
  'error-callback'?: (code?: string) => boolean | void
}

/** Cloudflare Turnstile (`turnstile`), explicit rendering. */
interface TurnstileApi {
  render(container: HTMLElement | string, options: TurnstileRenderOptions): string | undefined
  reset(widgetId?: string): void
  remove(widgetId?: string): void
  getResponse(widgetId?: string): string | undefined
}

declare global {
  interface Window {
    grecaptcha?: ReCaptchaApi
    turnstile?: TurnstileApi
  }
}

/** A captcha problem the user can read as is (shown in the form and in the failure notification). */
export class CaptchaError extends Error {
  override name = 'CaptchaError'
}

const hostOf = (src: string) => {
  try {
    return new URL(src).host
  } catch {
    return src
  }
}

/** Reject with `message` unless `promise` settles within `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new CaptchaError(message)), ms)
    promise.then(
      (value) => {
        window.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        window.clearTimeout(timer)
        reject(error instanceof Error ? error : new CaptchaError(String(error)))
      },
    )
  })
}

const scripts = new Map<string, Promise<void>>()

/**
 * Add `<script src>` once and resolve when it has run and `global()` is defined. A script that
 * fails (network, blocked, or no global afterwards) or takes longer than SCRIPT_TIMEOUT_MS rejects
 * with a CaptchaError naming the host, and is forgotten so that a retry loads it again.
 */
export function loadScript<T>(src: string, global: () => T | undefined): Promise<T> {
  const host = hostOf(src)
  const missing = () => new CaptchaError(t('验证码组件加载失败（{{host}}）：脚本未能初始化', { host }))
  if (global()) return Promise.resolve(global() as T)
  let loading = scripts.get(src)
  if (!loading) {
    let element: HTMLScriptElement | null = null
    const attempt: Promise<void> = withTimeout(
      new Promise<void>((resolve, reject) => {
        element = document.createElement('script')
        element.src = src
        element.async = true
        element.dataset.captcha = host
        element.onload = () => resolve()
        element.onerror = () => reject(new CaptchaError(t('验证码组件加载失败（{{host}}），请检查网络后重试', { host })))
        document.head.appendChild(element)
      }),
      SCRIPT_TIMEOUT_MS,
      t('验证码组件加载超时（{{host}}），请检查网络后重试', { host }),
    ).then(() => {
      if (!global()) throw missing()
    })
    attempt.catch(() => {
      if (scripts.get(src) === attempt) scripts.delete(src)
      element?.remove()
    })
    scripts.set(src, attempt)
    loading = attempt
  }
  return loading.then(() => {
    const api = global()
    if (!api) throw missing()
    return api
  })
}

/** A reCAPTCHA v3 token for `action`, loading the script first if needed. */
export async function executeRecaptcha(siteKey: string, action: string): Promise<string> {
  const grecaptcha = await loadScript(RECAPTCHA_SCRIPT(siteKey), () => window.grecaptcha)
  const token = await withTimeout(
    new Promise<string>((resolve, reject) => grecaptcha.ready(() => grecaptcha.execute(siteKey, { action }).then(resolve, reject))),
    SCRIPT_TIMEOUT_MS,
    t('验证码服务未响应（www.google.com），请稍后重试'),
  )
  if (!token) throw new CaptchaError(t('验证码服务未返回结果，请稍后重试'))
  return token
}
