/**
 * Cross-site requests (issue 13): an unsafe request carrying the session cookie is refused with
 * the contract's 403 when it is a cross-site browser request, judged by Sec-Fetch-Site where the
 * browser sends it, else by Origin against PUBLIC_URL, against the host a trusted proxy forwarded
 * (X-Forwarded-Host), or — only with PUBLIC_URL unset — against Host. A deployment behind a proxy
 * that rewrites Host keeps working; a stranger cannot make its own origin "ours" by sending
 * X-Forwarded-Host; an opaque `Origin: null` is never ours.
 *
 * Every case is a signed-in PUT /api/account/update sent over raw HTTP (so that Host, Origin and
 * the forwarded headers are exactly what a browser or proxy would send).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import { rawRequest } from './support/rawHttp.js'

const REFUSED = { title: '跨站请求已被拒绝', status: 403 }

async function signedInUpdate(server: TestServer, headers: Record<string, string>) {
  const { client } = await createUser(server)
  const res = await rawRequest({
    method: 'PUT',
    host: '127.0.0.1',
    port: server.port,
    path: '/api/account/update',
    json: { bio: 'changed' },
    headers: { cookie: client.cookieHeader, ...headers },
  })
  return res
}

async function expectAccepted(server: TestServer, headers: Record<string, string>) {
  const res = await signedInUpdate(server, headers)
  expect({ status: res.status, body: res.body }, JSON.stringify(headers)).toEqual({ status: 200, body: '' })
}

async function expectRefused(server: TestServer, headers: Record<string, string>) {
  const res = await signedInUpdate(server, headers)
  expect({ status: res.status, body: res.body }, JSON.stringify(headers)).toEqual({ status: 403, body: REFUSED })
}

describe('with PUBLIC_URL, behind a proxy that rewrites Host', () => {
  let server: TestServer
  let upstreamHost: string
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://ctf.example.org' } })
    upstreamHost = `127.0.0.1:${server.port}`
  })
  afterAll(async () => {
    await server?.close()
  })

  it('accepts its own pages: Origin is PUBLIC_URL although Host is the upstream address', async () => {
    await expectAccepted(server, { host: upstreamHost, origin: 'https://ctf.example.org' })
    await expectAccepted(server, { host: 'flagwave:8080', origin: 'https://ctf.example.org' })
  })

  it('believes the browser’s Sec-Fetch-Site: same-origin, same-site and none pass whatever Host says', async () => {
    for (const site of ['same-origin', 'same-site', 'none']) {
      await expectAccepted(server, { host: 'flagwave:8080', origin: 'https://ctf.example.org', 'sec-fetch-site': site })
    }
  })

  it('refuses Sec-Fetch-Site: cross-site, even with an Origin that looks like ours', async () => {
    await expectRefused(server, { host: upstreamHost, origin: 'https://ctf.example.org', 'sec-fetch-site': 'cross-site' })
  })

  it('refuses other origins, look-alikes and a scheme downgrade', async () => {
    for (const origin of ['https://evil.example', 'https://ctf.example.org.evil.example', 'http://ctf.example.org', 'https://ctf.example.org:8443']) {
      await expectRefused(server, { host: upstreamHost, origin })
    }
  })

  it('refuses an opaque Origin: null (sandboxed frame, data: document) from a browser without Sec-Fetch-Site', async () => {
    await expectRefused(server, { host: upstreamHost, origin: 'null' })
  })

  it('takes PUBLIC_URL as the only origin: Host naming the caller’s own origin does not make it same-site', async () => {
    await expectRefused(server, { host: 'evil.example', origin: 'https://evil.example' })
  })

  it('leaves API clients alone: no Origin, no Sec-Fetch-Site', async () => {
    await expectAccepted(server, { host: upstreamHost })
  })
})

describe('without PUBLIC_URL, behind a trusted proxy that forwards the host', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('accepts an Origin equal to the forwarded host (the proxy may report the inner hop’s scheme)', async () => {
    await expectAccepted(server, { host: 'flagwave:8080', 'x-forwarded-host': 'ctf.example.org', 'x-forwarded-proto': 'https', origin: 'https://ctf.example.org' })
    await expectAccepted(server, { host: 'flagwave:8080', 'x-forwarded-host': 'ctf.example.org', 'x-forwarded-proto': 'http', origin: 'https://ctf.example.org' })
  })

  it('accepts an Origin equal to Host when nothing is forwarded', async () => {
    await expectAccepted(server, { host: `127.0.0.1:${server.port}`, origin: `http://127.0.0.1:${server.port}` })
  })

  it('refuses an Origin that is neither', async () => {
    await expectRefused(server, { host: 'flagwave:8080', 'x-forwarded-host': 'ctf.example.org', origin: 'https://evil.example' })
  })
})

describe('X-Forwarded-Host from a peer that is not a trusted proxy', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', TRUSTED_PROXIES: '192.0.2.254' } })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('cannot make the caller’s own origin same-site', async () => {
    await expectRefused(server, { host: `127.0.0.1:${server.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', origin: 'https://evil.example' })
  })
})
