/**
 * HTTP for the simulated event, each simulated person like a browser: their own keep-alive
 * connections (at most six, a browser's limit per host — so one person's slow call never holds up
 * another's), a cookie jar, gzip accepted and decoded, and their own client address in
 * `X-Forwarded-For` (the server must trust the loopback proxy: TRUST_PROXY=true). Every call is
 * timed from the moment it is made to its last byte and recorded under its route label in `Stats`.
 */
import http from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { Stats } from './stats.js'

const gunzip = promisify(zlib.gunzip)

export interface Answer<T = unknown> {
  status: number
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: T
  text: string
  headers: http.IncomingHttpHeaders
  ms: number
}

/** Thrown for transport failures (after they were recorded); HTTP errors are answers, not throws. */
export class TransportError extends Error {}

const READ_RETRIES = 3

/** A browser's connection limit per host. */
const CONNECTIONS_PER_PERSON = 6

/** The server's address, where calls are recorded, and every person's connections (to close them). */
export class Pool {
  readonly host: string
  readonly port: number
  private readonly agents: http.Agent[] = []

  constructor(
    readonly base: URL,
    /** Where calls are recorded (replaced when the event starts, to keep the phases apart). */
    public stats: Stats,
  ) {
    if (base.protocol !== 'http:') throw new Error('--url must be http:// (the simulation drives a server on this machine)')
    this.host = base.hostname
    this.port = Number(base.port || 80)
  }

  agent(): http.Agent {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_PERSON, scheduling: 'lifo' })
    this.agents.push(agent)
    return agent
  }

  close(): void {
    for (const agent of this.agents) agent.destroy()
  }
}

export interface CallOptions {
  /** JSON body (serialised) — any value, a bare string included. */
  json?: unknown
  /** Route label for the statistics, e.g. `GET /api/game/{id}/details`. */
  label: string
  /** Statuses that are the expected answer for this call and not worth an example (2xx always are). */
  expect?: number[]
  /**
   * Receive the body but do not decode it (`body` undefined, `text` empty): a board a thousand
   * simulated screens read at once, which one process could not parse without slowing every
   * measurement down (each screen's own browser would).
   */
  discardBody?: boolean
}

/** One simulated person's browser: cookies, address, and the shared pool. */
export class Browser {
  readonly cookies = new Map<string, string>()
  private readonly agent: http.Agent

  constructor(
    readonly pool: Pool,
    /** Client address sent as X-Forwarded-For, or null for a caller on this machine (the admin). */
    readonly address: string | null,
  ) {
    this.agent = pool.agent()
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  get signedIn(): boolean {
    return this.cookies.has('GZCTF_Token')
  }

  /** Headers a socket handshake from this person carries. */
  handshakeHeaders(): Record<string, string> {
    const headers: Record<string, string> = {}
    if (this.cookies.size) headers.cookie = this.cookieHeader
    if (this.address) headers['x-forwarded-for'] = this.address
    return headers
  }

  async call<T = any>(method: string, path: string, options: CallOptions): Promise<Answer<T>> {
    const stats = this.pool.stats
    const started = performance.now()
    try {
      const answer = await this.send<T>(method, path, options.json, false, options.discardBody ?? false)
      stats.call(options.label, answer.ms, answer.status)
      if (answer.status >= 300 && !options.expect?.includes(answer.status)) stats.example(`${options.label} → ${answer.status}`, answer.text)
      return answer
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
      stats.call(options.label, performance.now() - started, code)
      stats.example(`${options.label} → ${code}`, String(error))
      throw new TransportError(`${method} ${path}: ${code}`)
    }
  }

  get<T = any>(path: string, label: string, expect?: number[]) {
    return this.call<T>('GET', path, { label, expect })
  }

  /**
   * A read as the SPA's query client makes it (client/src/api/queryClient.ts): a transport error or
   * a 5xx is retried three times, about 1, 2 and 4 s apart. Every attempt is recorded.
   */
  async read<T = any>(path: string, label: string, discardBody = false): Promise<Answer<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.call<T>('GET', path, { label, discardBody })
        if (answer.status < 500 || attempt > READ_RETRIES) return answer
      } catch (error) {
        if (attempt > READ_RETRIES) throw error
      }
      this.pool.stats.count('client: reads retried after a 5xx or a transport error')
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1) * (0.75 + Math.random() / 2)))
    }
  }

  post<T = any>(path: string, json: unknown, label: string, expect?: number[]) {
    return this.call<T>('POST', path, { json, label, expect })
  }

  put<T = any>(path: string, json: unknown, label: string, expect?: number[]) {
    return this.call<T>('PUT', path, { json, label, expect })
  }

  private send<T>(method: string, path: string, json: unknown, retried: boolean, discardBody: boolean): Promise<Answer<T>> {
    const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json))
    const headers: http.OutgoingHttpHeaders = { 'accept-encoding': 'gzip', accept: 'application/json' }
    if (this.cookies.size) headers.cookie = this.cookieHeader
    if (this.address) headers['x-forwarded-for'] = this.address
    if (payload) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = payload.length
    }
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = xsrf
    const started = performance.now()
    return new Promise<Answer<T>>((resolve, reject) => {
      const req = http.request({ agent: this.agent, host: this.pool.host, port: this.pool.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          // The time to the last byte; decoding and parsing are the browser's work, not the server's.
          const ms = performance.now() - started
          this.remember(res.headers['set-cookie'])
          if (discardBody) return resolve({ status: res.statusCode ?? 0, body: undefined as T, text: '', headers: res.headers, ms })
          const raw = Buffer.concat(chunks)
          const decoded = res.headers['content-encoding'] === 'gzip' ? gunzip(raw) : Promise.resolve(raw)
          decoded.then((buf) => {
            const text = buf.toString('utf8')
            let body: unknown
            if (text && /json/.test(String(res.headers['content-type'] ?? ''))) {
              try {
                body = JSON.parse(text)
              } catch {
                body = undefined
              }
            }
            resolve({ status: res.statusCode ?? 0, body: body as T, text, headers: res.headers, ms })
          }, reject)
        })
      })
      req.on('error', (error: NodeJS.ErrnoException) => {
        // The documented keep-alive race: the server closed an idle connection as we reused it.
        // Nothing reached the server, so the request is sent again once on a new connection.
        if (!retried && req.reusedSocket && error.code === 'ECONNRESET') {
          this.pool.stats.count('client: keep-alive connection reset, request re-sent')
          this.send<T>(method, path, json, true, discardBody).then(resolve, reject)
        } else reject(error)
      })
      req.end(payload)
    })
  }

  private remember(setCookie: string[] | undefined): void {
    for (const cookie of setCookie ?? []) {
      const [pair = '', ...attrs] = cookie.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (value === '' || attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()))) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
}
