/**
 * ReceivedGameNotice on the user hub (docs/realtime.md#user-hub-events) with real socket.io-client
 * connections: admin notices, NewChallenge and NewHint reach the watchers of that game's room at
 * once and nobody else; edits and deletions are not pushed. Score-changing challenge edits push
 * ReceivedChallengeUpdate.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { io, type Socket } from 'socket.io-client'
import type { ChallengeUpdate } from '@flagwave/shared/events'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { GameNotice as GameNoticeSchema } from '@flagwave/shared/schemas/games'
import { challengeScore } from '@flagwave/shared/scoring'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { createChallenge, createGame, createNotice } from '../support/factories/games.js'

let server: TestServer
let admin: ApiClient
let watcherCookie: string
const sockets: Socket[] = []

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  watcherCookie = (await createUser(server)).client.cookieHeader
})
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect()
})
afterAll(async () => {
  await server?.close()
})

interface Watcher {
  socket: Socket
  notices: { at: number; notice: GameNotice }[]
  updates: ChallengeUpdate[]
  /** Resolves with the next notice (or rejects after `ms`). */
  nextNotice(ms?: number): Promise<{ at: number; notice: GameNotice }>
}

/** A signed-in user watching a game on the user hub, recording what it receives. */
async function watch(gameId: number, cookie = watcherCookie): Promise<Watcher> {
  const socket = io(`${server.url}/hub/user`, {
    path: '/socket.io',
    transports: ['websocket'],
    query: { game: String(gameId) },
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
  })
  sockets.push(socket)
  const notices: Watcher['notices'] = []
  const updates: ChallengeUpdate[] = []
  const waiters: ((n: { at: number; notice: GameNotice }) => void)[] = []
  socket.on('ReceivedGameNotice', (notice: GameNotice) => {
    const item = { at: performance.now(), notice }
    notices.push(item)
    waiters.shift()?.(item)
  })
  socket.on('ReceivedChallengeUpdate', (u: ChallengeUpdate) => updates.push(u))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  // The server joins the game room after an asynchronous access check: wait until a probe arrives.
  await settle(socket)
  return {
    socket,
    notices,
    updates,
    nextNotice: (ms = 2000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ReceivedGameNotice')), ms)
        waiters.push((n) => {
          clearTimeout(timer)
          resolve(n)
        })
      }),
  }
}

