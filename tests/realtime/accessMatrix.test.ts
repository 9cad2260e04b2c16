/**
 * Realtime matches REST (issue 13; docs/realtime.md#who-may-join-what, #re-checks): a socket
 * receives exactly what its caller could read over REST at that moment — before a game starts
 * nobody but monitors and admins hears its notices or board; a banned account hears nothing; a
 * user outside the game hears only what anyone may read; a player never hears another team's
 * results; an ended game is read as REST reads it.
 *
 * The matrix: every hub (the user hub's game room and team rooms, the monitor hub, the admin hub)
 * × every caller (anonymous, a user not in the game, a player of team A, a player of team B, a
 * banned member of team A, a monitor, the admin) × every game state (hidden, not started, running,
 * ended). Real events are triggered — an admin posts a notice over REST, team A submits the right
 * flag and team B a wrong one, settled by the node's checkers — and each socket's recording is
 * compared with what it must and must not receive, and with what the same caller reads over REST.
 *
 * Then the changes of state while sockets are open: a start moved into the future, a game hidden,
 * a ban, a start reached, a deletion.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import type { Participation } from '../../server/src/entities/Participation.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createInstances, createSubmission, isolateIds, queueDrained, startNode, statusPath, submitPath } from '../support/factories/play.js'
import { closeAllSockets, connect, disconnected, joined, serverRooms, type Namespace, type ReceivedEvent } from '../support/sockets.js'

const HOUR = 3600_000
const DAY = 24 * HOUR

const STATES = ['hidden', 'notStarted', 'running', 'ended'] as const
type State = (typeof STATES)[number]
const CALLERS = ['anonymous', 'outsider', 'playerA', 'playerB', 'banned', 'monitor', 'admin'] as const
type Caller = (typeof CALLERS)[number]
const HUBS: Namespace[] = ['/hub/user', '/hub/monitor', '/hub/admin']

let server: TestServer
let admin: ApiClient
let users: Record<Exclude<Caller, 'anonymous' | 'admin'>, TestUser>
let clients: Record<Caller, ApiClient | undefined>
let teamA: number
let teamB: number

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
  const [outsider, playerA, playerB, banned, monitor] = await Promise.all([
    createUser(server),
    createUser(server),
    createUser(server),
    createUser(server, { role: 'Banned' }),
    createUser(server, { role: 'Monitor' }),
  ])
  users = { outsider, playerA, playerB, banned, monitor }
  clients = { anonymous: undefined, outsider: outsider.client, playerA: playerA.client, playerB: playerB.client, banned: banned.client, monitor: monitor.client, admin }
  // The banned account is a member of team A, registered in every game: what it must not hear is its own team's.
  teamA = (await createTeam(server, playerA.user, [banned.user], { name: 'Team A' })).id
  teamB = (await createTeam(server, playerB.user, [], { name: 'Team B' })).id
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  closeAllSockets()
  await server?.close()
})

interface StateGame {
  game: Game
  challenge: Challenge
  a: Participation
  b: Participation
}

/** A game in `state` with teams A and B accepted and one challenge (`flag{ok}`). */
async function gameIn(state: State, overrides: { start?: Date; end?: Date } = {}): Promise<StateGame> {
  const now = Date.now()
  const [start, end] =
    state === 'notStarted' ? [now + DAY, now + 2 * DAY] : state === 'ended' ? [now - 2 * DAY, now - HOUR] : [now - HOUR, now + DAY]
  const game = await createGame(server, {
    title: `Matrix ${state}`,
    hidden: state === 'hidden',
    practiceMode: false,
    start: overrides.start ?? new Date(start),
    end: overrides.end ?? new Date(end),
    wpddl: overrides.end ?? new Date(end),
  })
  const challenge = await createChallenge(server, game, { title: 'Warmup', flags: ['flag{ok}'] })
  const a = await createParticipation(server, game, teamA, [users.playerA.user, users.banned.user], 'Accepted')
  const b = await createParticipation(server, game, teamB, [users.playerB.user], 'Accepted')
  await createInstances(server, [a, b], [challenge])
  return { game, challenge, a, b }
}

const isStaff = (caller: Caller) => caller === 'monitor' || caller === 'admin'

