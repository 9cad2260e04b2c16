/**
 * The permission matrix: every endpoint of the route table × {anonymous, Banned, User, User of
 * another team, captain, Monitor, Admin} answers the outcome class of docs/compatibility.md#sessions-and-roles, #routes-by-group, with
 * path parameters pointing at real fixtures — and the three hubs plus the team-private room admit
 * exactly the callers docs/realtime.md#who-may-join-what lets in. The rows are generated from `allRoutes` joined with
 * docs/compatibility.md#routes-by-group (tests/support/contract.ts): a route without a matrix row, a matrix row without a
 * route, or a contract row without a route fails here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { rooms } from '@flagwave/shared/events'
import { allRoutes } from '../../server/src/routes/index.js'
import type { RouteSpec } from '../../server/src/http/route.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { buildWorld, CALLERS, type Caller, type World } from '../support/fixtures.js'
import { contractRowOf, expectedOutcome, MATRIX, outcomeProblem, routeKey, send, specKey } from '../support/matrix.js'
import { CONTRACT_ENDPOINTS } from '../support/contract.js'
import { closeAllSockets, connect, disconnected, joined, nextEvent, noEvent, serverRooms, type Namespace } from '../support/sockets.js'

let server: TestServer
let world: World

beforeAll(async () => {
  server = await startTestServer()
  world = await buildWorld(server)
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

const check = outcomeProblem

const phaseOf = (r: RouteSpec) => MATRIX[specKey(r)]?.phase ?? 0
const ordered = [...allRoutes].sort((a, b) => phaseOf(a) - phaseOf(b))

describe('route table, contract and matrix cover each other', () => {
  it('every route has a matrix row and a contract row', () => {
    expect(allRoutes.filter((r) => !MATRIX[specKey(r)]).map(specKey), 'routes without a matrix row').toEqual([])
    expect(allRoutes.filter((r) => !contractRowOf(r)).map(specKey), 'routes outside the GZ::CTF v0.17.6 endpoint index and the Flagwave additions').toEqual([])
  })
  it('every matrix row is a route and every contract row is served', () => {
    const routes = new Set(allRoutes.map(specKey))
    expect(Object.keys(MATRIX).filter((k) => !routes.has(k)), 'matrix rows without a route').toEqual([])
    const served = new Set(allRoutes.map((r) => routeKey(r.method, r.path)))
    expect(CONTRACT_ENDPOINTS.filter((e) => !served.has(routeKey(e.method, e.path))).map((e) => `#${e.n} ${e.method} ${e.path}`), 'contract rows not served').toEqual([])
  })
})

describe('hub access', () => {
  type Access = 'allowed' | 'refused'
  const EXPECTED: Record<Namespace, Record<Caller, Access>> = {
    '/hub/user': { anonymous: 'allowed', banned: 'refused', user: 'allowed', otherTeam: 'allowed', captain: 'allowed', monitor: 'allowed', admin: 'allowed' },
    '/hub/monitor': { anonymous: 'refused', banned: 'refused', user: 'refused', otherTeam: 'refused', captain: 'refused', monitor: 'allowed', admin: 'allowed' },
    '/hub/admin': { anonymous: 'refused', banned: 'refused', user: 'refused', otherTeam: 'refused', captain: 'refused', monitor: 'refused', admin: 'allowed' },
  }
  const roomOf = (ns: Namespace) => (ns === '/hub/admin' ? rooms.admins : rooms.game(world.game.id))

  it.each(Object.keys(EXPECTED) as Namespace[])('%s admits exactly the callers of the matrix', async (ns) => {
    const problems: string[] = []
    await Promise.all(
      CALLERS.map(async (caller) => {
        const socket = await connect(server, ns, { client: world.clients[caller], game: ns === '/hub/admin' ? undefined : world.game.id })
        if (EXPECTED[ns][caller] === 'allowed') {
          await joined(server, ns, socket, roomOf(ns)).catch((err) => problems.push(`${caller}: ${err.message}`))
        } else {
          const reason = await disconnected(socket).catch((err) => err.message)
          if (reason !== 'io server disconnect') problems.push(`${caller}: expected to be refused, got ${reason}`)
        }
      }),
    )
    expect(problems).toEqual([])
  })

  it('lets an anonymous watcher into a started game only', async () => {
    const started = await connect(server, '/hub/user', { game: world.game.id })
    await joined(server, '/hub/user', started, rooms.game(world.game.id))
    const upcoming = await connect(server, '/hub/user', { game: world.upcomingGame.id })
    expect(await disconnected(upcoming)).toBe('io server disconnect')
  })

  it('puts only members of an accepted participation into the team-private room', async () => {
    const teamRoom = rooms.team(world.game.id, world.participations.a.id)
    const who = ['user', 'captain', 'otherTeam', 'monitor', 'admin', 'anonymous'] as const
    const sockets = await Promise.all(who.map((caller) => connect(server, '/hub/user', { client: world.clients[caller], game: world.game.id })))
    const pending = await connect(server, '/hub/user', { client: world.users.pending.client, game: world.game.id })
    const rival = await connect(server, '/hub/user', { client: world.users.rival.client, game: world.game.id })
    for (const s of [...sockets, pending, rival]) await joined(server, '/hub/user', s, rooms.game(world.game.id))
    const inRoom = who.filter((_, i) => serverRooms(server, '/hub/user', sockets[i]!).has(teamRoom))
    expect(inRoom).toEqual(['user', 'captain'])
    expect(serverRooms(server, '/hub/user', pending).has(rooms.team(world.game.id, world.participations.pending.id))).toBe(false)
    await joined(server, '/hub/user', rival, rooms.team(world.game.id, world.participations.c.id))

    // What the team room receives stays in it.
    const result = { id: 1, challengeId: world.challenges.static.id, status: 'Accepted' as const }
    const delivered = [nextEvent(sockets[0]!, 'ReceivedSubmissionResult'), nextEvent(sockets[1]!, 'ReceivedSubmissionResult')]
    const silent = [sockets[2]!, sockets[3]!, sockets[4]!, sockets[5]!, pending, rival].map((s) => noEvent(s, 'ReceivedSubmissionResult', 400))
    server.services.realtime.publish('user', teamRoom, 'ReceivedSubmissionResult', result)
    expect(await Promise.all(delivered)).toEqual([result, result])
    await Promise.all(silent)
  })
})

describe('HTTP permission matrix', () => {
  it.each(ordered.map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const row = MATRIX[specKey(route)]
    const contract = contractRowOf(route)
    expect(row, 'matrix row').toBeDefined()
    expect(contract, 'contract row').toBeDefined()
    const path = row!.path(world)
    const results = await Promise.all(
      CALLERS.map(async (caller) => {
        const outcome = expectedOutcome(route, contract!, caller)
        const res = await send(world.clients[caller], route.method, path, row!.request?.(world, caller))
        const problem = check(outcome, res)
        return problem ? `${caller} (${outcome}): ${problem}` : null
      }),
    )
    expect(results.filter(Boolean), `${route.method} ${path}`).toEqual([])
  })
})
