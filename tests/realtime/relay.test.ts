/**
 * A settled batch's pushes on another node (docs/realtime.md#relay): the checkers of node A
 * publish a batch's pushes to A's sockets at once and to the other nodes in one Redis message.
 * A socket on node B must hear every push of every submission exactly once, in the contract's
 * order (docs/realtime.md#order), and before the scoreboard push that follows the batch; A's own
 * sockets hear each once too. Needs Redis: without it there is one node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import type { Game } from '../../server/src/entities/Game.js'
import type { RunningServer } from '../../server/src/server.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstance, createPlayer, queueDrained, sameSessionOn, startSecondNode, submitPath, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, recordEvents, until, type SequencedEvent } from '../support/sockets.js'

let server: TestServer
let second: RunningServer & { dataDir: string }
let monitor: TestUser

beforeAll(async () => {
  server = await startTestServer()
  second = await startSecondNode(server)
  monitor = await createUser(server, { role: 'Monitor' })
})
afterAll(async () => {
  closeAllSockets()
  await second?.close()
  await server?.close()
})

/** The sockets of one node: a monitor of the game, the player's own, an admin's. */
async function socketsOn(node: { url: string; services: TestServer['services'] }, game: Game, player: Player, admin: TestUser['client']) {
  const mon = await connect(node, '/hub/monitor', { game: game.id, client: sameSessionOn(node, monitor.client) })
  await joined(node, '/hub/monitor', mon, rooms.game(game.id))
  const own = await connect(node, '/hub/user', { game: game.id, client: sameSessionOn(node, player.client) })
  await joined(node, '/hub/user', own, rooms.team(game.id, player.participation.id))
  const adm = await connect(node, '/hub/admin', { client: sameSessionOn(node, admin) })
  await joined(node, '/hub/admin', adm, rooms.admins)
  return { monitor: recordEvents(mon), player: recordEvents(own), admin: recordEvents(adm) }
}

const names = (events: SequencedEvent[], keep: string[]) => events.filter((e) => keep.includes(e.event)).map((e) => e.event)

describe.skipIf(!process.env.REDIS_URL)('a settled batch on another node', () => {
  it('reaches its sockets once each, in the contract order, ahead of the board', { timeout: 60_000 }, async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Relayed', flags: ['flag{relayed}'] })
    const player = await createPlayer(server, game)
    await createInstance(server, player.participation, challenge)
    const admin = await server.admin()
    const here = await socketsOn(server, game, player, admin)
    const there = await socketsOn({ url: second.url, services: second.services }, game, player, admin)

    // Sent together, so the checker settles them in batches; the last one is the solve.
    const flags = [...Array.from({ length: 12 }, (_, i) => `flag{no-${i}}`), 'flag{relayed}']
    const answers = await Promise.all(flags.map((flag) => player.client.post(submitPath(game.id, challenge.id), { flag })))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const ids = answers.map((a) => a.body as number).sort((a, b) => a - b)
    const solve = answers.at(-1)!.body as number
    const flagOf = new Map(answers.map((a, i) => [a.body as number, flags[i]!]))
    await queueDrained(server)

    const settlingOrder: number[][] = []
    for (const node of [here, there]) {
      await until(() => node.player.some((e) => e.event === 'ReceivedScoreboardUpdate') && node.admin.filter((e) => e.event === 'ReceivedLog').length >= ids.length, 15_000)
      await new Promise((r) => setTimeout(r, 300))
      // Every submission once, in settling order (two checkers may commit their batches in either
      // order), each monitor event just before its submission, the audit entries in the same order.
      const results = node.player.filter((e) => e.event === 'ReceivedSubmissionResult').map((e) => (e.payload as { id: number }).id)
      expect([...results].sort((a, b) => a - b)).toEqual(ids)
      settlingOrder.push(results)
      expect(names(node.monitor, ['ReceivedGameEvent', 'ReceivedSubmissions'])).toEqual(ids.flatMap(() => ['ReceivedGameEvent', 'ReceivedSubmissions']))
      expect(node.monitor.filter((e) => e.event === 'ReceivedSubmissions').map((e) => (e.payload as { answer: string }).answer)).toEqual(results.map((id) => flagOf.get(id)))
      expect(node.admin.filter((e) => e.event === 'ReceivedLog').map((e) => Number((e.payload as { msg: string }).msg.match(/\(#(\d+)\)$/)?.[1]))).toEqual(results)
      // The solver's own socket: the blood notice just before the solve's result, the board after it.
      const order = node.player.filter((e) => ['ReceivedGameNotice', 'ReceivedSubmissionResult', 'ReceivedScoreboardUpdate'].includes(e.event))
      const notice = order.findIndex((e) => e.event === 'ReceivedGameNotice')
      expect(order.filter((e) => e.event === 'ReceivedGameNotice')).toHaveLength(1)
      expect(order[notice + 1]).toMatchObject({ event: 'ReceivedSubmissionResult', payload: { id: solve, status: 'Accepted' } })
      expect(order.filter((e) => e.event === 'ReceivedScoreboardUpdate')).toHaveLength(1)
      expect(order.findIndex((e) => e.event === 'ReceivedScoreboardUpdate')).toBeGreaterThan(notice + 1)
    }
    // The other node heard them in the order this one published them.
    expect(settlingOrder[1]).toEqual(settlingOrder[0])
  })
})
