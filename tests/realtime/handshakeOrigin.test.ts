/**
 * The realtime handshake is judged like an HTTP request (issue 13; docs/realtime.md#handshake-origin):
 * a cross-site page must not open a socket that carries its visitor's session cookie. Every new
 * engine.io session — a long-polling handshake or a WebSocket upgrade — goes through the same
 * `isCrossSite` as the HTTP app (Sec-Fetch-Site, else Origin against PUBLIC_URL, a trusted
 * proxy's X-Forwarded-Host, or — without PUBLIC_URL — Host), with the same TRUSTED_PROXIES.
 * Clients that send no Origin (bots, scripts, score scrapers) are not browsers and keep working.
 *
 * Forged headers go over raw HTTP and a raw `ws` upgrade; the accepted cases also connect a real
 * socket.io-client with the session cookie and check that the server admitted it to its room.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { rooms } from '@flagwave/shared/events'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { closeAllSockets, connect, joined } from '../support/sockets.js'
import { rawRequest } from '../security/support/rawHttp.js'

const REFUSED = '跨站请求已被拒绝'

/** A long-polling handshake: 200 with the engine.io open packet, or engine.io's error body. */
async function pollingHandshake(server: TestServer, headers: Record<string, string>) {
  const res = await rawRequest({ host: '127.0.0.1', port: server.port, path: '/socket.io/?EIO=4&transport=polling', headers })
  return { status: res.status, body: res.body, opened: res.status === 200 && /^0\{"sid":"[^"]+"/.test(res.text) }
}

/** A raw WebSocket upgrade: 'open' with the engine.io open packet, or the refusal's status and text. */
function websocketHandshake(server: TestServer, headers: Record<string, string>): Promise<{ opened: true } | { opened: false; status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/socket.io/?EIO=4&transport=websocket`, { headers })
    ws.once('message', (data) => {
      ws.close()
      if (String(data).startsWith('0{"sid"')) resolve({ opened: true })
      else reject(new Error(`unexpected first message ${String(data)}`))
    })
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
    })
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err)
    })
  })
}

async function expectRefused(server: TestServer, headers: Record<string, string>) {
  const label = JSON.stringify(headers)
  expect(await pollingHandshake(server, headers), label).toEqual({ status: 403, body: { code: 4, message: REFUSED }, opened: false })
  expect(await websocketHandshake(server, headers), label).toEqual({ opened: false, status: 400, text: REFUSED })
}

async function expectOpened(server: TestServer, headers: Record<string, string>) {
  const label = JSON.stringify(headers)
  expect((await pollingHandshake(server, headers)).opened, label).toBe(true)
  expect(await websocketHandshake(server, headers), label).toEqual({ opened: true })
}

/** A real socket.io-client with the admin's session and these headers reaches the admin room. */
async function adminSocketAdmitted(server: TestServer, admin: ApiClient, headers: Record<string, string>) {
  const socket = await connect(server, '/hub/admin', { client: admin, headers })
  await joined(server, '/hub/admin', socket, rooms.admins)
}

/** The same client is refused before any namespace is reached. */
async function adminSocketRefused(server: TestServer, admin: ApiClient, headers: Record<string, string>) {
  await expect(connect(server, '/hub/admin', { client: admin, headers, timeoutMs: 5_000 })).rejects.toThrow()
}

afterEach(() => closeAllSockets())

describe('with PUBLIC_URL, behind a trusted proxy that rewrites Host', () => {
  let server: TestServer
  let admin: ApiClient
  // What the reverse proxy in front of the node sends: the upstream's own Host, the client's address and host.
  const proxied = { host: 'flagwave:8080', 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'ctf.example.org', 'x-forwarded-proto': 'https' }
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://ctf.example.org', TRUST_PROXY: 'true' } })
    admin = await server.admin()
  })
  afterAll(async () => {
    closeAllSockets()
    await server?.close()
  })

  it('admits its own pages: Origin is PUBLIC_URL although Host is the upstream address', async () => {
    await expectOpened(server, { ...proxied, origin: 'https://ctf.example.org' })
    await adminSocketAdmitted(server, admin, { ...proxied, origin: 'https://ctf.example.org' })
    await adminSocketAdmitted(server, admin, { ...proxied, origin: 'https://ctf.example.org', 'sec-fetch-site': 'same-origin' })
  })

  it('refuses a cross-site page, on both transports, with or without the visitor’s session', async () => {
    await expectRefused(server, { ...proxied, origin: 'https://evil.example' })
    await expectRefused(server, { ...proxied, origin: 'https://evil.example', cookie: admin.cookieHeader })
    await adminSocketRefused(server, admin, { ...proxied, origin: 'https://evil.example' })
  })

  it('refuses look-alikes, a scheme downgrade, an opaque origin and the browser’s own cross-site verdict', async () => {
    for (const origin of ['https://ctf.example.org.evil.example', 'https://ctf.example.org:8443', 'null']) {
      await expectRefused(server, { ...proxied, origin })
    }
    // Without a forwarded host only PUBLIC_URL itself counts, scheme included.
    await expectRefused(server, { host: 'flagwave:8080', 'x-forwarded-for': '203.0.113.9', origin: 'http://ctf.example.org' })
    await expectRefused(server, { ...proxied, origin: 'https://ctf.example.org', 'sec-fetch-site': 'cross-site' })
    // A sibling subdomain (a challenge host) is the same site to the browser, but not this platform.
    await expectRefused(server, { ...proxied, origin: 'https://chal1.example.org', 'sec-fetch-site': 'same-site' })
  })

  it('takes PUBLIC_URL as the only origin: Host naming the caller’s own origin does not make it same-site', async () => {
    await expectRefused(server, { host: 'evil.example', origin: 'https://evil.example' })
  })

  it('leaves clients without Origin alone (bots, scripts, scrapers)', async () => {
    await expectOpened(server, proxied)
    await expectOpened(server, {})
    await adminSocketAdmitted(server, admin, {})
  })
})

describe('without PUBLIC_URL, behind a trusted proxy that forwards the host', () => {
  let server: TestServer
  let admin: ApiClient
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } })
    admin = await server.admin()
  })
  afterAll(async () => {
    closeAllSockets()
    await server?.close()
  })

  it('admits an Origin equal to the forwarded host, and one equal to Host when nothing is forwarded', async () => {
    const forwarded = { host: 'flagwave:8080', 'x-forwarded-host': 'ctf.example.org', 'x-forwarded-proto': 'https', origin: 'https://ctf.example.org' }
    await expectOpened(server, forwarded)
    await adminSocketAdmitted(server, admin, forwarded)
    await expectOpened(server, { host: `127.0.0.1:${server.port}`, origin: `http://127.0.0.1:${server.port}` })
    await adminSocketAdmitted(server, admin, { origin: server.url })
  })

  it('refuses an Origin that is neither', async () => {
    await expectRefused(server, { host: 'flagwave:8080', 'x-forwarded-host': 'ctf.example.org', origin: 'https://evil.example' })
    await adminSocketRefused(server, admin, { origin: 'https://evil.example' })
  })
})

describe('X-Forwarded-Host from a peer that is not a trusted proxy', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', TRUSTED_PROXIES: '192.0.2.254' } })
  })
  afterAll(async () => {
    closeAllSockets()
    await server?.close()
  })

  it('cannot make the caller’s own origin same-site', async () => {
    await expectRefused(server, { host: `127.0.0.1:${server.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', origin: 'https://evil.example' })
  })
})
