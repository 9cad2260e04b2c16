/**
 * Crash safety of one node (docs/scoring.md#submission-queue): under a steady stream of flag submissions the process is
 * killed with SIGKILL and started again on the same database — every submission that got an id
 * is settled exactly once and the scoreboard equals a full rebuild from the database. And a
 * graceful stop: SIGTERM while a request is in flight and a socket is open — the request
 * completes, the socket receives `ServerShutdown` and is then disconnected, the process exits 0.
 */
import http from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '../support/server.js'
import type { NodeProcess } from '../support/process.js'
import { closeAllSockets, connect, disconnected } from '../support/sockets.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { drained, expectBoardConverges, expectSettledExactlyOnce, ForwardedClient, isolateSequences, randomIp, recordTransitions, startCluster, type Cluster } from './cluster.js'

let cluster: Cluster
let node: NodeProcess
const ip = randomIp()
let game: Game
let challenges: Challenge[]
let players: Player[]

const ENV = { CHECKER_CONCURRENCY: '2', DISABLE_RATE_LIMIT: 'true' }

beforeAll(async () => {
  cluster = await startCluster()
  node = await cluster.node(ENV)
  await isolateSequences(cluster.pool())
  await recordTransitions(cluster.pool())
  const factories = await cluster.factoryServer(node.url, ip)
  game = await createGame(factories, { practiceMode: false })
  challenges = []
  for (let i = 0; i < 4; i++) challenges.push(await createChallenge(factories, game, { title: `C${i}`, flags: [`flag{c${i}}`] }))
  players = []
  for (let i = 0; i < 5; i++) players.push(await createPlayer(factories, game))
  await createInstances(factories, players.map((p) => p.participation), challenges)
}, 240_000)
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await cluster?.close()
})

const on = (url: string) => ({ url }) as TestServer

describe('kill -9 under load', () => {
  it('settles every submission that got an id exactly once after a restart, and the board equals a full rebuild', async () => {
    const pool = cluster.pool()
    const ids: number[] = []
    let stop = false
    let failures = 0
    const stream = async (p: Player) => {
      let i = 0
      const client = p.client as ForwardedClient
      while (!stop) {
        const j = i % challenges.length
        const flag = i % 3 === 2 ? `flag{c${j}}` : `flag{miss${i}}`
        i++
        try {
          const res = await client.on(node.url).post(`/api/game/${game.id}/challenges/${challenges[j]!.id}`, { flag })
          if (res.status === 200) ids.push(res.body as number)
        } catch {
          failures++
          await new Promise((r) => setTimeout(r, 50))
        }
      }
    }
    const streams = players.map(stream)
    // Let the stream run until the checkers are busy, then pull the plug.
    const deadline = Date.now() + 30_000
    while (ids.length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    await node.kill9()
    const handedOut = ids.length
    await new Promise((r) => setTimeout(r, 300))
    stop = true
    await Promise.all(streams)
    expect(handedOut).toBeGreaterThanOrEqual(40)
    expect(failures).toBeGreaterThan(0)

    node = await cluster.node(ENV)
    await drained(pool)
    await expectSettledExactlyOnce(pool, ids)
    await expectBoardConverges(pool, node.url, game.id)

    // The restarted node takes new submissions as before.
    const p = players[0]!.client as ForwardedClient
    const res = await p.on(node.url).post(`/api/game/${game.id}/challenges/${challenges[0]!.id}`, { flag: 'flag{after}' })
    expect(res.status).toBe(200)
    await drained(pool)
    await expectSettledExactlyOnce(pool, [...ids, res.body as number])
  }, 180_000)
})

describe('graceful shutdown', () => {
  it('SIGTERM: the in-flight request completes, the socket gets ServerShutdown then a disconnect, exit code 0', async () => {
    const player = players[1]!
    const client = (player.client as ForwardedClient).on(node.url)
    const socket = await connect(on(node.url), '/hub/user', { game: game.id, client })
    const events: string[] = []
    socket.onAny((event: string) => events.push(event))
    const order: string[] = []
    const shutdown = new Promise<{ retryMs: number }>((resolve) =>
      socket.once('ServerShutdown', (hint) => {
        order.push('ServerShutdown')
        resolve(hint)
      }),
    )
    const gone = disconnected(socket, 30_000).then((reason) => {
      order.push('disconnect')
      return reason
    })

    // A submission whose body is still arriving when the signal comes.
    const body = JSON.stringify({ flag: 'flag{in flight}' })
    const url = new URL(`${node.url}/api/game/${game.id}/challenges/${challenges[1]!.id}`)
    let inFlight: http.ClientRequest | undefined
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), cookie: client.cookieHeader, 'x-forwarded-for': ip },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d) => (text += d))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 5))
      inFlight = req
    })
    // Make sure the server has the request (headers and the first bytes) before the signal.
    await new Promise((r) => setTimeout(r, 300))
    const exited = node.terminate()
    await new Promise((r) => setTimeout(r, 300))
    inFlight!.end(body.slice(5))

    const res = await answer
    expect(res.status, res.text).toBe(200)
    const id = Number(res.text)
    expect(Number.isInteger(id)).toBe(true)
    expect(await shutdown).toMatchObject({ retryMs: expect.any(Number) })
    // Dropped by the server (the transport may close before the disconnect packet is read; the
    // client then reconnects by itself after the hint, to this node once it is back or another).
    expect(['io server disconnect', 'transport close']).toContain(await gone)
    expect(order).toEqual(['ServerShutdown', 'disconnect'])
    expect(events).toContain('ServerShutdown')
    expect(await exited).toBe(0)
    // The submission is in the durable queue, whatever the checkers managed before stopping.
    const { rows } = await cluster.pool().query('select status from submissions where id = $1', [id])
    expect(rows).toHaveLength(1)
  }, 120_000)
})
