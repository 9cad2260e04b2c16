/**
 * Opening a challenge in a running game with a large board (docs/realtime.md#scoreboard-versions-and-gap-repair):
 * the rebuilt board is announced (`{ gameId, version, refetch: true }`), not pushed whole to every
 * socket, and a watching client following the Flagwave client's rules (`applyScoreboardUpdate`:
 * fold differences, read an announced version over REST) reaches the board with the new column;
 * versions stay gap-free across the announcement (the next difference is based on it), a watcher
 * on another node than the admin's (with Redis) reads the announced version from that node, and the
 * frozen and division views are the server's own (the announcement carries nothing of the board,
 * so while the board is frozen the players read the frozen board with the new column and no
 * post-freeze solve, while staff hear the live board's versions).
 *
 * The server announces every whole board here (`SCOREBOARD_PUSH_MAX_BYTES=0`), so a board of a few
 * teams stands for one of a thousand; tests/bench/run.ts (`BENCH_ONLY=opening`) times the real size.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { rooms, type ScoreboardUpdate } from '@flagwave/shared/events'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { ScoreboardModel, type ChallengeInfo } from '@flagwave/shared/schemas/scoreboard'
import { applyScoreboardUpdate, type HeldScoreboard, type UpdateOutcome } from '@flagwave/shared/scoreboardDelta'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, sameSessionOn, settled, startNode, submit, type Player } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, type ReceivedEvent } from '../support/sockets.js'
import type { ApiClient } from '../support/client.js'

let server: TestServer
let monitor: TestUser

async function until<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function solve(p: Player, gameId: number, challenge: Challenge) {
  const id = await submit(p.client, gameId, challenge.id, 'flag{test}')
  expect(await settled(p.client, gameId, challenge.id, id)).toBe('Accepted')
}

/** The board over REST with its version, as the client's scoreboard query reads it. */
async function readBoard(client: ApiClient, gameId: number, view?: 'live'): Promise<{ version: number; scoreboard: ScoreboardModel }> {
  const res = await client.get<ScoreboardModel>(`/api/game/${gameId}/scoreboard${view ? '?view=live' : ''}`)
  expect(res.status).toBe(200)
  return { version: Number(res.headers.get('x-scoreboard-version')), scoreboard: ScoreboardModel.parse(res.body) }
}

/**
 * A watching screen as client/src/pages/games/useGameLive.ts follows the board: every push folded
 * in arrival order; a gap or an announcement reads the board over REST (an announcement again
 * until the answer has that version). Records each push's outcome.
 */
class Follower {
  held: HeldScoreboard = { version: -1, scoreboard: null }
  readonly outcomes: { version: number; kind: 'delta' | 'whole' | 'announced'; outcome: UpdateOutcome }[] = []
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly client: ApiClient,
    private readonly gameId: number,
    private readonly view?: 'live',
  ) {}

  async start(): Promise<void> {
    this.held = await readBoard(this.client, this.gameId, this.view)
  }

  push(update: ScoreboardUpdate): void {
    this.queue = this.queue.then(async () => {
      const next = applyScoreboardUpdate(this.held, update)
      const kind = 'refetch' in update ? 'announced' : 'delta' in update ? 'delta' : 'whole'
      this.outcomes.push({ version: update.version, kind, outcome: next.outcome })
      this.held = { version: next.version, scoreboard: next.scoreboard }
      if (next.outcome === 'gap' || next.outcome === 'fetch') {
        const read = await until(async () => {
          const answer = await readBoard(this.client, this.gameId, this.view)
          return answer.version >= update.version && answer
        })
        if (read.version > this.held.version) this.held = read
      }
    })
  }
}

const listed = (board: ScoreboardModel | null, id: number) => Object.values(board?.challenges ?? {}).some((list) => (list as ChallengeInfo[]).some((c) => c.id === id))
const boards = (events: ReceivedEvent[]) => events.filter((e) => e.event === 'ReceivedScoreboardUpdate').map((e) => e.payload as ScoreboardUpdate)
/** Where the NewChallenge notice is among the events, once it arrived. */
const noticeAt = (events: ReceivedEvent[]) => {
  const at = events.findIndex((e) => e.event === 'ReceivedGameNotice' && (e.payload as GameNotice).type === 'NewChallenge')
  return at >= 0 ? at : undefined
}
/** The board without its render time (a fold keeps the pushed time, a REST read its own). */
const timeless = (board: ScoreboardModel | null) => board && { ...board, updateTimeUTC: '', updateTimeUtc: '' }

beforeAll(async () => {
  server = await startTestServer({ env: { SCOREBOARD_PUSH_MAX_BYTES: '0' } })
  await isolateIds(server)
  monitor = await createUser(server, { role: 'Monitor' })
})
afterEach(() => closeAllSockets())
afterAll(async () => {
  await server?.close()
})

