/**
 * GET /metrics, /healthz and /readyz (docs/operations.md#metrics, #health-checks) against the real
 * server: who may read the metrics (the bearer token, an allowed address — the real one, never a
 * forged X-Forwarded-For — and nobody else, not even an Admin session), that the values move after
 * real requests, sockets and solves, and readiness with a part down.
 */
import fs from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { closeAllSockets, connect, joined } from '../support/sockets.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstance, createInstanceContainer, createPlayer, settled, submit } from '../support/factories/play.js'
import { rooms } from '@flagwave/shared/events'

const TOKEN = 'metrics-token-0123456789abcdef'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({
    env: {
      METRICS_TOKEN: TOKEN,
      // 127.0.0.2 is allowed as a peer; 10.9.0.0/16 only as a client behind the trusted proxy 127.0.0.3.
      METRICS_ALLOW: '127.0.0.2, 10.9.0.0/16',
      TRUST_PROXY: 'true',
      TRUSTED_PROXIES: '127.0.0.3',
    },
  })
})
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

/** A GET from a chosen loopback address (the TCP peer the server sees). */
function get(urlPath: string, options: { from?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(server.url + urlPath)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, localAddress: options.from ?? '127.0.0.1', headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const scrape = async (): Promise<string> => {
  const res = await get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  return res.text
}

/** The value of a sample whose labels include `labels`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]))
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3])
  }
  return undefined
}

async function eventually(read: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const HIDDEN = { type: 'https://tools.ietf.org/html/rfc7231#section-6.5.4', title: 'Not Found', status: 404 }

describe('who may read /metrics', () => {
  it('answers the bearer token and the allowed addresses', async () => {
    const withToken = await get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(withToken.status).toBe(200)
    expect(withToken.type).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(withToken.text).toContain('# TYPE flagwave_http_request_duration_seconds histogram')
    expect((await get('/metrics', { from: '127.0.0.2' })).status).toBe(200)
    // The trusted proxy says the client is 10.9.1.1: allowed.
    expect((await get('/metrics', { from: '127.0.0.3', headers: { 'x-forwarded-for': '10.9.1.1' } })).status).toBe(200)
  })

  it('answers 404 to everyone else, whatever they claim', async () => {
    const refused = [
      await get('/metrics'),
      await get('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } }),
      await get('/metrics', { headers: { authorization: TOKEN } }),
      // Spoofed: the peer 127.0.0.1 is no trusted proxy, so its X-Forwarded-For is not believed.
      await get('/metrics', { headers: { 'x-forwarded-for': '10.9.1.1' } }),
      await get('/metrics', { headers: { 'x-forwarded-for': '127.0.0.2' } }),
      // Through the real proxy, the client prepended an allowed address; the proxy's own hop is the client.
      await get('/metrics', { from: '127.0.0.3', headers: { 'x-forwarded-for': '10.9.1.1, 198.51.100.7' } }),
    ]
    for (const res of refused) {
      expect(res.status).toBe(404)
      expect(JSON.parse(res.text)).toMatchObject(HIDDEN)
    }
    // A session opens nothing, not even the Admin's.
    const admin = await server.admin()
    const res = await admin.get('/metrics')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject(HIDDEN)
  })
})

describe('metric values', () => {
  it('count requests by route pattern and status, never by raw URL', async () => {
    const before = await scrape()
    const ok = sample(before, 'flagwave_http_responses_total', { method: 'GET', route: '/api/config', status: '200' }) ?? 0
    const count = sample(before, 'flagwave_http_request_duration_seconds_count', { method: 'GET', route: '/api/config' }) ?? 0
    for (let i = 0; i < 3; i++) expect((await server.client().get('/api/config')).status).toBe(200)
    expect((await server.client().get('/api/game/987654321')).status).toBe(404)
    expect((await server.client().get('/api/no-such-endpoint-4711')).status).toBe(404)
    const after = await scrape()
    expect(sample(after, 'flagwave_http_responses_total', { method: 'GET', route: '/api/config', status: '200' })).toBe(ok + 3)
    expect(sample(after, 'flagwave_http_request_duration_seconds_count', { method: 'GET', route: '/api/config' })).toBe(count + 3)
    expect(sample(after, 'flagwave_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/config', le: '+Inf' })).toBe(count + 3)
    expect(sample(after, 'flagwave_http_responses_total', { method: 'GET', route: '/api/game/:id', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'flagwave_http_responses_total', { method: '*', route: 'other', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(after).not.toContain('987654321')
    expect(after).not.toContain('no-such-endpoint-4711')
  })

  it('report sockets per transport and namespace, including a registered transport, and the webhook backlog', async () => {
    const game = await createGame(server)
    const socket = await connect(server, '/hub/user', { game: game.id })
    await joined(server, '/hub/user', socket, rooms.game(game.id))
    expect(sample(await scrape(), 'flagwave_realtime_sockets', { transport: 'socket.io', namespace: '/hub/user' })).toBeGreaterThanOrEqual(1)
    expect(sample(await scrape(), 'flagwave_webhook_backlog')).toBe(0)
    server.services.metrics.registerSockets('signalr', () => [{ namespace: '/hub/user', count: 4 }])
    server.services.metrics.registerWebhookBacklog(async () => 5)
    const text = await scrape()
    expect(sample(text, 'flagwave_realtime_sockets', { transport: 'signalr', namespace: '/hub/user' })).toBe(4)
    expect(sample(text, 'flagwave_webhook_backlog')).toBe(5)
    socket.close()
  })

  it('move with a solve: settled verdicts, the push fan-out, solve→push latency, queue, containers and the pool', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { flags: ['flag{metrics}'] })
    const player = await createPlayer(server, game)
    await createInstance(server, player.participation, challenge)
    // The board is built (this node owns the game) before the solve, so the solve is folded in and pushed.
    expect((await player.client.get(`/api/game/${game.id}/scoreboard`)).status).toBe(200)
    const before = await scrape()
    const accepted = sample(before, 'flagwave_submissions_settled_total', { status: 'Accepted' }) ?? 0
    const pushes = sample(before, 'flagwave_push_fanout_seconds_count', { event: 'ReceivedScoreboardUpdate' }) ?? 0
    const latencies = sample(before, 'flagwave_solve_push_latency_seconds_count') ?? 0
    const id = await submit(player.client, game.id, challenge.id, 'flag{metrics}')
    expect(await settled(player.client, game.id, challenge.id, id)).toBe('Accepted')
    await eventually(async () => (sample(await scrape(), 'flagwave_solve_push_latency_seconds_count') ?? 0) > latencies, 'solve→push latency')
    const text = await scrape()
    expect(sample(text, 'flagwave_submissions_settled_total', { status: 'Accepted' })).toBe(accepted + 1)
    expect(sample(text, 'flagwave_push_fanout_seconds_count', { event: 'ReceivedScoreboardUpdate' })).toBeGreaterThan(pushes)
    expect(sample(text, 'flagwave_solve_push_latency_seconds_sum')).toBeLessThan(60 * (latencies + 1))
    expect(sample(text, 'flagwave_submission_queue_depth')).toBe(0)
    expect(sample(text, 'flagwave_submission_queue_oldest_seconds')).toBe(0)
    expect(sample(text, 'flagwave_db_pool_connections', { state: 'max' })).toBe(20)
    expect(sample(text, 'flagwave_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1)

    const running = sample(text, 'flagwave_containers', { status: 'Running' }) ?? 0
    await createInstanceContainer(server, player.participation, await createChallenge(server, game, { type: 'DynamicContainer' }))
    expect(sample(await scrape(), 'flagwave_containers', { status: 'Running' })).toBe(running + 1)
  })
})

describe('health', () => {
  it('/healthz says alive, /readyz names each part', async () => {
    const alive = await get('/healthz')
    expect([alive.status, alive.text]).toEqual([200, 'Healthy'])
    const ready = await server.client().get('/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({
      status: 'Ready',
      checks: { database: 'ok', redis: server.services.redis ? 'ok' : 'skipped', containers: 'skipped', storage: 'ok' },
    })
  })

  it('/readyz answers 503 naming the part that is down, and recovers', async () => {
    // The file store's directory replaced by a file: nothing can be stored there.
    const files = path.join(server.dataDir, 'files')
    await fs.rm(files, { recursive: true, force: true })
    await fs.writeFile(files, 'not a directory')
    try {
      const res = await server.client().get('/readyz')
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ title: 'Not ready: storage', status: 503, checks: expect.objectContaining({ database: 'ok', storage: 'failed' }) })
      // Alive all the same: the process serves, it just should not get traffic.
      expect((await get('/healthz')).status).toBe(200)
    } finally {
      await fs.rm(files, { force: true })
    }
    expect((await server.client().get('/readyz')).status).toBe(200)
  })
})
