import fs from 'node:fs'
import { createHash } from 'node:crypto'
import type { Middleware } from 'koa'

/** Conservative security headers for every response. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
})

/**
 * Stored files (`/assets/…`) are whatever a user uploaded: opened directly, they run in a sandbox
 * (an opaque origin without scripts), so an uploaded HTML or SVG cannot act as the platform.
 */
const ASSET_POLICY = 'sandbox'
/** Routes match case-insensitively, so does this. */
const ASSET_PATH = /^\/assets\//i

/** Where the captcha providers' scripts and frames come from (client/src/components/Captcha/providers.ts). */
const CAPTCHA_SOURCES: Readonly<Record<string, { script: string[]; frame: string[] }>> = {
  GoogleRecaptcha: { script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'], frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'] },
  CloudflareTurnstile: { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'] },
}

export interface PolicyOptions {
  /** `sha256-…` sources of inline scripts the built index.html carries (see inlineScriptHashes). */
  inlineScriptHashes: string[]
  captchaProvider: string
}

/**
 * The SPA's Content-Security-Policy: scripts only from this origin (plus the configured captcha
 * provider, and the exact inline scripts of our own index.html by hash — never `unsafe-inline`),
 * no plugins, no framing by others. Styles allow inline because Mantine writes `<style>` elements
 * and React `style` attributes at runtime. Images may come from https (challenge descriptions link
 * pictures), data: and blob: (exports).
 */
function contentSecurityPolicy({ inlineScriptHashes, captchaProvider }: PolicyOptions): string {
  const captcha = CAPTCHA_SOURCES[captchaProvider] ?? { script: [], frame: [] }
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...inlineScriptHashes.map((h) => `'${h}'`), ...captcha.script],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', 'https:'],
    ['media-src', "'self'", 'data:', 'blob:', 'https:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'"],
    ['frame-src', ...(captcha.frame.length ? captcha.frame : ["'none'"])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'self'"],
  ]
  return directives.map((d) => d.join(' ')).join('; ')
}

/** `sha256-…` of every inline `<script>` (one without `src`) of an HTML document. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]!)) continue
    hashes.push(`sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}`)
  }
  return hashes
}

/** inlineScriptHashes of the built SPA's index.html; none when it is not built. */
export function inlineScriptHashesOf(indexFile: string): string[] {
  return fs.existsSync(indexFile) ? inlineScriptHashes(fs.readFileSync(indexFile, 'utf8')) : []
}

/**
 * The headers `securityHeaders` gives an answer outside `/assets/` (an API answer), as
 * `[name, value]` pairs in the order it sets them: for answers sent without Koa (http/hotSubmissions.ts).
 */
export function apiSecurityHeaders(options: PolicyOptions): [string, string][] {
  return [...Object.entries(SECURITY_HEADERS), ['Content-Security-Policy', contentSecurityPolicy(options)]]
}

export function securityHeaders(options: PolicyOptions): Middleware {
  const spaPolicy = contentSecurityPolicy(options)
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS)
    ctx.set('Content-Security-Policy', ASSET_PATH.test(ctx.path) ? ASSET_POLICY : spaPolicy)
    await next()
  }
}