describe('opening a challenge while players watch a large board', () => {
  it('announces the new version; a watcher reads the board with the new column, and the next difference follows it without a gap', async () => {
    const game: Game = await createGame(server, { practiceMode: false })
    const students = await createDivision(server, game, { name: 'Students' })
    const web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 500 })
    const a = await createPlayer(server, game, { organization: students })
    const b = await createPlayer(server, game)
    await createInstances(server, [a.participation, b.participation], [web])
    await solve(a, game.id, web)
    await readBoard(server.client(), game.id) // the engine is warm: the opening's rebuild is the one pushing

    const player: ReceivedEvent[] = []
    const anonymous: ReceivedEvent[] = []
    const mine = await connect(server, '/hub/user', { game: game.id, client: a.client, record: player })
    const theirs = await connect(server, '/hub/user', { game: game.id, record: anonymous })
    await joined(server, '/hub/user', mine, rooms.game(game.id))
    await joined(server, '/hub/user', theirs, rooms.game(game.id))
    const screen = new Follower(server.client(), game.id)
    await screen.start()
    theirs.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => screen.push(u))
    const before = screen.held.version

    const fresh = await createChallenge(server, game, { title: 'Fresh', tag: 'Misc', originalScore: 300, isEnabled: false, flags: ['flag{test}'] })
    const admin = await server.admin()
    const opened = await admin.put(`/api/edit/games/${game.id}/challenges/${fresh.id}`, { isEnabled: true })
    expect(opened.status, opened.text).toBe(200)

    // The watcher reaches a board with the new column, read over REST after the announcement.
    await until(() => listed(screen.held.scoreboard, fresh.id))
    const announced = boards(anonymous).find((u) => 'refetch' in u)
    expect(announced).toEqual({ gameId: game.id, version: before + 1, refetch: true })
    expect(boards(anonymous).filter((u) => 'scoreboard' in u)).toEqual([])
    expect(screen.outcomes).toContainEqual({ version: before + 1, kind: 'announced', outcome: 'fetch' })
    // Every row has the new challenge's (unsolved) cell; the divisions and their ranks are the server's.
    expect(screen.held.scoreboard!.items.every((row) => row.challenges.some((c) => c.id === fresh.id && c.type === 'Unaccepted'))).toBe(true)
    const rest = await readBoard(server.client(), game.id)
    expect(screen.held.version).toBe(rest.version)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless(rest.scoreboard))
    expect(rest.scoreboard.items.find((i) => i.id === a.team.id)).toMatchObject({ divisionId: students.id, divisionRank: 1 })
    // The NewChallenge notice comes after the announcement, on the player's socket as on the anonymous one.
    for (const events of [player, anonymous]) {
      const notice = await until(() => noticeAt(events))
      const board = events.findIndex((e) => e.event === 'ReceivedScoreboardUpdate' && 'refetch' in (e.payload as ScoreboardUpdate))
      expect(board).toBeGreaterThanOrEqual(0)
      expect(board).toBeLessThan(notice)
    }

    // A solve of the new challenge: a difference based on the announced version, folded without a gap.
    await solve(b, game.id, fresh) // the opening created every team's instance
    await until(() => screen.held.scoreboard?.items.find((i) => i.id === b.team.id)?.challenges.some((c) => c.id === fresh.id && c.type === 'FirstBlood'))
    const after = boards(anonymous).filter((u) => u.version > before + 1)
    expect(after.length).toBeGreaterThan(0)
    expect(after[0]).toMatchObject({ base: before + 1, version: before + 2 })
    expect(screen.outcomes.filter((o) => o.outcome === 'gap')).toEqual([])
    // Versions only ever step by one.
    const versions = boards(anonymous).map((u) => u.version).filter((v) => v > before)
    expect(versions).toEqual(versions.map((_, i) => before + 1 + i))
    const final = await readBoard(server.client(), game.id)
    await until(() => screen.held.version === final.version)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless(final.scoreboard))
  })

  it('a timed release is announced the same way, before its NewChallenge notice', async () => {
    const game: Game = await createGame(server, { practiceMode: false })
    const web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web' })
    const a = await createPlayer(server, game)
    await createInstances(server, [a.participation], [web])
    await readBoard(server.client(), game.id)
    const events: ReceivedEvent[] = []
    const socket = await connect(server, '/hub/user', { game: game.id, record: events })
    await joined(server, '/hub/user', socket, rooms.game(game.id))
    const screen = new Follower(server.client(), game.id)
    await screen.start()
    socket.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => screen.push(u))

    const midnight = await createChallenge(server, game, { title: 'Midnight', tag: 'Misc', isEnabled: false, flags: ['flag{test}'] })
    const admin = await server.admin()
    const before = screen.held.version
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${midnight.id}`, { releaseTimeUtc: Date.now() + 2000 })).status).toBe(200)
    // The edit's own rebuild (a version without the challenge) goes first; then the release.
    const scheduled = await until(() => boards(events).find((u) => u.version > before))
    expect(listed(screen.held.scoreboard, midnight.id)).toBe(false)
    await until(() => listed(screen.held.scoreboard, midnight.id), 10_000)
    expect(boards(events).filter((u) => 'scoreboard' in u)).toEqual([])
    const notice = await until(() => noticeAt(events))
    const release = events.findIndex((e) => e.event === 'ReceivedScoreboardUpdate' && 'refetch' in (e.payload as ScoreboardUpdate) && (e.payload as ScoreboardUpdate).version > scheduled.version)
    expect(release).toBeGreaterThanOrEqual(0)
    expect(release).toBeLessThan(notice)
  })

  it.skipIf(!inject('redisUrl'))('a watcher on another node than the admin’s reads the announced version there', async () => {
    // Configured as the first node (either may own the game's engine), without checkers.
    const second = await startNode(server.databaseUrl, { REDIS_PREFIX: server.services.config.REDIS_PREFIX, CHECKER_CONCURRENCY: '0', SCOREBOARD_PUSH_MAX_BYTES: '0' })
    try {
      const game: Game = await createGame(server, { practiceMode: false })
      const web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web' })
      const a = await createPlayer(server, game)
      await createInstances(server, [a.participation], [web])
      await solve(a, game.id, web)
      await readBoard(server.client(), game.id) // one of the nodes owns the engine now
      const there: ReceivedEvent[] = []
      const theirs = await connect(second, '/hub/user', { game: game.id, record: there })
      await joined(second, '/hub/user', theirs, rooms.game(game.id))
      const screen = new Follower(sameSessionOn(second, server.client()), game.id)
      await screen.start()
      theirs.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => screen.push(u))

      const fresh = await createChallenge(server, game, { title: 'Fresh', tag: 'Misc', isEnabled: false, flags: ['flag{test}'] })
      const admin = await server.admin()
      expect((await admin.put(`/api/edit/games/${game.id}/challenges/${fresh.id}`, { isEnabled: true })).status).toBe(200)
      await until(() => listed(screen.held.scoreboard, fresh.id))
      expect(boards(there).filter((u) => 'scoreboard' in u)).toEqual([])
      expect(boards(there).some((u) => 'refetch' in u && u.version === screen.held.version)).toBe(true)
      expect(timeless(screen.held.scoreboard)).toEqual(timeless((await readBoard(server.client(), game.id)).scoreboard))
    } finally {
      await second.close()
    }
  })

  it('while the board is frozen, players read the frozen board with the new column and no post-freeze solve; staff read the live one', async () => {
    const game: Game = await createGame(server, { practiceMode: false })
    const web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web', originalScore: 500 })
    const a = await createPlayer(server, game)
    const b = await createPlayer(server, game)
    await createInstances(server, [a.participation, b.participation], [web])
    await solve(a, game.id, web)
    await readBoard(server.client(), game.id)
    const admin = await server.admin()
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    await until(async () => (await readBoard(server.client(), game.id)).scoreboard.frozen === true)

    const player: ReceivedEvent[] = []
    const staff: ReceivedEvent[] = []
    const mine = await connect(server, '/hub/user', { game: game.id, client: a.client, record: player })
    const watching = await connect(server, '/hub/monitor', { game: game.id, client: monitor.client, record: staff })
    await joined(server, '/hub/user', mine, rooms.game(game.id))
    await joined(server, '/hub/monitor', watching, rooms.game(game.id))
    const screen = new Follower(a.client, game.id)
    await screen.start()
    mine.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => screen.push(u))
    const live = new Follower(monitor.client, game.id, 'live')
    await live.start()
    watching.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => live.push(u))

    // After the freeze: b solves (only staff may hear of it), then a challenge opens.
    await solve(b, game.id, web)
    await until(() => live.held.scoreboard?.items.find((i) => i.id === b.team.id)?.solvedCount === 1)
    const fresh = await createChallenge(server, game, { title: 'Fresh', tag: 'Misc', originalScore: 300, isEnabled: false, flags: ['flag{test}'] })
    const opened = await admin.put(`/api/edit/games/${game.id}/challenges/${fresh.id}`, { isEnabled: true })
    expect(opened.status, opened.text).toBe(200)

    await until(() => listed(screen.held.scoreboard, fresh.id))
    await until(() => listed(live.held.scoreboard, fresh.id))
    // The player's board: frozen, the new column, b's post-freeze solve nowhere.
    const frozen = screen.held.scoreboard!
    expect(frozen.frozen).toBe(true)
    expect(frozen.items.find((i) => i.id === b.team.id)).toMatchObject({ solvedCount: 0, score: 0 })
    expect(Object.values(frozen.challenges).flat().find((c) => c!.id === web.id)).toMatchObject({ solved: 1 })
    // Nothing the player's socket heard tells it either: announcements carry no board, and no difference or whole board came.
    expect(boards(player).every((u) => 'refetch' in u)).toBe(true)
    expect(player.filter((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { solved: number }[] }).challenges.some((c) => c.solved > 1))).toEqual([])
    // Staff: the live board with both solves and the new column.
    expect(live.held.scoreboard!.live).toBe(true)
    expect(live.held.scoreboard!.items.find((i) => i.id === b.team.id)?.solvedCount).toBe(1)
    expect(screen.outcomes.filter((o) => o.outcome === 'gap')).toEqual([])
  })
})