/** What the matrix prescribes for one socket. */
interface Expected {
  /** Admitted, or the reason of the `Refused` it gets before it is disconnected. */
  refused: 'banned' | 'game' | 'role' | null
  /** The distinct events it receives (besides `Refused`). */
  events: string[]
  /** The submissions whose `ReceivedSubmissionResult` it receives. */
  results?: ('a' | 'b')[]
}

function expected(hub: Namespace, caller: Caller, state: State): Expected {
  if (hub === '/hub/admin') return caller === 'admin' ? { refused: null, events: ['ReceivedLog'] } : { refused: 'role', events: [] }
  if (hub === '/hub/monitor') return isStaff(caller) ? { refused: null, events: ['ReceivedGameEvent', 'ReceivedSubmissions'] } : { refused: 'role', events: [] }
  if (caller === 'banned') return { refused: 'banned', events: [] }
  // REST reads notices and the board of a started game, hidden or ended ones too; before the start only staff follow it.
  if (state === 'notStarted' && !isStaff(caller)) return { refused: 'game', events: [] }
  const results: ('a' | 'b')[] = caller === 'playerA' ? ['a'] : caller === 'playerB' ? ['b'] : []
  const events = ['ReceivedChallengeUpdate', 'ReceivedGameNotice', 'ReceivedScoreboardUpdate', ...(results.length ? ['ReceivedSubmissionResult'] : [])]
  return { refused: null, events, results }
}

/** The room an admitted socket of `hub` is put in for the game. */
const roomOf = (hub: Namespace, gameId: number) => (hub === '/hub/admin' ? rooms.admins : rooms.game(gameId))

/** Wait until the server (`node`, the test server unless told) has either admitted `socket` to `room` or dropped it. */
async function admission(hub: Namespace, socket: Socket, room: string, node: Pick<TestServer, 'services'> = server): Promise<'admitted' | 'dropped'> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (!socket.connected) return 'dropped'
    if (serverRooms(node, hub, socket).has(room)) return 'admitted'
    if (Date.now() > deadline) throw new Error(`socket neither admitted to ${room} nor dropped`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) return
    await new Promise((r) => setTimeout(r, 20))
  }
}

const names = (events: ReceivedEvent[]) => [...new Set(events.map((e) => e.event).filter((e) => e !== 'Refused'))].sort()
const refusalOf = (events: ReceivedEvent[]) => (events.find((e) => e.event === 'Refused')?.payload as { reason: string } | undefined)?.reason ?? null

