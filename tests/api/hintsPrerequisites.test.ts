/**
 * Costed hints and prerequisites (docs/challenge-rules.md): the editor's routes, unlocking a hint
 * (one deduction under concurrent clicks, only for the caller's own team, refused to strangers,
 * banned users, pending teams, after the end), the deduction on the board, and prerequisites (edit
 * rules, the locked board entry, refused detail, containers and submissions, unlocked by a solve).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { GameDetailModel } from '@flagwave/shared/schemas/games'
import { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { CostedHint, CostedHintState, PrerequisitesModel } from '@flagwave/shared/schemas/challengeRules'
import { challengeScore } from '@flagwave/shared/scoring'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { servedBoard } from '../support/boards.js'
import type { ApiClient } from '../support/client.js'
import { countRows, createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, isolateIds, settled, submit, submitPath, type Player } from '../support/factories/play.js'
import { createUser, type TestUser } from '../support/factories/users.js'

let server: TestServer
/** Wait until the served board satisfies `ok`. */
const eventually = (gameId: number, ok: (board: ScoreboardModel) => boolean, timeoutMs?: number) => servedBoard(server, gameId, ok, timeoutMs)
let admin: ApiClient

const expectError = (res: { status: number; body: unknown }, status: number, title: string) => expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
const hintsPath = (gameId: number, cid: number) => `/api/edit/games/${gameId}/challenges/${cid}/hints`
const prerequisitesPath = (gameId: number, cid: number) => `/api/edit/games/${gameId}/challenges/${cid}/prerequisites`
const unlockPath = (gameId: number, cid: number, hintId: number) => `/api/game/${gameId}/challenges/${cid}/hints/${hintId}/unlock`

const rowOf = (board: ScoreboardModel, p: Player) => board.items.find((i) => i.id === p.team.id)

