/**
 * A raw HTTP request with every header under the test's control (Host included, which fetch
 * refuses to set) and, optionally, the local address the connection comes from — so that a test
 * can be a "stranger" (a non-loopback peer) or a "proxy" on the same machine.
 */
import http from 'node:http'
import os from 'node:os'

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  body: unknown
}

export interface RawRequest {
  method?: string
  /** Where to connect: host (an IP) and port. */
  host: string
  port: number
  path: string
  /** An array sends the header once per element. */
  headers?: Record<string, string | string[]>
  json?: unknown
  /** Source address of the connection (must be an address of this machine). */
  localAddress?: string
}

export function rawRequest(req: RawRequest): Promise<RawResponse> {
  const body = req.json === undefined ? undefined : Buffer.from(JSON.stringify(req.json))
  const headers: Record<string, string | string[]> = { ...req.headers }
  if (body) {
    headers['content-type'] ??= 'application/json'
    headers['content-length'] = String(body.length)
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: req.host, port: req.port, path: req.path, method: req.method ?? 'GET', headers, localAddress: req.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: unknown = text
          if (text && /json/.test(String(res.headers['content-type']))) parsed = JSON.parse(text)
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed })
        })
        res.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/** An IPv4 address of this machine that is not loopback (a peer the server cannot mistake for itself), if any. */
export function externalIpv4(): string | null {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  }
  return null
}
