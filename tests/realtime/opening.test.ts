/**
 * Opening a challenge in a running game with a large board (docs/realtime.md#scoreboard-versions-and-gap-repair):
 * the rebuilt board is pushed as a difference from the previous version — the new challenge and its
 * unsolved column (`added`) — so a watching client following the Flagwave client's rules
 * (`applyScoreboardUpdate`: fold differences, read a gap or an announced version over REST) holds
 * the board with the new column without reading anything over REST; versions step by one, a watcher
 * on another node than the admin's (with Redis) folds the same difference, and while the board is
 * frozen the difference is between frozen boards (the players' board gains the column and nothing
 * behind the freeze, staff hear the live board's versions). A rebuild a difference cannot carry
 * (a renamed challenge) is still announced (`{ gameId, version, refetch: true }`) and read over REST.
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
  /** REST reads after the first one (gaps and announcements). */
  reads = 0
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
          this.reads++
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

/** The opening's push: a difference from `base` adding exactly these challenges. */
const opening = (update: ScoreboardUpdate | undefined) => (update && 'delta' in update ? update : undefined)
const addedIds = (update: ScoreboardUpdate | undefined) => (opening(update)?.delta.added ?? []).map((a) => a.challenge.id)

/** A running game with one player (who solved its challenge when `solved`), watched by an anonymous socket and a screen following its board. */
async function watchedGame(solved: boolean) {
  const game: Game = await createGame(server, { practiceMode: false })
  const web = await createChallenge(server, game, { title: 'SQLi', tag: 'Web' })
  const a = await createPlayer(server, game)
  await createInstances(server, [a.participation], [web])
  if (solved) await solve(a, game.id, web)
  await readBoard(server.client(), game.id) // the engine is warm
  const events: ReceivedEvent[] = []
  const socket = await connect(server, '/hub/user', { game: game.id, record: events })
  await joined(server, '/hub/user', socket, rooms.game(game.id))
  const screen = new Follower(server.client(), game.id)
  await screen.start()
  socket.on('ReceivedScoreboardUpdate', (u: ScoreboardUpdate) => screen.push(u))
  return { game, web, events, screen }
}

