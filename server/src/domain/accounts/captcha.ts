/**
 * Captcha (docs/compatibility.md#group-info): Google reCAPTCHA v3 or Cloudflare Turnstile, verified on the
 * server. The verify URLs are configurable so tests can point them at a local server.
 */
import type { Config } from '../../config.js'
import type { Settings } from '../config/settings.js'
import type { CaptchaProvider } from '@flagwave/shared/enums'

function activeProvider(config: Config, settings: Settings): CaptchaProvider {
  if (!settings.accountPolicy.useCaptcha || config.CAPTCHA_PROVIDER === 'None' || !config.CAPTCHA_SITE_KEY || !config.CAPTCHA_SECRET_KEY) return 'None'
  return config.CAPTCHA_PROVIDER
}

export function captchaInfo(config: Config, settings: Settings): { type: CaptchaProvider; siteKey: string } {
  const type = activeProvider(config, settings)
  return { type, siteKey: type === 'None' ? '' : config.CAPTCHA_SITE_KEY }
}

/** True when captcha is off, or the token verifies with the provider. */
export async function verifyCaptcha(config: Config, settings: Settings, token: string | null, ip: string): Promise<boolean> {
  const provider = activeProvider(config, settings)
  if (provider === 'None') return true
  if (!token) return false
  const url = provider === 'GoogleRecaptcha' ? config.CAPTCHA_VERIFY_URL_RECAPTCHA : config.CAPTCHA_VERIFY_URL_TURNSTILE
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: config.CAPTCHA_SECRET_KEY, response: token, remoteip: ip }),
      signal: AbortSignal.timeout(10_000),
    })
    const result = (await response.json()) as { success?: boolean; score?: number }
    if (!result.success) return false
    if (provider === 'GoogleRecaptcha' && typeof result.score === 'number') return result.score >= config.CAPTCHA_RECAPTCHA_MIN_SCORE
    return true
  } catch {
    return false
  }
}
