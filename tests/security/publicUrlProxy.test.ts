/**
 * Behind a reverse proxy that rewrites Host (docs/operations.md#proxies-and-origins): the server
 * runs with PUBLIC_URL and without TRUST_PROXY, behind a small HTTP and WebSocket proxy written
 * here that behaves like nginx's default `proxy_pass` — it sends the upstream's address as Host
 * and no X-Forwarded-Host. A browser on PUBLIC_URL's page (Origin = PUBLIC_URL's origin, no
 * Sec-Fetch-Site, as older browsers and API clients send) signs in, POSTs, opens a Socket.IO
 * socket and a SignalR connection through it and receives pushes on both; the same requests from
 * another origin are refused. And the seeded Admin is registered now, under PUBLIC_URL's host.
 */
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/server.js'
import { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { closeAllSockets, connect, joined, nextEvent } from '../support/sockets.js'
import { connectHub, roomSize, stopAllHubs } from '../support/signalr.js'

const PUBLIC_URL = 'https://ctf.example.org'
const EVIL = 'https://evil.example'

let server: TestServer
let proxy: http.Server
let proxyUrl: string
/** Host headers the upstream received through the proxy. */
const upstreamHosts: string[] = []

/** Request headers as the proxy passes them on: Host rewritten to the upstream, nothing forwarded added. */
function rewritten(req: http.IncomingMessage, upstream: string): string[] {
  const out: string[] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!
    if (/^(host|x-forwarded-.*|forwarded)$/i.test(name)) continue
    out.push(name, req.rawHeaders[i + 1]!)
  }
  out.push('Host', upstream)
  return out
}

function startProxy(target: { port: number }): Promise<http.Server> {
  const upstream = `127.0.0.1:${target.port}`
  const p = http.createServer((req, res) => {
    upstreamHosts.push(upstream)
    const forward = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: rewritten(req, upstream) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
      answer.pipe(res)
    })
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  // WebSocket upgrades: the request line and rewritten headers, then bytes both ways.
  p.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const headers = rewritten(req, upstream)
    const lines = [`${req.method} ${req.url} HTTP/1.1`]
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`)
    const socket = net.connect(target.port, '127.0.0.1', () => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length) socket.write(head)
      socket.pipe(client)
      client.pipe(socket)
    })
    socket.on('error', () => client.destroy())
    client.on('error', () => socket.destroy())
  })
  return new Promise((resolve) => p.listen(0, '127.0.0.1', () => resolve(p)))
}

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL } })
  proxy = await startProxy(server)
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})
afterEach(async () => {
  closeAllSockets()
  await stopAllHubs()
})
afterAll(async () => {
  await stopAllHubs()
  proxy?.closeAllConnections()
  await new Promise((r) => proxy?.close(r))
  await server?.close()
})

/** A browser on PUBLIC_URL's page, reaching the server through the proxy. */
function browserOn(origin: string): ApiClient {
  const client = new ApiClient(proxyUrl)
  const request = client.request.bind(client)
  client.request = (method, path, options = {}) => request(method, path, { ...options, headers: { Origin: origin, ...options.headers } })
  return client
}

describe('behind a Host-rewriting proxy, with PUBLIC_URL', () => {
  it("admits the platform's own pages: sign-in, a POST, a Socket.IO socket and a SignalR connection, each receiving a push", async () => {
    const { user, password } = await createUser(server)
    const browser = browserOn(PUBLIC_URL)
    expect((await browser.post('/api/account/login', { userName: user.userName, password })).status).toBe(200)
    const team = await browser.post('/api/team', { name: `proxied${Date.now() % 1e6}` })
    expect(team.status).toBe(200)
    expect(team.body).toMatchObject({ name: expect.stringMatching(/^proxied/) })

    const adminBrowser = browserOn(PUBLIC_URL)
    expect((await adminBrowser.post('/api/account/login', { userName: 'Admin', password: ADMIN_PASSWORD })).status).toBe(200)

    const socket = await connect({ url: proxyUrl }, '/hub/user', { client: browser, headers: { Origin: PUBLIC_URL } })
    await joined(server, '/hub/user', socket, rooms.everyone)
    const hub = await connectHub({ url: proxyUrl }, 'admin', { client: adminBrowser, headers: { Origin: PUBLIC_URL } })
    await roomSize(server, 'admin', rooms.admins, 1)

    const config = nextEvent<{ title: string }>(socket, 'ReceivedConfigUpdate')
    const log = hub.next('ReceivedLog', (p: { msg: string }) => p.msg === '全局设置已更新')
    expect((await adminBrowser.put('/api/admin/config', { globalConfig: { title: 'Behind nginx' } })).status).toBe(200)
    expect((await config).title).toBe('Behind nginx')
    expect(await log).toMatchObject({ name: 'Admin', status: 'Success' })
    // Everything went through the proxy, which named only the upstream.
    expect(new Set(upstreamHosts)).toEqual(new Set([`127.0.0.1:${server.port}`]))
  })

  it('refuses the same requests from another origin', async () => {
    const { user, password } = await createUser(server)
    const browser = browserOn(PUBLIC_URL)
    expect((await browser.post('/api/account/login', { userName: user.userName, password })).status).toBe(200)
    const res = await browser.post('/api/team', { name: 'forged' }, { Origin: EVIL })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ title: '跨站请求已被拒绝', status: 403 })
    await expect(connect({ url: proxyUrl }, '/hub/user', { client: browser, headers: { Origin: EVIL } })).rejects.toThrow()
    await expect(connectHub({ url: proxyUrl }, 'user', { client: browser, headers: { Origin: EVIL } })).rejects.toThrow()
  })
})

describe('the seeded Admin', () => {
  it('is registered at first boot, with an e-mail address under the host of PUBLIC_URL', async () => {
    const admin = await server.admin()
    const profile = await admin.get('/api/account/profile')
    expect(profile.body).toMatchObject({ userName: 'Admin', email: 'admin@ctf.example.org' })
    const users = await admin.get('/api/admin/users?count=100')
    const row = (users.body.data as { userName: string; registerTimeUTC: string }[]).find((u) => u.userName === 'Admin')!
    const registered = Date.parse(row.registerTimeUTC)
    expect(registered).toBeGreaterThan(Date.now() - 10 * 60_000)
    expect(registered).toBeLessThanOrEqual(Date.now())
    expect(row).toMatchObject({ email: 'admin@ctf.example.org' })
  })
})
