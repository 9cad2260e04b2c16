/**
 * A flag submission records its client address (issue 13; docs/scoring.md#submission-queue): the
 * address the node resolved for the request (lib/clientAddress.ts) goes into the submission row in
 * the same single INSERT, and the audit entry of its settlement carries it. Behind a trusted proxy
 * that is the right-most untrusted X-Forwarded-For hop; from any other peer the header is a claim
 * and the peer's address is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, queueDrained, submitPath, type Player } from '../support/factories/play.js'
import type { ApiClient } from '../support/client.js'
import { rawRequest } from './support/rawHttp.js'

interface World {
  server: TestServer
  admin: ApiClient
  player: Player
  gameId: number
  challengeId: number
}

async function world(env: Record<string, string>): Promise<World> {
  const server = await startTestServer({ env })
  await isolateIds(server)
  const game = await createGame(server)
  const challenge = await createChallenge(server, game, { title: 'Where from', flags: ['flag{addr}'] })
  const player = await createPlayer(server, game)
  await createInstances(server, [player.participation], [challenge])
  return { server, admin: await server.admin(), player, gameId: game.id, challengeId: challenge.id }
}

/** Submit over raw HTTP with these headers; the stored row's address and its settled audit entry's. */
async function submitFrom(w: World, headers: Record<string, string>) {
  const res = await rawRequest({
    method: 'POST',
    host: '127.0.0.1',
    port: w.server.port,
    path: submitPath(w.gameId, w.challengeId),
    json: { flag: 'flag{addr}' },
    headers: { cookie: w.player.client.cookieHeader, ...headers },
  })
  expect(res.status).toBe(200)
  const id = res.body as number
  const [row] = await w.server.services.orm.em.fork().getConnection().execute<{ ip: string }[]>('select ip from submissions where id = ?', [id])
  await queueDrained(w.server)
  const logs = await w.admin.get('/api/admin/logs?level=All&count=100&skip=0')
  expect(logs.status).toBe(200)
  const entry = (logs.body as { msg: string; ip: string }[]).find((e) => e.msg.endsWith(`(#${id})`))
  return { stored: row?.ip, audited: entry?.ip }
}

describe('behind a trusted proxy (TRUST_PROXY, loopback trusted)', () => {
  let w: World
  beforeAll(async () => {
    w = await world({ TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await w?.server.close()
  })

  it('stores the client the proxy forwarded', async () => {
    expect(await submitFrom(w, { 'x-forwarded-for': '203.0.113.7' })).toEqual({ stored: '203.0.113.7', audited: '203.0.113.7' })
  })

  it('stores the right-most untrusted hop, not what the client wrote to the left of it', async () => {
    expect(await submitFrom(w, { 'x-forwarded-for': '198.51.100.66, 203.0.113.8' })).toEqual({ stored: '203.0.113.8', audited: '203.0.113.8' })
  })

  it('stores the peer when the forwarded value is not an address (or too long for one)', async () => {
    expect(await submitFrom(w, { 'x-forwarded-for': `${'1'.repeat(60)}` })).toEqual({ stored: '127.0.0.1', audited: '127.0.0.1' })
  })
})

describe('X-Forwarded-For from a peer that is not a trusted proxy', () => {
  let w: World
  beforeAll(async () => {
    w = await world({ TRUST_PROXY: 'true', TRUSTED_PROXIES: '192.0.2.254' })
  })
  afterAll(async () => {
    await w?.server.close()
  })

  it('is ignored: the real peer is stored', async () => {
    expect(await submitFrom(w, { 'x-forwarded-for': '203.0.113.66' })).toEqual({ stored: '127.0.0.1', audited: '127.0.0.1' })
  })
})
