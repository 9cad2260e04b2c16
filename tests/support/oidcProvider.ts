/**
 * A real OpenID Connect provider for the single sign-on tests: `oidc-provider` in-process on an
 * ephemeral port, with one confidential client and accounts the test controls. Its development
 * sign-in and consent pages are real HTML forms; `followSso` submits them like a browser would.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import type { ApiClient, ApiResponse } from './client.js'

interface TestAccount {
  email?: string
  email_verified?: boolean | string
  preferred_username?: string
  name?: string
  groups?: string[]
}

export interface TestProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** Accounts by login name (also their `sub`); add or change them at any time. */
  accounts: Map<string, TestAccount>
  close(): Promise<void>
}

/** Start a provider whose client may return to `redirectUris`. */
export async function startOidcProvider(redirectUris: string[]): Promise<TestProvider> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const accounts = new Map<string, TestAccount>()
  const clientId = 'flagwave'
  const clientSecret = 'flagwave-test-secret-0123456789abcdef'
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
    cookies: { keys: ['flagwave-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    // Fixed lifetimes: the provider's defaults each print a notice on first use.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Session: 86400, Grant: 86400 },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id)
      if (!account) return undefined
      return { accountId: id, claims: () => ({ sub: id, ...account }) }
    },
  })
  // The development pages are the point here; the provider warns about them on every start.
  provider.on('server_error', (_ctx, err) => console.error('[oidc-provider]', err))
  server.on('request', provider.callback())
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

/** A cookie jar for one host, as a browser keeps for the provider. */
class Jar {
  private readonly cookies = new Map<string, string>()
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';')
      const i = pair!.indexOf('=')
      const name = pair!.slice(0, i).trim()
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a))
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(i + 1).trim())
    }
  }
}

/** The browser's side at the provider: its cookies persist across sign-ins (the provider's own session). */
export class ProviderBrowser {
  private readonly jar = new Jar()
  /** Each page met on the way, for tests that look at them. */
  readonly pages: string[] = []

  constructor(private readonly provider: TestProvider) {}

  private async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.jar.header() } })
    this.jar.take(response)
    return response
  }

  /**
   * Follow the provider from `authorizeUrl` until it sends the browser back to Flagwave, signing
   * in as `login` and consenting on the way; answers the URL Flagwave gets back.
   */
  async authorize(authorizeUrl: string, login: string, options: { abort?: boolean } = {}): Promise<URL> {
    let url = authorizeUrl
    for (let step = 0; step < 20; step++) {
      if (!url.startsWith(this.provider.issuer)) return new URL(url)
      const response = await this.fetch(url)
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location')!, url).href
        continue
      }
      const html = await response.text()
      if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`)
      this.pages.push(html)
      const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
      if (!form) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`)
      const fields = new URLSearchParams()
      for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*>/gi)) {
        const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ''
        fields.set(input[1]!, value)
      }
      if (fields.has('login')) {
        fields.set('login', login)
        fields.set('password', 'any')
      }
      const action = new URL(form[1]!.replace(/&amp;/g, '&'), url)
      const abort = options.abort && fields.get('prompt') === 'consent'
      if (abort) action.pathname += '/abort'
      const submitted = abort ? await this.fetch(action.href) : await this.fetch(action.href, { method: 'POST', body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      if (submitted.status < 300 || submitted.status >= 400) throw new Error(`form answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`)
      url = new URL(submitted.headers.get('location')!, action).href
    }
    throw new Error('the provider kept redirecting')
  }
}

/** `GET /api/account/sso/{provider}` with Flagwave's client: the provider URL it redirects to. */
export async function startSignIn(client: ApiClient, provider: string, returnTo?: string): Promise<ApiResponse> {
  return client.request('GET', `/api/account/sso/${provider}${returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`)
}

/** Deliver the provider's redirect back to Flagwave's callback with Flagwave's client. */
export function deliverCallback(client: ApiClient, callback: URL): Promise<ApiResponse> {
  return client.request('GET', `${callback.pathname}${callback.search}`)
}

/** A whole sign-in: start, the provider's pages, the callback. Answers the callback's response. */
export async function signInThrough(client: ApiClient, browser: ProviderBrowser, provider: string, login: string, returnTo?: string): Promise<ApiResponse> {
  const start = await startSignIn(client, provider, returnTo)
  if (start.status !== 302) throw new Error(`start answered ${start.status}: ${start.text.slice(0, 200)}`)
  const location = start.headers.get('location')!
  if (location.startsWith('/')) return start
  return deliverCallback(client, await browser.authorize(location, login))
}
