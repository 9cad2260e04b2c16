/**
 * Several nodes (docs/realtime.md#several-nodes; docs/scoring.md#engine-ownership, README "Several nodes"): two Flagwave processes on one PostgreSQL
 * database and the machine's Redis. A notice posted on node A reaches a socket connected to node
 * B; a configuration change on A is what B serves; rate limits are counted once for the cluster;
 * a solve submitted on A reaches B's sockets; and when A is killed (-9) in the middle of a stream
 * of submissions, B takes the game's scoreboard over (advisory lock) and settles the queue: every
 * submission that got an id exactly once, and the board equals a full rebuild.
 *
 * Needs REDIS_URL (set in CI); without it, and outside CI, the file is skipped with a message.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import type { TestServer } from '../support/server.js'
import type { NodeProcess } from '../support/process.js'
import { closeAllSockets, connect } from '../support/sockets.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import {
  adminOn,
  drained,
  expectBoardConverges,
  expectSettledExactlyOnce,
  ForwardedClient,
  isolateSequences,
  randomIp,
  recordTransitions,
  scoreboardOwnerPid,
  startCluster,
  type Cluster,
} from './cluster.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const REDIS = process.env.REDIS_URL
const ENGINE_LANDED = fs.existsSync(path.join(ROOT, 'server/src/workers/checker.ts')) && fs.existsSync(path.join(ROOT, 'server/src/domain/scoreboard/engine.ts'))

if (!REDIS && !process.env.CI) console.warn('[multiNode] skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run the several-nodes tests')
if (!REDIS && process.env.CI) throw new Error('[multiNode] REDIS_URL must be set in CI')

describe.skipIf(!REDIS)('several nodes on one database and one Redis', () => {
  let cluster: Cluster
  let a: NodeProcess
  let b: NodeProcess
  const ip = randomIp()
  let factories: TestServer
  let game: Game
  let challenges: Challenge[]
  let players: Player[]

  beforeAll(async () => {
    cluster = await startCluster()
    // Rate limits on (shared through Redis); every client below claims its own random address.
    a = await cluster.node({ REDIS_URL: REDIS!, DISABLE_RATE_LIMIT: 'false', CHECKER_CONCURRENCY: '2' })
    await isolateSequences(cluster.pool())
    await recordTransitions(cluster.pool())
    b = await cluster.node({ REDIS_URL: REDIS!, DISABLE_RATE_LIMIT: 'false', CHECKER_CONCURRENCY: '2' })
    factories = await cluster.factoryServer(a.url, ip)
    game = await createGame(factories, { practiceMode: false })
    challenges = []
    for (let i = 0; i < 3; i++) challenges.push(await createChallenge(factories, game, { title: `Q${i}`, flags: [`flag{q${i}}`] }))
    players = []
    for (let i = 0; i < 4; i++) players.push(await createPlayer(factories, game))
    await createInstances(factories, players.map((p) => p.participation), challenges)
  }, 240_000)
  afterEach(() => closeAllSockets())
  afterAll(async () => {
    closeAllSockets()
    await cluster?.close()
  })

  const on = (node: NodeProcess) => ({ url: node.url }) as TestServer

  /** Repeat `act` until `socket` sees `event` matching `match` (the server joins rooms just after the handshake). */
  async function delivered<T>(socket: Socket, event: string, act: () => Promise<void>, match: (payload: T) => boolean, timeoutMs = 15_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false
      const handler = (payload: T) => {
        if (done || !match(payload)) return
        done = true
        socket.off(event, handler)
        resolve(payload)
      }
      socket.on(event, handler)
      const deadline = Date.now() + timeoutMs
      void (async () => {
        while (!done) {
          if (Date.now() > deadline) {
            done = true
            socket.off(event, handler)
            reject(new Error(`${event} never reached the socket`))
            return
          }
          await act().catch(() => undefined)
          await new Promise((r) => setTimeout(r, 500))
        }
      })()
    })
  }

  it('a notice posted on node A reaches a socket connected to node B', async () => {
    const admin = await adminOn(a.url, ip)
    const watcher = await connect(on(b), '/hub/user', { game: game.id })
    let n = 0
    const notice = await delivered<{ content: string }>(
      watcher,
      'ReceivedGameNotice',
      async () => {
        const res = await admin.post(`/api/edit/games/${game.id}/notices`, { content: `from A #${++n}` })
        expect(res.status).toBe(200)
      },
      (p) => p.content.startsWith('from A'),
    )
    expect(notice.content).toMatch(/^from A #\d+$/)
  })

  it('a configuration change on node A is what node B serves and pushes', async () => {
    const admin = await adminOn(a.url, ip)
    const watcher = await connect(on(b), '/hub/user')
    let slogan = ''
    const pushed = await delivered<{ slogan: string }>(
      watcher,
      'ReceivedConfigUpdate',
      async () => {
        slogan = `several nodes ${Date.now()}`
        expect((await admin.put('/api/admin/config', { globalConfig: { slogan } })).status).toBe(200)
      },
      (p) => p.slogan.startsWith('several nodes'),
    )
    expect(pushed.slogan).toMatch(/^several nodes \d+$/)
    const deadline = Date.now() + 10_000
    for (;;) {
      const config = await new ForwardedClient(b.url, ip).get('/api/config')
      if (config.body.slogan === slogan) break
      if (Date.now() > deadline) expect(config.body.slogan).toBe(slogan)
      await new Promise((r) => setTimeout(r, 200))
    }
  })

  it('rate limits are counted once for the cluster: exhausted on A, refused on B', async () => {
    const [guesser] = players
    const onA = guesser!.client as ForwardedClient
    const code = (i: number) => `x:1:${i.toString(16).padStart(32, '0')}`
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => onA.post('/api/team/accept', code(i))))
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(400))
    const refused = await onA.on(b.url).post('/api/team/accept', code(31))
    expect(refused.status).toBe(429)
    expect(refused.body.title).toMatch(/^Too many requests, retry after \d+ seconds\.$/)
    // Another user on B is not affected.
    expect((await (players[1]!.client as ForwardedClient).on(b.url).post('/api/team/accept', code(32))).status).toBe(400)
  })

  it.skipIf(!ENGINE_LANDED)('a solve submitted on node A reaches sockets on node B (game room and team room)', async () => {
    const solver = players[2]!
    const client = solver.client as ForwardedClient
    const watcher = await connect(on(b), '/hub/user', { game: game.id, client: client.on(b.url) })
    const result = new Promise<{ id: number; status: string }>((resolve) => watcher.on('ReceivedSubmissionResult', (r) => r.status === 'Accepted' && resolve(r)))
    const board = new Promise<{ gameId: number; version: number }>((resolve) => watcher.on('ReceivedScoreboardUpdate', (u) => resolve(u)))
    // Wrong answers first (the socket is in its rooms by the time one comes back), then the solve.
    await delivered(
      watcher,
      'ReceivedSubmissionResult',
      async () => {
        expect((await client.post(`/api/game/${game.id}/challenges/${challenges[0]!.id}`, { flag: 'flag{nope}' })).status).toBe(200)
      },
      () => true,
    )
    const id = (await client.post(`/api/game/${game.id}/challenges/${challenges[0]!.id}`, { flag: 'flag{q0}' })).body as number
    const accepted = await result
    expect(accepted.id).toBe(id)
    expect((await board).gameId).toBe(game.id)
    expect(rooms.team(game.id, solver.participation.id)).toMatch(/^Game_\d+_Team_\d+$/)
  })

  it.skipIf(!ENGINE_LANDED)('the other node takes the scoreboard over and settles the queue when the owner is killed mid-load', async () => {
    const pool = cluster.pool()
    // Ask node A first; under load either node may still win the game's lock.
    await new ForwardedClient(a.url, ip).get(`/api/game/${game.id}/scoreboard`)
    const deadline = Date.now() + 10_000
    let owner = await scoreboardOwnerPid(pool, game.id)
    while (owner === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
      owner = await scoreboardOwnerPid(pool, game.id)
    }
    expect(owner).not.toBeNull()
    // Whichever node won the game's lock is killed; the other must take over. Dedicated
    // connections carry their process id in application_name, which tells the owner apart.
    const ownerApp = (await pool.query<{ application_name: string }>('select application_name from pg_stat_activity where pid = $1', [owner])).rows[0]?.application_name ?? ''
    const [victim, survivor] = ownerApp.endsWith(`-${b.child.pid}`) ? [b, a] : [a, b]

    const ids: number[] = []
    let stop = false
    const stream = async (p: Player, nodeUrl: () => string) => {
      let i = 0
      while (!stop) {
        const c = challenges[i % challenges.length]!
        const flag = i % 4 === 3 ? `flag{q${i % challenges.length}}` : `flag{wrong${i}}`
        i++
        try {
          const res = await (p.client as ForwardedClient).on(nodeUrl()).post(`/api/game/${game.id}/challenges/${c.id}`, { flag })
          if (res.status === 200) ids.push(res.body as number)
        } catch {
          await new Promise((r) => setTimeout(r, 20))
        }
        // Paced under the cluster's rate limits (Submit 60 per 10 s, Global 150 a minute per user):
        // unpaced, a fast machine spends them before the kill and no submission is left to the survivor.
        await new Promise((r) => setTimeout(r, 150))
      }
    }
    let target = victim.url
    const streams = players.map((p) => stream(p, () => target))
    await new Promise((r) => setTimeout(r, 1500))
    const before = ids.length
    await victim.kill9()
    target = survivor.url
    await new Promise((r) => setTimeout(r, 1500))
    stop = true
    await Promise.all(streams)
    expect(before).toBeGreaterThan(0)
    expect(ids.length).toBeGreaterThan(before)

    // The lock of the dead node's connection is gone; B's is the only one.
    const takeoverDeadline = Date.now() + 20_000
    let next = await scoreboardOwnerPid(pool, game.id)
    while ((next === null || next === owner) && Date.now() < takeoverDeadline) {
      await new Promise((r) => setTimeout(r, 200))
      next = await scoreboardOwnerPid(pool, game.id)
    }
    expect(next).not.toBeNull()
    expect(next).not.toBe(owner)

    await drained(pool)
    await expectSettledExactlyOnce(pool, ids)
    await expectBoardConverges(pool, survivor.url, game.id)
    // B keeps working alone.
    const admin = await adminOn(survivor.url, randomIp())
    expect((await admin.get(`/api/game/${game.id}/submissions?count=0`)).body).toHaveLength((await pool.query('select id from submissions where game_id = $1', [game.id])).rowCount!)
  }, 120_000)
})