describe('opening a challenge while players watch a large board', () => {
  it('pushes the new column as a difference; a watcher folds it without a REST read, and the next difference follows it', async () => {
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

    // The watcher reaches a board with the new column by folding the pushed difference alone.
    await until(() => listed(screen.held.scoreboard, fresh.id))
    const pushed = boards(anonymous).find((u) => u.version === before + 1)
    expect(pushed).toMatchObject({ gameId: game.id, version: before + 1, base: before })
    expect(addedIds(pushed)).toEqual([fresh.id])
    expect(boards(anonymous).filter((u) => !('delta' in u))).toEqual([])
    expect(screen.outcomes).toContainEqual({ version: before + 1, kind: 'delta', outcome: 'applied' })
    expect(screen.reads).toBe(0)
    // Every row has the new challenge's (unsolved) cell; the folded board is the server's, divisions and ranks included.
    expect(screen.held.scoreboard!.items.every((row) => row.challenges.some((c) => c.id === fresh.id && c.type === 'Unaccepted'))).toBe(true)
    const rest = await readBoard(server.client(), game.id)
    expect(screen.held.version).toBe(rest.version)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless(rest.scoreboard))
    expect(rest.scoreboard.items.find((i) => i.id === a.team.id)).toMatchObject({ divisionId: students.id, divisionRank: 1 })
    // The player's socket got the same difference, and the NewChallenge notice after it.
    for (const events of [player, anonymous]) {
      const notice = await until(() => noticeAt(events))
      const board = events.findIndex((e) => e.event === 'ReceivedScoreboardUpdate' && addedIds(e.payload as ScoreboardUpdate).includes(fresh.id))
      expect(board).toBeGreaterThanOrEqual(0)
      expect(board).toBeLessThan(notice)
      // Every challenge update naming the new challenge comes after that board: a client that
      // folded the board knows the challenge and reads nothing before the notice (useGameLive.ts).
      const naming = events.flatMap((e, i) => (e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { id: number }[] }).challenges.some((c) => c.id === fresh.id) ? [i] : []))
      expect(naming.length).toBeGreaterThan(0)
      expect(naming.every((i) => i > board)).toBe(true)
    }

    // A solve of the new challenge: a difference based on the opening's version, folded without a gap.
    await solve(b, game.id, fresh) // the opening created every team's instance
    await until(() => screen.held.scoreboard?.items.find((i) => i.id === b.team.id)?.challenges.some((c) => c.id === fresh.id && c.type === 'FirstBlood'))
    const after = boards(anonymous).filter((u) => u.version > before + 1)
    expect(after.length).toBeGreaterThan(0)
    expect(after[0]).toMatchObject({ base: before + 1, version: before + 2 })
    expect(screen.outcomes.filter((o) => o.outcome !== 'applied')).toEqual([])
    expect(screen.reads).toBe(0)
    // Versions only ever step by one.
    const versions = boards(anonymous).map((u) => u.version).filter((v) => v > before)
    expect(versions).toEqual(versions.map((_, i) => before + 1 + i))
    const final = await readBoard(server.client(), game.id)
    await until(() => screen.held.version === final.version)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless(final.scoreboard))
  })

  it('a timed release is a difference too, before its NewChallenge notice', async () => {
    const { game, events, screen } = await watchedGame(false)
    const midnight = await createChallenge(server, game, { title: 'Midnight', tag: 'Misc', isEnabled: false, flags: ['flag{test}'] })
    const admin = await server.admin()
    const before = screen.held.version
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${midnight.id}`, { releaseTimeUtc: Date.now() + 2000 })).status).toBe(200)
    // The edit's own rebuild (a version without the challenge: an empty difference) goes first; then the release.
    await until(() => boards(events).find((u) => u.version > before))
    expect(listed(screen.held.scoreboard, midnight.id)).toBe(false)
    await until(() => listed(screen.held.scoreboard, midnight.id), 10_000)
    expect(boards(events).filter((u) => !('delta' in u))).toEqual([])
    expect(screen.reads).toBe(0)
    const notice = await until(() => noticeAt(events))
    const release = events.findIndex((e) => e.event === 'ReceivedScoreboardUpdate' && addedIds(e.payload as ScoreboardUpdate).includes(midnight.id))
    expect(release).toBeGreaterThanOrEqual(0)
    expect(release).toBeLessThan(notice)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless((await readBoard(server.client(), game.id)).scoreboard))
  })

  it('a rebuild a difference cannot carry (a renamed challenge) is still announced and read over REST', async () => {
    const { game, web, events, screen } = await watchedGame(true)
    const before = screen.held.version

    const admin = await server.admin()
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${web.id}`, { title: 'Blind SQLi' })).status).toBe(200)
    await until(() => Object.values(screen.held.scoreboard?.challenges ?? {}).flat().some((c) => c!.title === 'Blind SQLi'))
    expect(boards(events).find((u) => u.version === before + 1)).toEqual({ gameId: game.id, version: before + 1, refetch: true })
    expect(screen.outcomes).toContainEqual({ version: before + 1, kind: 'announced', outcome: 'fetch' })
    expect(screen.reads).toBeGreaterThan(0)
    expect(timeless(screen.held.scoreboard)).toEqual(timeless((await readBoard(server.client(), game.id)).scoreboard))
  })

  it.skipIf(!inject('redisUrl'))('a watcher on another node than the admin’s folds the same difference', async () => {
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
      expect(boards(there).filter((u) => !('delta' in u))).toEqual([])
      expect(boards(there).some((u) => addedIds(u).includes(fresh.id) && u.version === screen.held.version)).toBe(true)
      expect(screen.reads).toBe(0)
      // That node's REST answer converges on the same version and board.
      const rest = await until(async () => {
        const answer = await readBoard(sameSessionOn(second, server.client()), game.id)
        return answer.version >= screen.held.version && answer
      })
      expect(rest.version).toBe(screen.held.version)
      expect(timeless(screen.held.scoreboard)).toEqual(timeless(rest.scoreboard))
    } finally {
      await second.close()
    }
  })

  it('while the board is frozen, players fold a difference of the frozen boards: the new column and nothing behind the freeze; staff fold the live one', async () => {
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
    // The player's board: frozen, the new column, b's post-freeze solve nowhere; folded, not read.
    const frozen = screen.held.scoreboard!
    expect(frozen.frozen).toBe(true)
    expect(frozen.items.find((i) => i.id === b.team.id)).toMatchObject({ solvedCount: 0, score: 0 })
    expect(Object.values(frozen.challenges).flat().find((c) => c!.id === web.id)).toMatchObject({ solved: 1 })
    expect(screen.reads).toBe(0)
    expect(timeless(frozen)).toEqual(timeless((await readBoard(a.client, game.id)).scoreboard))
    // Nothing the player's socket heard tells it either: only the new column, no cell and no value behind the freeze.
    const heard = boards(player)
    expect(heard.length).toBeGreaterThan(0)
    for (const u of heard) {
      expect(opening(u)?.delta).toMatchObject({ items: [], challenges: [] })
      expect(addedIds(u)).toEqual([fresh.id])
    }
    expect(player.filter((e) => e.event === 'ReceivedChallengeUpdate' && (e.payload as { challenges: { solved: number }[] }).challenges.some((c) => c.solved > 1))).toEqual([])
    // Staff: the live board with both solves and the new column.
    expect(live.held.scoreboard!.live).toBe(true)
    expect(live.held.scoreboard!.items.find((i) => i.id === b.team.id)?.solvedCount).toBe(1)
    expect(screen.outcomes.filter((o) => o.outcome !== 'applied')).toEqual([])
  })
})
