/**
 * Game notices (docs/compatibility.md#group-edit): post, list (Normal only), edit and delete, with the
 * exact titles, and the players' notice cache flushed on every change (docs/compatibility.md#group-game-reading-and-joining).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GameNotice as GameNoticeModel } from '@flagwave/shared/schemas/games'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createGame, createNotice } from '../support/factories/games.js'
import { GameNotice } from '../../server/src/entities/GameNotice.js'
import { playerNotices } from '../../server/src/domain/notices/notices.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const noticeRow = (id: number) => em().findOne(GameNotice, { id })
const url = (gameId: number, noticeId?: number) => `/api/edit/games/${gameId}/notices${noticeId === undefined ? '' : `/${noticeId}`}`
const cached = (gameId: number) => playerNotices(em(), gameId)

async function expectError(res: { status: number; body: unknown }, status: number, title: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
}

describe('POST /api/edit/games/{id}/notices', () => {
  it('creates a Normal notice stamped now', async () => {
    const game = await createGame(server)
    const before = Date.now()
    const res = await admin.post(url(game.id), { content: '**Welcome** to the game' })
    expect(res.status).toBe(200)
    const notice = GameNoticeModel.parse(res.body)
    expect(notice).toEqual({ id: expect.any(Number), type: 'Normal', content: '**Welcome** to the game', time: expect.stringMatching(/\+00:00$/), values: ['**Welcome** to the game'] })
    expect(Date.parse(notice.time)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(notice.time)).toBeLessThanOrEqual(Date.now() + 1000)
    expect(await noticeRow(notice.id)).toMatchObject({ type: 'Normal', content: '**Welcome** to the game' })
  })

  it('rejects a missing or empty content and unknown games, creating nothing', async () => {
    const game = await createGame(server)
    await expectError(await admin.post(url(game.id), {}), 400, '内容是必需的')
    await expectError(await admin.post(url(game.id), { content: '' }), 400, '内容是必需的')
    await expectError(await admin.post(url(game.id), { content: null }), 400, '内容是必需的')
    await expectError(await admin.post(url(987654), { content: 'x' }), 404, '比赛未找到')
    expect(await em().count(GameNotice, { game: game.id })).toBe(0)
  })
})

describe('GET /api/edit/games/{id}/notices', () => {
  it('lists only the Normal notices of the game', async () => {
    const game = await createGame(server)
    const a = await createNotice(server, game, { content: 'first' })
    await createNotice(server, game, { type: 'FirstBlood', content: '恭喜 x 获得 「y」 的一血' })
    await createNotice(server, game, { type: 'NewChallenge', content: '新增了题目 「y」' })
    const b = await createNotice(server, game, { content: 'second' })
    await createNotice(server, await createGame(server), { content: 'other game' })
    const res = await admin.get(url(game.id))
    expect(res.status).toBe(200)
    const list = GameNoticeModel.array().parse(res.body)
    expect(list.map((n) => [n.id, n.type, n.content])).toEqual([
      [a.id, 'Normal', 'first'],
      [b.id, 'Normal', 'second'],
    ])
    await expectError(await admin.get(url(987654)), 404, '比赛未找到')
  })
})

describe('PUT /api/edit/games/{id}/notices/{noticeId}', () => {
  it('replaces the content and resets the time', async () => {
    const game = await createGame(server)
    const notice = await createNotice(server, game, { content: 'old', publishTime: new Date('2020-01-01T00:00:00Z') })
    const res = await admin.put(url(game.id, notice.id), { content: 'new' })
    expect(res.status).toBe(200)
    const body = GameNoticeModel.parse(res.body)
    expect(body).toMatchObject({ id: notice.id, type: 'Normal', content: 'new' })
    expect(Date.parse(body.time)).toBeGreaterThan(Date.parse('2021-01-01T00:00:00Z'))
    expect(await noticeRow(notice.id)).toMatchObject({ content: 'new' })
  })

  it('answers 通知未找到 for unknown notices and notices of another game, and refuses system notices', async () => {
    const game = await createGame(server)
    const other = await createGame(server)
    const foreign = await createNotice(server, other, { content: 'foreign' })
    const system = await createNotice(server, game, { type: 'NewHint', content: '「x」 更新了提示' })
    const normal = await createNotice(server, game, { content: 'keep' })
    await expectError(await admin.put(url(game.id, 987654), { content: 'x' }), 404, '通知未找到')
    await expectError(await admin.put(url(game.id, foreign.id), { content: 'x' }), 404, '通知未找到')
    // No separate game lookup: an unknown game also gives 通知未找到.
    await expectError(await admin.put(url(987654, normal.id), { content: 'x' }), 404, '通知未找到')
    await expectError(await admin.put(url(game.id, system.id), { content: 'x' }), 400, '不能更改系统通知')
    await expectError(await admin.put(url(game.id, normal.id), { content: '' }), 400, '内容是必需的')
    expect(await noticeRow(foreign.id)).toMatchObject({ content: 'foreign' })
    expect(await noticeRow(system.id)).toMatchObject({ content: '「x」 更新了提示' })
    expect(await noticeRow(normal.id)).toMatchObject({ content: 'keep' })
  })
})

describe('DELETE /api/edit/games/{id}/notices/{noticeId}', () => {
  it('deletes a Normal notice; refuses system notices; 通知未找到 otherwise', async () => {
    const game = await createGame(server)
    const other = await createGame(server)
    const normal = await createNotice(server, game)
    const system = await createNotice(server, game, { type: 'SecondBlood', content: '恭喜 t 获得 「c」 的二血' })
    const foreign = await createNotice(server, other)

    const res = await admin.delete(url(game.id, normal.id))
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await noticeRow(normal.id)).toBeNull()

    await expectError(await admin.delete(url(game.id, normal.id)), 404, '通知未找到')
    await expectError(await admin.delete(url(game.id, foreign.id)), 404, '通知未找到')
    await expectError(await admin.delete(url(game.id, system.id)), 400, '不能删除系统通知')
    expect(await noticeRow(system.id)).not.toBeNull()
    expect(await noticeRow(foreign.id)).not.toBeNull()
  })
})

describe("the players' notice cache", () => {
  it('lists Normal notices first, then system ones newest first, and is flushed by every edit', async () => {
    const game = await createGame(server)
    const t = (s: number) => new Date(Date.now() - s * 1000)
    await createNotice(server, game, { type: 'NewChallenge', content: 'older system', publishTime: t(50) })
    await createNotice(server, game, { type: 'FirstBlood', content: 'newer system', publishTime: t(40) })
    const normal = await createNotice(server, game, { content: 'normal', publishTime: t(60) })
    expect((await cached(game.id)).map((n) => n.content)).toEqual(['normal', 'newer system', 'older system'])

    const posted = (await admin.post(url(game.id), { content: 'posted' })).body
    expect((await cached(game.id)).map((n) => n.content)).toEqual(['posted', 'normal', 'newer system', 'older system'])
    await admin.put(url(game.id, normal.id), { content: 'edited' })
    expect((await cached(game.id)).map((n) => n.content)).toEqual(['edited', 'posted', 'newer system', 'older system'])
    await admin.delete(url(game.id, posted.id))
    expect((await cached(game.id)).map((n) => n.content)).toEqual(['edited', 'newer system', 'older system'])
  })
})