beforeAll(async () => {
  server = await startTestServer()
  await isolateIds(server)
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

describe('costed hints', () => {
  let game: Game
  let chal: Challenge
  let a: Player
  let b: Player
  let fixed: CostedHint
  let percent: CostedHint

  beforeAll(async () => {
    game = await createGame(server, { practiceMode: false })
    chal = await createChallenge(server, game, { originalScore: 400, hints: ['free one'] })
    a = await createPlayer(server, game)
    b = await createPlayer(server, game)
    await createInstances(server, [a.participation, b.participation], [chal])
  })

  it('the editor replaces the list; ids are kept, never reused, and checked', async () => {
    const res = await admin.put(hintsPath(game.id, chal.id), {
      hints: [
        { content: 'look at the headers', kind: 'Fixed', amount: 30 },
        { content: 'it is base64', kind: 'Percent', amount: 25 },
        { content: 'dropped later', kind: 'Fixed', amount: 1 },
      ],
    })
    expect(res.status).toBe(200)
    const list = res.body as CostedHint[]
    expect(list.map((h) => h.id)).toEqual([1, 2, 3])
    expect(list[0]!.freeAt).toBeNull()
    const kept = await admin.put(hintsPath(game.id, chal.id), { hints: list.slice(0, 2) })
    ;[fixed, percent] = kept.body as CostedHint[]
    expect((await admin.get(hintsPath(game.id, chal.id))).body).toEqual([fixed, percent])
    // A new hint gets the next id; ids a team paid for are never given again (below, after the unlocks).
    const more = await admin.put(hintsPath(game.id, chal.id), { hints: [fixed, percent, { content: 'x', kind: 'Fixed', amount: 5 }] })
    expect((more.body as CostedHint[])[2]!.id).toBe(3)
    await admin.put(hintsPath(game.id, chal.id), { hints: [fixed, percent] })

    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ id: 99, content: 'x', kind: 'Fixed', amount: 5 }] }), 400, '提示未找到')
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [fixed, fixed] }), 400, '提示编号重复')
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: 'x', kind: 'Percent', amount: 101 }] }), 400, '提示的扣分比例须在 1 - 100 之间')
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: 'x', kind: 'Free', amount: 1 }] }), 400, '提示的扣分方式无效')
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: '', kind: 'Fixed', amount: 1 }] }), 400, '提示内容是必需的')
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: 'x', kind: 'Fixed', amount: 0 }] }), 400, '提示的扣分无效')
    expectError(await admin.put(hintsPath(999_999, chal.id), { hints: [] }), 404, '比赛未找到')
  })

  it('lists the hints locked, without their content, with what they cost now', async () => {
    const detail = ChallengeDetailModel.parse((await a.client.get(submitPath(game.id, chal.id))).body)
    expect(detail.hints).toEqual(['free one'])
    expect(detail.costedHints).toEqual([
      { id: fixed.id, kind: 'Fixed', amount: 30, cost: 30, unlocked: false, content: null, freeAt: null },
      { id: percent.id, kind: 'Percent', amount: 25, cost: 100, unlocked: false, content: null, freeAt: null },
    ])
  })

  it('concurrent unlocks of one hint make one row and one deduction; the board shows it', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => a.client.post(unlockPath(game.id, chal.id, percent.id))))
    for (const res of answers) expect(res.status).toBe(200)
    expect(CostedHintState.array().parse(answers[0]!.body)[1]).toEqual({ id: percent.id, kind: 'Percent', amount: 25, cost: 100, unlocked: true, content: 'it is base64', freeAt: null })
    expect(await countRows(server, 'hint_unlocks', 'participation_id = ?', [a.participation.id])).toBe(1)
    const board = await eventually(game.id, (m) => rowOf(m, a)?.score === -100)
    expect(rowOf(board, a)).toMatchObject({ score: -100, hintPenalty: 100 })
    expect(rowOf(board, b)).toMatchObject({ score: 0, hintPenalty: 0 })

    // v0.17.6's hints: the free ones, then the unlocked costed ones.
    const detail = ChallengeDetailModel.parse((await a.client.get(submitPath(game.id, chal.id))).body)
    expect(detail.hints).toEqual(['free one', 'it is base64'])
    // The other team sees nothing of it.
    const other = ChallengeDetailModel.parse((await b.client.get(submitPath(game.id, chal.id))).body)
    expect(other.hints).toEqual(['free one'])
    expect(other.costedHints.every((h) => !h.unlocked && h.content === null)).toBe(true)
  })

  it('stays deducted after a solve; the percentage was fixed when unlocking', async () => {
    expect(await settled(a.client, game.id, chal.id, await submit(a.client, game.id, chal.id, 'flag{test}'))).toBe('Accepted')
    const board = await eventually(game.id, (m) => rowOf(m, a)?.solvedCount === 1)
    // 400 with one solve (first blood +5 %): 420, less the 100 paid.
    expect(rowOf(board, a)).toMatchObject({ score: 420 - 100, hintPenalty: 100 })
    // b unlocks the percentage hint at today's value: still 400 (one solver), 25 % = 100.
    const res = await b.client.post(unlockPath(game.id, chal.id, percent.id))
    expect((res.body as CostedHintState[])[1]!.cost).toBe(Math.floor((challengeScore(400, 0.25, 5, 1) * 25) / 100))
    const fixedRes = await b.client.post(unlockPath(game.id, chal.id, fixed.id))
    expect((fixedRes.body as CostedHintState[])[0]).toMatchObject({ unlocked: true, cost: 30, content: 'look at the headers' })
    await eventually(game.id, (m) => rowOf(m, b)?.score === -130)
    // Deleting both hints keeps the deductions; a new hint does not take a paid-for id.
    const replaced = await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: 'new', kind: 'Fixed', amount: 7 }] })
    expect((replaced.body as CostedHint[])[0]!.id).toBe(3)
    await admin.put(hintsPath(game.id, chal.id), { hints: [fixed, percent] })
    await eventually(game.id, (m) => rowOf(m, b)?.score === -130 && rowOf(m, a)?.score === 320)
  })

  it('refuses strangers, banned users, pending teams, unknown hints and ended games; nobody unlocks for another team', async () => {
    const stranger: TestUser = await createUser(server)
    expectError(await stranger.client.post(unlockPath(game.id, chal.id, fixed.id)), 400, '您尚未参赛')
    const banned = await createUser(server, { role: 'Banned' })
    expectError(await banned.client.post(unlockPath(game.id, chal.id, fixed.id)), 403, '无权访问')
    expect((await server.client().post(unlockPath(game.id, chal.id, fixed.id))).status).toBe(401)
    const pending = await createPlayer(server, game, { status: 'Pending' })
    expectError(await pending.client.post(unlockPath(game.id, chal.id, fixed.id)), 400, '您的参赛申请尚未通过或被禁赛')
    expectError(await a.client.post(unlockPath(game.id, chal.id, 999)), 404, '提示未找到')
    const foreign = await createChallenge(server, await createGame(server))
    expectError(await a.client.post(unlockPath(game.id, foreign.id, 1)), 404, '题目未找到')
    // The unlock is always the caller's own team: a's unlocks did not change with b's.
    expect(await countRows(server, 'hint_unlocks', 'participation_id = ?', [a.participation.id])).toBe(1)

    const ended = await createGame(server, { start: new Date(Date.now() - 7200_000), end: new Date(Date.now() - 3600_000), practiceMode: true })
    const old = await createChallenge(server, ended, { costedHints: [{ id: 1, content: 'c', kind: 'Fixed', amount: 1 }] })
    const late = await createPlayer(server, ended)
    await createInstances(server, [late.participation], [old])
    expectError(await late.client.post(unlockPath(ended.id, old.id, 1)), 400, '比赛已结束')
    expect(await countRows(server, 'hint_unlocks', 'game_id = ?', [ended.id])).toBe(0)
  })
})