describe('every hub × caller × game state', () => {
  it.each(STATES)('%s game', { timeout: 60_000 }, async (state) => {
    const { game, challenge, a, b } = await gameIn(state)
    const sockets = await Promise.all(
      HUBS.flatMap((hub) =>
        CALLERS.map(async (caller) => {
          const record: ReceivedEvent[] = []
          const socket = await connect(server, hub, { client: clients[caller], game: hub === '/hub/admin' ? undefined : game.id, record })
          return { hub, caller, socket, record, admission: await admission(hub, socket, roomOf(hub, game.id)) }
        }),
      ),
    )

    // The triggers, as they happen: an admin's notice, team A's right flag and team B's wrong one.
    const notice = await admin.post(`/api/edit/games/${game.id}/notices`, { content: `matrix notice (${state})` })
    expect(notice.status).toBe(200)
    const submissions: Record<'a' | 'b', number> = { a: 0, b: 0 }
    if (state === 'running' || state === 'hidden') {
      for (const [team, player, flag] of [['a', users.playerA, 'flag{ok}'], ['b', users.playerB, 'flag{wrong}']] as const) {
        const res = await player.client.post(submitPath(game.id, challenge.id), { flag })
        expect(res.status).toBe(200)
        submissions[team] = res.body as number
      }
    } else {
      // REST takes no flag now; the submissions are ones still queued when the state changed.
      const res = await users.playerA.client.post(submitPath(game.id, challenge.id), { flag: 'flag{ok}' })
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title: state === 'ended' ? '比赛已结束' : '比赛未开始', status: 400 } })
      const submitTime = new Date(Math.min(Date.now(), game.end.getTime() - 60_000))
      submissions.a = (await createSubmission(server, game, challenge, a, users.playerA.user, { answer: 'flag{ok}', status: 'FlagSubmitted', submitTime })).id
      submissions.b = (await createSubmission(server, game, challenge, b, users.playerB.user, { answer: 'flag{wrong}', status: 'FlagSubmitted', submitTime })).id
    }
    await queueDrained(server)

    // Wait for what must arrive, then a while longer for anything that must not.
    const due = sockets.map((s) => ({ s, want: expected(s.hub, s.caller, state) }))
    await until(() => due.every(({ s, want }) => want.events.every((e) => s.record.some((r) => r.event === e))))
    await new Promise((r) => setTimeout(r, 500))

    const problems: string[] = []
    for (const { s, want } of due) {
      const at = `${s.hub} ${s.caller}`
      const got = { refused: s.admission === 'dropped' ? refusalOf(s.record) : null, events: names(s.record) }
      if (got.refused !== want.refused) problems.push(`${at}: expected ${want.refused ? `refusal (${want.refused})` : 'admission'}, got ${got.refused ? `refusal (${got.refused})` : s.admission}`)
      if (JSON.stringify(got.events) !== JSON.stringify([...want.events].sort())) problems.push(`${at}: expected ${JSON.stringify([...want.events].sort())}, got ${JSON.stringify(got.events)}`)
      const results = s.record.filter((r) => r.event === 'ReceivedSubmissionResult').map((r) => (r.payload as { id: number }).id)
      const wantResults = (want.results ?? []).map((t) => submissions[t])
      if (JSON.stringify(results) !== JSON.stringify(wantResults)) problems.push(`${at}: expected results ${JSON.stringify(wantResults)}, got ${JSON.stringify(results)}`)
      if (s.hub === '/hub/user' && !want.refused) {
        // The admin's notice, and the blood notice of the solve while the game runs, not after its end
        // (a solve queued before the start is not a case REST can make; its notice is not asserted).
        const notices = s.record.filter((r) => r.event === 'ReceivedGameNotice').map((r) => (r.payload as { type: string }).type).sort()
        const wantNotices = state === 'ended' ? ['Normal'] : state === 'notStarted' ? notices.filter((t) => t !== 'Normal').concat('Normal').sort() : ['FirstBlood', 'Normal']
        if (JSON.stringify(notices) !== JSON.stringify(wantNotices)) problems.push(`${at}: expected notices ${JSON.stringify(wantNotices)}, got ${JSON.stringify(notices)}`)
      }
    }

    // The same callers over REST: the game room's content is readable exactly where the socket was
    // admitted — save a banned account (refused on every hub; its session serves no team) and staff
    // before the start (who follow the game they prepare).
    for (const caller of CALLERS) {
      const client = clients[caller] ?? server.client()
      const [notices, board] = await Promise.all([client.get(`/api/game/${game.id}/notices`), client.get(`/api/game/${game.id}/scoreboard`)])
      const readable = notices.status === 200 && board.status === 200
      const admitted = !expected('/hub/user', caller, state).refused
      if (caller === 'banned' || (isStaff(caller) && state === 'notStarted')) {
        if (readable && caller !== 'banned') problems.push(`REST ${caller}: the board of a game that has not started is readable`)
        continue
      }
      if (readable !== admitted) problems.push(`REST ${caller}: notices ${notices.status}, board ${board.status}, socket ${admitted ? 'admitted' : 'refused'}`)
    }
    // A submission's status is its submitter's, never another team's.
    for (const [team, owner, other] of [['a', users.playerA, users.playerB], ['b', users.playerB, users.playerA]] as const) {
      const own = await owner.client.get(statusPath(game.id, challenge.id, submissions[team]))
      const foreign = await other.client.get(statusPath(game.id, challenge.id, submissions[team]))
      expect({ status: own.status, body: own.body }).toEqual({ status: 200, body: team === 'a' ? 'Accepted' : 'WrongAnswer' })
      expect({ status: foreign.status, body: foreign.body }).toEqual({ status: 404, body: { title: '提交未找到', status: 404 } })
    }
    expect(problems).toEqual([])
  })
})

