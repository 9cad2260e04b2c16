/**
 * Is a browser request cross-site? One judgement for every transport — the HTTP app's CSRF
 * check (http/xsrf.ts) and, through the same function, realtime handshakes — so it takes the raw
 * headers of an IncomingMessage and the TCP peer, never a framework context.
 *
 * Sec-Fetch-Site is the browser's own verdict and is used where present. Otherwise `Origin`
 * decides: it is same-site when it is PUBLIC_URL's origin, or the host a trusted proxy says it
 * received (X-Forwarded-Host), or — only with PUBLIC_URL unset — the request's Host. A
 * deployment behind a proxy that rewrites Host therefore does not refuse its own pages. Requests
 * without Origin (API clients, bots) are not browsers' cross-site requests.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Config } from '../config.js'
import { proxyTrustOf, type ProxyTrust } from './clientAddress.js'
import { configuredPublicOrigin } from './publicOrigin.js'

export interface SitePolicy {
  /** PUBLIC_URL's origin when configured. */
  readonly publicOrigin: string | null
  readonly trust: ProxyTrust
}

const policies = new WeakMap<object, SitePolicy>()

/** The policy of a configuration, made once per configuration object. */
export function sitePolicyOf(config: Pick<Config, 'PUBLIC_URL' | 'TRUST_PROXY' | 'TRUSTED_PROXIES'>): SitePolicy {
  let policy = policies.get(config)
  if (!policy) {
    policy = { publicOrigin: configuredPublicOrigin(config), trust: proxyTrustOf(config) }
    policies.set(config, policy)
  }
  return policy
}

const SAME_SITE_FETCHES = new Set(['same-origin', 'same-site', 'none'])

/** The first value of a header (a list header's first element). */
function first(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value
  return (raw ?? '').split(',')[0]!.trim()
}

/** `host` (a Host-like header value) seen with `origin`'s scheme, so default ports compare equal. */
function sameHost(origin: URL, host: string): boolean {
  if (host === '') return false
  try {
    return new URL(`${origin.protocol}//${host}`).host === origin.host
  } catch {
    return false
  }
}

export function isCrossSite(headers: IncomingHttpHeaders, peerAddress: string | undefined, policy: SitePolicy): boolean {
  const fetchSite = first(headers['sec-fetch-site']).toLowerCase()
  if (fetchSite === 'cross-site') return true
  if (SAME_SITE_FETCHES.has(fetchSite)) return false

  const originHeader = first(headers.origin)
  if (originHeader === '') return false
  let origin: URL
  try {
    // `null` (sandboxed frames, data: documents, cross-origin redirects) never is one of our pages.
    origin = new URL(originHeader)
  } catch {
    return true
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return true
  if (policy.publicOrigin !== null && origin.origin === policy.publicOrigin) return false

  // The scheme is not compared: chained proxies often report the inner hop's `http`.
  if (policy.trust.enabled && policy.trust.isTrusted(peerAddress ?? '') && sameHost(origin, first(headers['x-forwarded-host']))) return false
  if (policy.publicOrigin === null && sameHost(origin, first(headers.host))) return false
  return true
}