describe('hints that become free at a time', () => {
  it('cost until their time; from then on every team sees them, and unlocking records nothing', async () => {
    const game = await createGame(server, { practiceMode: false })
    const chal = await createChallenge(server, game)
    const p = await createPlayer(server, game)
    await createInstances(server, [p.participation], [chal])
    const soon = new Date(Date.now() + 3600_000).toISOString()
    const past = new Date(Date.now() - 60_000).toISOString()
    const set = await admin.put(hintsPath(game.id, chal.id), {
      hints: [
        { content: 'later free', kind: 'Fixed', amount: 20, freeAt: soon },
        { content: 'already free', kind: 'Fixed', amount: 20, freeAt: past },
      ],
    })
    expect(set.status).toBe(200)
    expect(Date.parse((set.body as CostedHint[])[0]!.freeAt!)).toBe(Date.parse(soon))
    const detail = ChallengeDetailModel.parse((await p.client.get(submitPath(game.id, chal.id))).body)
    expect(detail.costedHints.map((h) => [h.cost, h.unlocked, h.content])).toEqual([
      [20, false, null],
      [0, true, 'already free'],
    ])
    expect(detail.hints).toEqual(['already free'])
    expect((await p.client.post(unlockPath(game.id, chal.id, 2))).status).toBe(200)
    expect(await countRows(server, 'hint_unlocks', 'participation_id = ?', [p.participation.id])).toBe(0)
    expectError(await admin.put(hintsPath(game.id, chal.id), { hints: [{ content: 'x', kind: 'Fixed', amount: 1, freeAt: 'tomorrow' }] }), 400, 'The JSON value could not be converted to System.DateTimeOffset.')
  })
})