describe('when a game’s rights change under open sockets', () => {
  /** A socket of `caller` on the user hub watching `gameId`, recording from before the handshake. */
  async function watch(caller: Caller, gameId: number) {
    const record: ReceivedEvent[] = []
    const socket = await connect(server, '/hub/user', { client: clients[caller], game: gameId, record })
    return { caller, socket, record, admission: await admission('/hub/user', socket, rooms.game(gameId)) }
  }

  async function editGame(gameId: number, change: Record<string, unknown>) {
    const current = await admin.get(`/api/edit/games/${gameId}`)
    expect(current.status).toBe(200)
    const res = await admin.put(`/api/edit/games/${gameId}`, { ...current.body, ...change })
    expect(res.status).toBe(200)
  }

  async function postNotice(gameId: number, content: string) {
    const res = await admin.post(`/api/edit/games/${gameId}/notices`, { content })
    expect(res.status).toBe(200)
    return res.body as { id: number }
  }

  const noticeIds = (record: ReceivedEvent[]) => record.filter((r) => r.event === 'ReceivedGameNotice').map((r) => (r.payload as { id: number }).id)

  it('a start moved into the future refuses every watcher but monitors and admins, team rooms included', async () => {
    const { game, a } = await gameIn('running')
    const watchers = await Promise.all((['anonymous', 'outsider', 'playerA', 'playerB', 'monitor', 'admin'] as const).map((c) => watch(c, game.id)))
    expect(watchers.map((w) => w.admission)).toEqual(watchers.map(() => 'admitted'))
    await joined(server, '/hub/user', watchers[2]!.socket, rooms.team(game.id, a.id))

    const now = Date.now()
    await editGame(game.id, { start: new Date(now + DAY).toISOString(), end: new Date(now + 2 * DAY).toISOString(), wpddl: new Date(now + 2 * DAY).toISOString() })
    const refused = watchers.filter((w) => !isStaff(w.caller))
    expect(await Promise.all(refused.map((w) => disconnected(w.socket)))).toEqual(refused.map(() => 'io server disconnect'))
    expect(refused.map((w) => refusalOf(w.record))).toEqual(refused.map(() => 'game'))

    // Staff keep following it and hear the next notice; REST refuses the others the same content now.
    const notice = await postNotice(game.id, 'rescheduled')
    const staff = watchers.filter((w) => isStaff(w.caller))
    await until(() => staff.every((w) => noticeIds(w.record).includes(notice.id)))
    expect(staff.map((w) => noticeIds(w.record))).toEqual(staff.map(() => [notice.id]))
    expect(refused.map((w) => noticeIds(w.record))).toEqual(refused.map(() => []))
    const rest = await users.outsider.client.get(`/api/game/${game.id}/notices`)
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 400, body: { title: '比赛未开始', status: 400 } })

    // Reconnecting is refused as well until the new start.
    const again = await watch('outsider', game.id)
    expect(again.admission).toBe('dropped')
    expect(refusalOf(again.record)).toBe('game')
  })

  it.skipIf(!process.env.REDIS_URL)('the re-check reaches the watchers connected to another node', { timeout: 60_000 }, async () => {
    const node = await startNode(server.databaseUrl, { REDIS_PREFIX: server.services.config.REDIS_PREFIX, CHECKER_CONCURRENCY: '0' })
    try {
      const { game, a } = await gameIn('running')
      const there = await Promise.all(
        (['outsider', 'playerA', 'monitor'] as const).map(async (caller) => {
          const record: ReceivedEvent[] = []
          const socket = await connect(node, '/hub/user', { client: clients[caller], game: game.id, record })
          return { caller, socket, record, admission: await admission('/hub/user', socket, rooms.game(game.id), node) }
        }),
      )
      expect(there.map((w) => w.admission)).toEqual(['admitted', 'admitted', 'admitted'])
      await joined(node, '/hub/user', there[1]!.socket, rooms.team(game.id, a.id))

      // The edit goes to this node; the sockets live on the other one.
      const now = Date.now()
      await editGame(game.id, { start: new Date(now + DAY).toISOString(), end: new Date(now + 2 * DAY).toISOString(), wpddl: new Date(now + 2 * DAY).toISOString() })
      expect(await Promise.all(there.slice(0, 2).map((w) => disconnected(w.socket)))).toEqual(['io server disconnect', 'io server disconnect'])
      expect(there.slice(0, 2).map((w) => refusalOf(w.record))).toEqual(['game', 'game'])
      await new Promise((r) => setTimeout(r, 200))
      expect(there[2]!.socket.connected).toBe(true)
      expect(serverRooms(node, '/hub/user', there[2]!.socket).has(rooms.game(game.id))).toBe(true)
    } finally {
      closeAllSockets()
      await node.close()
    }
  })

  it('hiding a running game changes nothing REST serves by id, so its watchers keep hearing it', async () => {
    const { game } = await gameIn('running')
    const watcher = await watch('outsider', game.id)
    expect(watcher.admission).toBe('admitted')
    await editGame(game.id, { hidden: true })
    const notice = await postNotice(game.id, 'still here')
    await until(() => noticeIds(watcher.record).includes(notice.id))
    expect(noticeIds(watcher.record)).toEqual([notice.id])
    expect(watcher.socket.connected).toBe(true)
    expect((await users.outsider.client.get(`/api/game/${game.id}/notices`)).status).toBe(200)
    expect(((await server.client().get('/api/game')).body as { id: number }[]).map((g) => g.id)).not.toContain(game.id)
  })

  it('a ban drops every socket of the user at once, and reconnecting is refused', async () => {
    const { game, challenge, a } = await gameIn('running')
    const member = await createUser(server)
    const part = await createParticipation(server, game, (await createTeam(server, member.user)).id, [member.user], 'Accepted')
    await createInstances(server, [part], [challenge])
    const record: ReceivedEvent[] = []
    const socket = await connect(server, '/hub/user', { client: member.client, game: game.id, record })
    await joined(server, '/hub/user', socket, rooms.team(game.id, part.id))

    const res = await admin.put(`/api/admin/users/${member.user.id}`, { role: 'Banned' })
    expect(res.status).toBe(200)
    expect(await disconnected(socket)).toBe('io server disconnect')
    const again: ReceivedEvent[] = []
    const reconnected = await connect(server, '/hub/user', { client: member.client, game: game.id, record: again })
    expect(await disconnected(reconnected)).toBe('io server disconnect')
    expect(refusalOf(again)).toBe('banned')

    // A result of their team settled afterwards reaches none of their sockets.
    await createSubmission(server, game, challenge, part, member.user, { answer: 'flag{ok}', status: 'FlagSubmitted' })
    await createSubmission(server, game, challenge, a, users.playerA.user, { answer: 'flag{nope}', status: 'FlagSubmitted' })
    await queueDrained(server)
    await new Promise((r) => setTimeout(r, 300))
    expect([...record, ...again].filter((r) => r.event !== 'Refused')).toEqual([])
  })

  it('a game that starts admits on reconnection the sockets refused before, and staff follow it throughout', { timeout: 30_000 }, async () => {
    const start = new Date(Date.now() + 3_000)
    const { game } = await gameIn('running', { start, end: new Date(Date.now() + DAY) })
    const early = await watch('outsider', game.id)
    const anonymous = await watch('anonymous', game.id)
    const monitor = await watch('monitor', game.id)
    expect([early.admission, anonymous.admission, monitor.admission]).toEqual(['dropped', 'dropped', 'admitted'])
    expect([refusalOf(early.record), refusalOf(anonymous.record)]).toEqual(['game', 'game'])
    const before = await postNotice(game.id, 'before the start')

    await new Promise((r) => setTimeout(r, Math.max(0, start.getTime() - Date.now() + 100)))
    const late = await watch('outsider', game.id)
    expect(late.admission).toBe('admitted')
    const after = await postNotice(game.id, 'after the start')
    await until(() => noticeIds(late.record).includes(after.id) && noticeIds(monitor.record).includes(after.id))
    expect(noticeIds(monitor.record)).toEqual([before.id, after.id])
    expect(noticeIds(late.record)).toEqual([after.id])
    expect(noticeIds(early.record)).toEqual([])
  })

  it('deleting a game refuses its watchers on the user and the monitor hub', async () => {
    const { game } = await gameIn('running')
    const player = await watch('playerA', game.id)
    const record: ReceivedEvent[] = []
    const monitorSocket = await connect(server, '/hub/monitor', { client: clients.monitor, game: game.id, record })
    await joined(server, '/hub/monitor', monitorSocket, rooms.game(game.id))
    expect((await admin.delete(`/api/edit/games/${game.id}`)).status).toBe(200)
    expect(await Promise.all([disconnected(player.socket), disconnected(monitorSocket)])).toEqual(['io server disconnect', 'io server disconnect'])
    expect([refusalOf(player.record), refusalOf(record)]).toEqual(['game', 'game'])
  })
})
