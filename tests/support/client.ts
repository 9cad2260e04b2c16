/**
 * A small HTTP client for API tests: JSON in and out, a cookie jar per instance (so each
 * client is one browser-less user), and the raw Response kept for header assertions.
 */
export interface ApiResponse<T = unknown> {
  status: number
  headers: Headers
  /** Parsed JSON when the body is JSON, the text otherwise ('' for an empty body). */
  body: T
  text: string
}

export class ApiClient {
  readonly cookies = new Map<string, string>()

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  async request<T = any>(method: string, path: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; raw?: boolean } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (this.cookies.size) headers.cookie = this.cookieHeader
    let body = options.body
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(options.json)
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim())) || value === ''
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = options.raw ? '' : await response.text()
    let parsed: unknown = text
    if (text && /json/.test(response.headers.get('content-type') ?? '')) parsed = JSON.parse(text)
    return { status: response.status, headers: response.headers, body: parsed as T, text }
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers })
  }
  post<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { json, headers })
  }
  put<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, { json, headers })
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, { headers })
  }

  /** POST/PUT a multipart form; `files` maps field names to [file name, bytes, content type]. */
  upload<T = any>(method: 'POST' | 'PUT', path: string, files: [field: string, name: string, data: Uint8Array | string, type?: string][]) {
    const form = new FormData()
    for (const [field, name, data, type] of files) form.append(field, new Blob([data as BlobPart], { type: type ?? 'application/octet-stream' }), name)
    return this.request<T>(method, path, { body: form })
  }

  async login(userName: string, password: string): Promise<void> {
    const res = await this.post('/api/account/login', { userName, password })
    if (res.status !== 200) throw new Error(`login of ${userName} failed: ${res.status} ${res.text}`)
  }
}