describe('prerequisites', () => {
  let game: Game
  let first: Challenge
  let second: Challenge
  let third: Challenge
  let p: Player
  let q: Player

  beforeAll(async () => {
    game = await createGame(server, { practiceMode: false })
    first = await createChallenge(server, game, { title: 'First', flags: ['flag{one}'] })
    second = await createChallenge(server, game, { title: 'Second', flags: ['flag{two}'], costedHints: [{ id: 1, content: 'c', kind: 'Fixed', amount: 1 }] })
    third = await createChallenge(server, game, { title: 'Third', flags: ['flag{three}'] })
    p = await createPlayer(server, game)
    q = await createPlayer(server, game)
    await createInstances(server, [p.participation, q.participation], [first, second, third])
  })

  it('are challenges of the same game without cycles', async () => {
    const set = await admin.put(prerequisitesPath(game.id, second.id), { prerequisites: [first.id] })
    expect(PrerequisitesModel.parse(set.body)).toEqual({ prerequisites: [first.id], lockedTitleVisible: true })
    const hidden = await admin.put(prerequisitesPath(game.id, third.id), { prerequisites: [second.id, second.id], lockedTitleVisible: false })
    expect(hidden.body).toEqual({ prerequisites: [second.id], lockedTitleVisible: false })
    expect((await admin.get(prerequisitesPath(game.id, third.id))).body).toEqual({ prerequisites: [second.id], lockedTitleVisible: false })

    expectError(await admin.put(prerequisitesPath(game.id, first.id), { prerequisites: [third.id] }), 400, '前置题目不能成环')
    expectError(await admin.put(prerequisitesPath(game.id, first.id), { prerequisites: [first.id] }), 400, '题目不能以自己为前置')
    const foreign = await createChallenge(server, await createGame(server))
    expectError(await admin.put(prerequisitesPath(game.id, first.id), { prerequisites: [foreign.id] }), 400, '前置题目不属于本比赛')
    expectError(await admin.put(prerequisitesPath(game.id, first.id), { prerequisites: 'x' }), 400, '前置题目列表无效')
    expect((await admin.get(prerequisitesPath(game.id, first.id))).body).toEqual({ prerequisites: [], lockedTitleVisible: true })
  })

  it('lock the challenge for the team: shown locked on its board, detail, hints and submissions refused', async () => {
    const details = GameDetailModel.parse((await p.client.get(`/api/game/${game.id}/details`)).body)
    expect(details.lockedChallenges).toEqual([
      { id: second.id, requires: [{ id: first.id, title: 'First' }] },
      { id: third.id, requires: [{ id: second.id, title: 'Second' }] },
    ])
    const listed = Object.values(details.challenges).flat()
    expect(listed.find((c) => c!.id === second.id)!.title).toBe('Second')
    expect(listed.find((c) => c!.id === third.id)!.title).toBe('')

    expectError(await p.client.get(submitPath(game.id, second.id)), 403, '需要先解出前置题目')
    expectError(await p.client.post(submitPath(game.id, second.id), { flag: 'flag{two}' }), 403, '需要先解出前置题目')
    expectError(await p.client.post(unlockPath(game.id, second.id, 1)), 403, '需要先解出前置题目')
    expect(await countRows(server, 'submissions', 'participation_id = ?', [p.participation.id])).toBe(0)
    // The scoreboard lists them like any enabled challenge.
    const board = await eventually(game.id, () => true)
    expect(Object.values(board.challenges).flat().map((c) => c!.id).sort()).toEqual([first.id, second.id, third.id].sort())
  })

  it("a solve unlocks the next one for that team only", async () => {
    expect(await settled(p.client, game.id, first.id, await submit(p.client, game.id, first.id, 'flag{one}'))).toBe('Accepted')
    expect((await p.client.get(submitPath(game.id, second.id))).status).toBe(200)
    // Its hint unlocks now, too.
    expect((await p.client.post(unlockPath(game.id, second.id, 1))).status).toBe(200)
    expect(await settled(p.client, game.id, second.id, await submit(p.client, game.id, second.id, 'flag{two}'))).toBe('Accepted')
    await eventually(game.id, (m) => rowOf(m, p)?.solvedCount === 2)
    const details = GameDetailModel.parse((await p.client.get(`/api/game/${game.id}/details`)).body)
    expect(details.lockedChallenges).toEqual([])
    expect(Object.values(details.challenges).flat().find((c) => c!.id === third.id)!.title).toBe('Third')
    // q still has everything locked.
    expectError(await q.client.get(submitPath(game.id, second.id)), 403, '需要先解出前置题目')
    const theirs = GameDetailModel.parse((await q.client.get(`/api/game/${game.id}/details`)).body)
    expect(theirs.lockedChallenges.map((l) => l.id)).toEqual([second.id, third.id])
  })

  it('a disabled prerequisite does not lock; a deleted one is dropped from the lists', async () => {
    await admin.put(`/api/edit/games/${game.id}/challenges/${first.id}`, { isEnabled: false })
    expect((await q.client.get(submitPath(game.id, second.id))).status).toBe(200)
    expect((await admin.delete(`/api/edit/games/${game.id}/challenges/${first.id}`)).status).toBe(200)
    expect((await admin.get(prerequisitesPath(game.id, second.id))).body).toEqual({ prerequisites: [], lockedTitleVisible: true })
    expect((await admin.get(prerequisitesPath(game.id, third.id))).body).toEqual({ prerequisites: [second.id], lockedTitleVisible: false })
  })
})
