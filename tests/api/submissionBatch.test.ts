/**
 * Submissions accepted together (docs/performance.md#flag-submission): calls made while earlier
 * accepts are in flight share one statement. Each must still get its own row and id, each row
 * the answer, team and user its call sent, and each refusal the route's own answer, whatever its
 * neighbours in the statement did — against PostgreSQL, over HTTP and through the accept itself
 * (which is what the fast path and the route call).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { acceptSubmission, type SubmissionInput } from '../../server/src/domain/submissions/accept.js'
import { nativePool } from '../../server/src/db/pg.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { countRows, createChallenge, createGame } from '../support/factories/games.js'
import { createInstance, createPlayer, queueDrained, submitPath, type Player } from '../support/factories/play.js'

let server: TestServer
let game: Game
let challenge: Challenge
let players: Record<'alice' | 'bob' | 'carol' | 'dave', Player>

const behindTheCache = (sql: string, params: unknown[]) => server.services.orm.em.fork().getConnection().execute(sql, params)
const rowsOf = (participationId: number) =>
  server.services.orm.em
    .fork()
    .getConnection()
    .execute<{ id: number; answer: string; user_id: string; status: string }[]>('select id, answer, user_id, status from submissions where participation_id = ? order by id', [participationId])

beforeAll(async () => {
  server = await startTestServer()
  game = await createGame(server, { practiceMode: false })
  challenge = await createChallenge(server, game, { title: 'Batched', flags: ['flag{batched}'] })
  const [alice, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(() => createPlayer(server, game)))
  players = { alice: alice!, bob: bob!, carol: carol!, dave: dave! }
  for (const p of Object.values(players)) await createInstance(server, p.participation, challenge)
})
afterAll(async () => {
  await server?.close()
})

describe('accepts sharing a statement', () => {
  it('give every call its own row, and every refusal its own answer, over HTTP', async () => {
    const { alice, bob, carol, dave } = players
    // Two teams the node's cache still admits, refused by the rows themselves.
    await behindTheCache(`update participations set status = 'Suspended' where id = ?`, [carol.participation.id])
    await behindTheCache('delete from registrations where participation_id = ?', [dave.participation.id])

    const calls = Array.from({ length: 80 }, (_, i) => {
      const player = [alice, bob, carol, dave][i % 4]!
      const flag = player === bob && i % 8 === 1 ? 'flag{batched}' : `flag{wrong-${i}}`
      return { player, flag }
    })
    const answers = await Promise.all(calls.map((c) => c.player.client.post(submitPath(game.id, challenge.id), { flag: c.flag })))

    for (const [i, c] of calls.entries()) {
      const answer = { status: answers[i]!.status, body: answers[i]!.body }
      if (c.player === carol) expect(answer).toEqual({ status: 400, body: { title: '您的参赛申请尚未通过或被禁赛', status: 400 } })
      else if (c.player === dave) expect(answer).toEqual({ status: 400, body: { title: '您尚未参赛', status: 400 } })
      else expect(answer).toMatchObject({ status: 200, body: expect.any(Number) })
    }
    // Each id names the row its call sent: its team, its user, its answer.
    for (const p of [alice, bob]) {
      const sent = calls.flatMap((c, i) => (c.player === p ? [{ id: answers[i]!.body as number, answer: c.flag, user_id: p.user.id }] : []))
      const rows = await rowsOf(p.participation.id)
      expect(rows.map(({ id, answer, user_id }) => ({ id, answer, user_id }))).toEqual([...sent].sort((a, b) => a.id - b.id))
    }
    expect(await countRows(server, 'submissions', 'participation_id in (?, ?)', [carol.participation.id, dave.participation.id])).toBe(0)

    // Every row is settled once: the right flags accepted, one solve counted.
    await queueDrained(server)
    const bobs = await rowsOf(bob.participation.id)
    expect(bobs.filter((r) => r.status === 'Accepted').map((r) => r.answer)).toEqual(Array(bobs.filter((r) => r.answer === 'flag{batched}').length).fill('flag{batched}'))
    expect((await rowsOf(alice.participation.id)).every((r) => r.status === 'WrongAnswer')).toBe(true)
    const counter = await server.services.orm.em.fork().getConnection().execute<{ accepted_count: number }[]>('select accepted_count from challenges where id = ?', [challenge.id])
    expect(counter[0]!.accepted_count).toBe(1)
  })

  it('answer each call of one statement from its own rows, through the accept itself', async () => {
    // Made in one tick: the first two leave alone, the other 58 wait and leave together.
    const { alice, carol } = players
    const pool = await nativePool(server.services.orm)
    const input = (p: Player, i: number): SubmissionInput => ({
      gameId: game.id,
      challengeId: challenge.id,
      participationId: p.participation.id,
      userId: p.user.id,
      answer: `flag{direct-${i}}`,
      time: new Date(),
      ip: '127.0.0.1',
    })
    const before = await rowsOf(alice.participation.id)
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => acceptSubmission(pool, input(i % 3 === 2 ? carol : alice, i), false)))

    const ids = results.flatMap((r, i) => (i % 3 === 2 ? [] : [r.status === 'fulfilled' ? r.value : -1]))
    expect(ids).toHaveLength(40)
    expect(new Set(ids).size).toBe(40)
    for (const [i, r] of results.entries()) {
      if (i % 3 === 2) expect(r).toMatchObject({ status: 'rejected', reason: { status: 400, message: '您的参赛申请尚未通过或被禁赛' } })
    }
    const added = (await rowsOf(alice.participation.id)).filter((r) => !before.some((b) => b.id === r.id))
    expect(added.map((r) => ({ id: r.id, answer: r.answer }))).toEqual(
      results.flatMap((r, i) => (i % 3 === 2 ? [] : [{ id: (r as PromiseFulfilledResult<number>).value, answer: `flag{direct-${i}}` }])).sort((a, b) => a.id - b.id),
    )
  })

  it('an attempt limit the cache has not heard of is not outrun by a shared statement', async () => {
    const { alice } = players
    const limited = await createChallenge(server, game, { title: 'Batched and limited', flags: ['flag{l}'] })
    await createInstance(server, alice.participation, limited)
    await behindTheCache('update challenges set submission_limit = 3 where id = ?', [limited.id])
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => alice.client.post(submitPath(game.id, limited.id), { flag: `x${i}` })))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3)
    for (const a of answers.filter((x) => x.status !== 200)) expect({ status: a.status, body: a.body }).toEqual({ status: 400, body: { title: '提交次数已达上限', status: 400 } })
    expect(await countRows(server, 'submissions', 'participation_id = ? and challenge_id = ?', [alice.participation.id, limited.id])).toBe(3)
  })
})