/** Give the server a moment to finish the connection handler (room joins) and check the socket stayed. */
async function settle(socket: Socket): Promise<void> {
  await new Promise((r) => setTimeout(r, 150))
  expect(socket.connected).toBe(true)
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('ReceivedGameNotice', () => {
  it('reaches a watcher of the game within 100 ms of the response, and not a watcher of another game', async () => {
    const game = await createGame(server)
    const other = await createGame(server)
    const watcher = await watch(game.id)
    const bystander = await watch(other.id)

    const next = watcher.nextNotice()
    const res = await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Round two starts now' })
    const answeredAt = performance.now()
    expect(res.status).toBe(200)
    const { at, notice } = await next
    expect(at - answeredAt).toBeLessThan(100)
    expect(GameNoticeSchema.parse(notice)).toEqual(res.body)
    expect(notice).toMatchObject({ type: 'Normal', content: 'Round two starts now' })

    await pause(300)
    expect(bystander.notices).toEqual([])
    expect(watcher.notices).toHaveLength(1)
  })

  it('is not pushed for edits and deletions', async () => {
    const game = await createGame(server)
    const notice = await createNotice(server, game, { content: 'before' })
    const watcher = await watch(game.id)
    expect((await admin.put(`/api/edit/games/${game.id}/notices/${notice.id}`, { content: 'after' })).status).toBe(200)
    expect((await admin.delete(`/api/edit/games/${game.id}/notices/${notice.id}`)).status).toBe(200)
    await pause(300)
    expect(watcher.notices).toEqual([])
  })

  it('pushes NewChallenge (and the new score) when a challenge is enabled in a running game', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Baby Pwn', isEnabled: false, originalScore: 300 })
    const watcher = await watch(game.id)
    const bystander = await watch((await createGame(server)).id)

    const next = watcher.nextNotice()
    const res = await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { isEnabled: true })
    const answeredAt = performance.now()
    expect(res.status).toBe(200)
    const { at, notice } = await next
    expect(at - answeredAt).toBeLessThan(100)
    expect(notice).toMatchObject({ type: 'NewChallenge', content: '新增了题目 「Baby Pwn」' })

    await pause(200)
    expect(watcher.updates).toEqual([{ gameId: game.id, challenges: [{ id: challenge.id, score: 300, solved: 0, bloods: [] }] }])
    expect(bystander.notices).toEqual([])
    expect(bystander.updates).toEqual([])
  })

  it('a disabled challenge leaks no title: NewChallenge once per enabling, withdrawn (with its NewHint) on disabling, over HTTP and the socket', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Secret Stage', isEnabled: false, hints: ['h1'] })
    const watcher = await watch(game.id)
    const reader = (await createUser(server)).client
    const titles = async () => {
      const res = await reader.get(`/api/game/${game.id}/notices`)
      expect(res.status).toBe(200)
      return (res.body as GameNotice[]).filter((n) => n.type !== 'Normal').map((n) => `${n.type}:${n.content}`)
    }
    const put = async (body: object) => expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, body)).status).toBe(200)

    // Saving a disabled challenge announces nothing.
    await put({ title: 'Secret Stage', content: 'x' })
    await put({ isEnabled: true })
    await put({ hints: ['h1', 'h2'] })
    // Saving an enabled challenge with isEnabled: true again is no news.
    await put({ isEnabled: true, content: 'y' })
    await pause(300)
    expect(watcher.notices.map((n) => n.notice.type)).toEqual(['NewChallenge', 'NewHint'])
    expect(await titles()).toEqual(['NewHint:「Secret Stage」 更新了提示', 'NewChallenge:新增了题目 「Secret Stage」'])

    // Disabled: the notices naming it are gone for players, and nothing is pushed.
    await put({ isEnabled: false })
    expect(await titles()).toEqual([])
    const late = await watch(game.id)
    await pause(300)
    expect(watcher.notices).toHaveLength(2)
    expect(late.notices).toEqual([])
    // The admin's hint edit of the disabled challenge announces nothing either.
    await put({ hints: ['h3'] })
    await pause(200)
    expect(late.notices).toEqual([])
    expect(await titles()).toEqual([])

    // Enabled again: announced anew, once.
    const next = late.nextNotice()
    await put({ isEnabled: true })
    expect((await next).notice).toMatchObject({ type: 'NewChallenge', content: '新增了题目 「Secret Stage」' })
    expect(await titles()).toEqual(['NewChallenge:新增了题目 「Secret Stage」'])
  })

  it('pushes NewHint when the hints of an enabled challenge change in a running game', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Crypto 1', hints: ['old hint'] })
    const watcher = await watch(game.id)
    const next = watcher.nextNotice()
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { hints: ['old hint', 'try XOR'] })).status).toBe(200)
    expect((await next).notice).toMatchObject({ type: 'NewHint', content: '「Crypto 1」 更新了提示' })
    // Neither hints nor scoring changed: nothing more.
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { hints: ['try XOR', 'old hint'], content: 'text' })).status).toBe(200)
    await pause(300)
    expect(watcher.notices).toHaveLength(1)
    expect(watcher.updates).toEqual([])
  })

  it('pushes ReceivedChallengeUpdate when a score parameter changes', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { acceptedCount: 4 })
    const watcher = await watch(game.id)
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { originalScore: 1000, minScoreRate: 0.5 })).status).toBe(200)
    await pause(300)
    expect(watcher.updates).toEqual([{ gameId: game.id, challenges: [{ id: challenge.id, score: challengeScore(1000, 0.5, 5, 4), solved: 4, bloods: [] }] }])
    expect(watcher.notices).toEqual([])
  })
})
