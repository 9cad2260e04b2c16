/**
 * The challenge rules (docs/challenge-rules.md) over HTTP on two nodes of one database: timed
 * release (closed until its time, then opened once by one node's scheduler, with one NewChallenge
 * notice), per-challenge deadlines, and attempt limits that hold under concurrent submissions to
 * both nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game } from '../../server/src/entities/Game.js'
import type { RunningServer } from '../../server/src/server.js'
import type { ChallengeInfo } from '../../shared/src/schemas/scoreboard.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { GamePermission } from '@flagwave/shared/enums'
import { peekGame, peekRegistration } from '../../server/src/domain/play/gate.js'
import type { ApiClient } from '../support/client.js'
import { countRows, createChallenge, createGame } from '../support/factories/games.js'
import { createInstance, createPlayer, isolateIds, sameSessionOn, settled, startSecondNode, submitPath, type Player } from '../support/factories/play.js'

let server: TestServer
let second: RunningServer & { dataDir: string }
let game: Game
let admin: ApiClient
let alice: Player
let bob: Player

const editPath = (challengeId: number) => `/api/edit/games/${game.id}/challenges/${challengeId}`
const boardChallenges = (body: unknown): ChallengeInfo[] => Object.values((body as { challenges: Record<string, ChallengeInfo[]> }).challenges).flat()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  server = await startTestServer({ env: { CHALLENGE_RELEASE_POLL_MS: '200' } })
  await isolateIds(server)
  second = await startSecondNode(server)
  game = await createGame(server, { practiceMode: false })
  admin = await server.admin()
  alice = await createPlayer(server, game)
  bob = await createPlayer(server, game)
})
afterAll(async () => {
  await second?.close()
  await server?.close()
})

describe('attempt limits', () => {
  it('accepts exactly `limit` submissions of a team under concurrent submissions to two nodes', async () => {
    const challenge = await createChallenge(server, game, { title: 'Limited', flags: ['flag{limited}'] })
    for (const p of [alice, bob]) await createInstance(server, p.participation, challenge)
    const set = await admin.put(editPath(challenge.id), { submissionLimit: 5 })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ submissionLimit: 5 })

    const there = sameSessionOn(second, alice.client)
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? there : alice.client).post(submitPath(game.id, challenge.id), { flag: `flag{wrong-${i}}` })),
    )
    const accepted = results.filter((r) => r.status === 200)
    const refused = results.filter((r) => r.status !== 200)
    expect(accepted).toHaveLength(5)
    for (const r of refused) expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { title: '提交次数已达上限', status: 400 } })
    expect(await countRows(server, 'submissions', 'participation_id = ? and challenge_id = ?', [alice.participation.id, challenge.id])).toBe(5)

    // The count is per team: another team still has all of its attempts.
    expect((await bob.client.post(submitPath(game.id, challenge.id), { flag: 'flag{limited}' })).status).toBe(200)
    const detail = await alice.client.get(submitPath(game.id, challenge.id))
    expect(detail.body).toMatchObject({ limit: 5, attempts: 5 })
    expect((await bob.client.get(submitPath(game.id, challenge.id))).body).toMatchObject({ limit: 5, attempts: 1 })

    // Raising the limit gives the team more attempts; 0 lifts it.
    await admin.put(editPath(challenge.id), { submissionLimit: 6 })
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'x' })).status).toBe(200)
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'x' })).status).toBe(400)
    await admin.put(editPath(challenge.id), { submissionLimit: 0 })
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'x' })).status).toBe(200)
    expect((await alice.client.get(submitPath(game.id, challenge.id))).body).toMatchObject({ limit: 0, attempts: 7 })
  })

  it('refuses a limit out of range with the contract error shape', async () => {
    const challenge = await createChallenge(server, game, { title: 'Range' })
    expect(await admin.put(editPath(challenge.id), { submissionLimit: -1 })).toMatchObject({ status: 400, body: { title: '提交次数限制必须介于 0 - 10000', status: 400 } })
    expect(await admin.put(editPath(challenge.id), { submissionLimit: 1e9 })).toMatchObject({ status: 400 })
  })
})

describe('deadlines', () => {
  it('takes submissions until the deadline and refuses them after it; the board and the detail show it', async () => {
    const challenge = await createChallenge(server, game, { title: 'Due', flags: ['flag{due}'] })
    await createInstance(server, alice.participation, challenge)
    const deadline = Date.now() + 1500
    const set = await admin.put(editPath(challenge.id), { deadlineUtc: deadline })
    expect(Date.parse((set.body as { deadlineUtc: string }).deadlineUtc)).toBe(deadline)
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'flag{nope}' })).status).toBe(200)
    const detail = await alice.client.get(submitPath(game.id, challenge.id))
    expect(Date.parse((detail.body as { deadline: string }).deadline)).toBe(deadline)
    // The edit asks the engine's owner (maybe the other node) to rebuild: the board shows it once that is done.
    const onBoard = async () => boardChallenges((await alice.client.get(`/api/game/${game.id}/details`)).body).find((c) => c.id === challenge.id)?.deadline
    await expect.poll(async () => Date.parse((await onBoard()) ?? ''), { timeout: 3000, interval: 25 }).toBe(deadline)

    await sleep(deadline - Date.now() + 50)
    for (const client of [alice.client, sameSessionOn(second, alice.client)]) {
      const late = await client.post(submitPath(game.id, challenge.id), { flag: 'flag{due}' })
      expect({ status: late.status, body: late.body }).toEqual({ status: 400, body: { title: '题目已截止提交', status: 400 } })
    }
    // Cleared (null), it takes submissions again.
    expect((await admin.put(editPath(challenge.id), { deadlineUtc: null })).body).toMatchObject({ deadlineUtc: null })
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'flag{due}' })).status).toBe(200)
  })
})

describe('timed release', () => {
  it('keeps a scheduled challenge closed until its time, then opens it once, on every node, with one NewChallenge notice', async () => {
    const challenge = await createChallenge(server, game, { title: 'Later', isEnabled: false, flags: ['flag{later}'] })
    const releaseAt = Date.now() + 2500
    // Enabling it beside a future opening time is a contradiction.
    expect(await admin.put(editPath(challenge.id), { isEnabled: true, releaseTimeUtc: releaseAt })).toMatchObject({
      status: 400,
      body: { title: '定时开放的题目在开放前不可启用', status: 400 },
    })
    const set = await admin.put(editPath(challenge.id), { releaseTimeUtc: releaseAt })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ isEnabled: false })
    expect(Date.parse((set.body as { releaseTimeUtc: string }).releaseTimeUtc)).toBe(releaseAt)
    // Staff see it in the editor's list with its opening time.
    const list = (await admin.get(`/api/edit/games/${game.id}/challenges`)).body as { id: number; releaseTimeUtc: string | null; isEnabled: boolean }[]
    expect(list.find((c) => c.id === challenge.id)).toMatchObject({ isEnabled: false, releaseTimeUtc: expect.any(String) })

    // Before it: not on the player's board (either node), not on the anonymous board, not openable, not submittable.
    const there = sameSessionOn(second, alice.client)
    const listed = async (client: ApiClient) => boardChallenges((await client.get(`/api/game/${game.id}/details`)).body).some((c) => c.id === challenge.id)
    expect(await listed(alice.client)).toBe(false)
    expect(await listed(there)).toBe(false)
    expect(boardChallenges((await server.client().get(`/api/game/${game.id}/scoreboard`)).body).some((c) => c.id === challenge.id)).toBe(false)
    expect((await alice.client.get(submitPath(game.id, challenge.id))).status).toBe(404)
    expect(await alice.client.post(submitPath(game.id, challenge.id), { flag: 'flag{later}' })).toMatchObject({ status: 404, body: { title: '题目未找到', status: 404 } })

    // At its time, by itself: listed on both nodes' boards and the anonymous one.
    let openedAt = 0
    while (Date.now() < releaseAt + 5000) {
      if (await listed(there)) {
        openedAt = Date.now()
        break
      }
      await sleep(50)
    }
    expect(openedAt).toBeGreaterThanOrEqual(releaseAt)
    expect(await listed(alice.client)).toBe(true)
    await expect.poll(async () => boardChallenges((await server.client().get(`/api/game/${game.id}/scoreboard`)).body).some((c) => c.id === challenge.id)).toBe(true)
    expect((await alice.client.get(submitPath(game.id, challenge.id))).status).toBe(200)
    expect((await alice.client.post(submitPath(game.id, challenge.id), { flag: 'flag{later}' })).status).toBe(200)
    // Both nodes run the scheduler: exactly one opening, one notice.
    await sleep(500)
    expect(await countRows(server, 'notices', `game_id = ? and type = 'NewChallenge' and challenge_id = ?`, [game.id, challenge.id])).toBe(1)
    const after = (await admin.get(editPath(challenge.id))).body as { isEnabled: boolean; releaseTimeUtc: string }
    expect(after.isEnabled).toBe(true)
    expect(Date.parse(after.releaseTimeUtc)).toBe(releaseAt)

    // Disabled by hand, it forgets its opening time and stays closed.
    expect((await admin.put(editPath(challenge.id), { isEnabled: false })).body).toMatchObject({ isEnabled: false, releaseTimeUtc: null })
    await sleep(600)
    expect((await admin.get(editPath(challenge.id))).body).toMatchObject({ isEnabled: false })
  })

  it('opens early when enabled by hand, and refuses to schedule a challenge without flags', async () => {
    const early = await createChallenge(server, game, { title: 'Early', isEnabled: false })
    await admin.put(editPath(early.id), { releaseTimeUtc: Date.now() + 3600_000 })
    const opened = await admin.put(editPath(early.id), { isEnabled: true })
    expect(opened.body).toMatchObject({ isEnabled: true })
    expect(Date.parse((opened.body as { releaseTimeUtc: string }).releaseTimeUtc)).toBeLessThanOrEqual(Date.now())

    const empty = await createChallenge(server, game, { title: 'Empty', isEnabled: false, flags: [] })
    expect(await admin.put(editPath(empty.id), { releaseTimeUtc: Date.now() + 3600_000 })).toMatchObject({ status: 400, body: { title: '题目无 flag，不可启用', status: 400 } })
    // Clearing a schedule leaves it closed.
    const later = await createChallenge(server, game, { title: 'Unscheduled', isEnabled: false })
    await admin.put(editPath(later.id), { releaseTimeUtc: Date.now() + 3600_000 })
    expect((await admin.put(editPath(later.id), { releaseTimeUtc: null })).body).toMatchObject({ isEnabled: false, releaseTimeUtc: null })
  })
})

describe('rules checked again inside the INSERT (docs/scoring.md#submission-queue)', () => {
  /*
   * A write committed on another node drops this node's cached rows only when its NOTIFY arrives.
   * Written here in raw SQL, which notifies nothing, the cache keeps the old rows for the whole
   * case: the route's checks on them pass, and only the statement that inserts can refuse.
   */
  const behindTheCache = (sql: string, params: unknown[]) => server.services.orm.em.fork().getConnection().execute(sql, params)
  const sub = (p: Player, challengeId: number, g = game) => p.client.post(submitPath(g.id, challengeId), { flag: 'flag{nope}' })

  interface Case {
    name: string
    /** The write the cache has not heard of. */
    change: (ids: { game: number; challenge: number; other: number; participation: number; division: number }) => Promise<unknown>
    answer: { status: number; title: string }
  }
  const cases: Case[] = [
    { name: 'suspended participation', change: ({ participation }) => behindTheCache(`update participations set status = 'Suspended' where id = ?`, [participation]), answer: { status: 400, title: '您的参赛申请尚未通过或被禁赛' } },
    { name: 'registration removed', change: ({ participation }) => behindTheCache('delete from registrations where participation_id = ?', [participation]), answer: { status: 400, title: '您尚未参赛' } },
    { name: 'game ended', change: ({ game }) => behindTheCache(`update games set "end" = now() - interval '1 second' where id = ?`, [game]), answer: { status: 400, title: '比赛已结束' } },
    { name: 'deadline passed', change: ({ challenge }) => behindTheCache(`update challenges set deadline_utc = now() - interval '1 second' where id = ?`, [challenge]), answer: { status: 400, title: '题目已截止提交' } },
    {
      name: 'closed until a later opening time',
      change: ({ challenge }) => behindTheCache(`update challenges set is_enabled = false, release_time_utc = now() + interval '1 hour' where id = ?`, [challenge]),
      answer: { status: 404, title: '题目未找到' },
    },
    { name: 'division may not view', change: ({ division }) => behindTheCache('update divisions set default_permissions = 0 where id = ?', [division]), answer: { status: 404, title: '题目未找到' } },
    {
      name: 'division may view, not submit',
      change: ({ division }) => behindTheCache('update divisions set default_permissions = ? where id = ?', [GamePermission.ViewChallenge, division]),
      answer: { status: 403, title: '你所在的分组无法提交此题' },
    },
    {
      name: 'a prerequisite added',
      change: ({ challenge, other }) => behindTheCache('update challenges set prerequisites = ?::jsonb where id = ?', [JSON.stringify([other]), challenge]),
      answer: { status: 403, title: '需要先解出前置题目' },
    },
    { name: 'a limit already used', change: ({ challenge }) => behindTheCache('update challenges set submission_limit = 1 where id = ?', [challenge]), answer: { status: 400, title: '提交次数已达上限' } },
  ]

  it.each(cases)('$name: refused with the route’s answer, nothing inserted', async ({ change, answer }) => {
    const g = await createGame(server, { practiceMode: false, organizations: ['Division'] })
    const player = await createPlayer(server, g, { organization: 'Division' })
    const challenge = await createChallenge(server, g, { title: 'Guarded' })
    // Unsolved by the team: a prerequisite to add (created first, its creation drops the game's cached challenges).
    const other = await createChallenge(server, g, { title: 'Other' })
    // Warm the cached rows with a first submission, and let its verdict settle: what the checkers'
    // commit invalidates is then over before the write behind the cache. Should anything else have
    // dropped a row meanwhile, the challenge's page warms it again, still before that write.
    const first = await sub(player, challenge.id, g)
    expect(first.status).toBe(200)
    await settled(player.client, g.id, challenge.id, first.body as number)
    const cache = server.services.readCache
    const cached = () => [peekGame(cache, g.id), peekRegistration(cache, g.id, player.user.id), cache.peek(`gate:challenge:${g.id}:${challenge.id}`)]
    for (let i = 0; i < 5 && !cached().every((row) => row !== undefined && row !== null); i++) {
      expect((await player.client.get(`/api/game/${g.id}/challenges/${challenge.id}`)).status).toBe(200)
    }
    expect(cached().every((row) => row !== undefined && row !== null)).toBe(true)
    const division = (player.participation.division as { id: number }).id
    await change({ game: g.id, challenge: challenge.id, other: other.id, participation: player.participation.id, division })

    const refused = await sub(player, challenge.id, g)
    expect({ status: refused.status, title: (refused.body as { title: string }).title }).toEqual(answer)
    expect(await countRows(server, 'submissions', 'participation_id = ? and challenge_id = ?', [player.participation.id, challenge.id])).toBe(1)
    // The cache had not heard of the write: the statement refused, not the route's checks.
    expect(cached().every((row) => row !== undefined && row !== null)).toBe(true)
  })

  it('a limit the cache does not know yet is counted under the lock', async () => {
    const challenge = await createChallenge(server, game, { title: 'Newly limited' })
    expect((await sub(bob, challenge.id)).status).toBe(200)
    await behindTheCache('update challenges set submission_limit = 2 where id = ?', [challenge.id])
    expect((await sub(bob, challenge.id)).status).toBe(200)
    expect(await sub(bob, challenge.id)).toMatchObject({ status: 400, body: { title: '提交次数已达上限', status: 400 } })
    expect(await countRows(server, 'submissions', 'participation_id = ? and challenge_id = ?', [bob.participation.id, challenge.id])).toBe(2)
  })
})

describe('archive and clone', () => {
  it('carry the limit, the deadline and an opening time still ahead', async () => {
    const source = await createGame(server, { practiceMode: false })
    const scheduled = await createChallenge(server, source, { title: 'Ahead', isEnabled: false })
    const releaseAt = Date.now() + 3600_000
    const deadline = Date.now() + 7200_000
    expect((await admin.put(`/api/edit/games/${source.id}/challenges/${scheduled.id}`, { releaseTimeUtc: releaseAt, deadlineUtc: deadline, submissionLimit: 4 })).status).toBe(200)
    const copy = await admin.post(`/api/edit/games/${source.id}/clone`)
    expect(copy.status).toBe(200)
    const list = (await admin.get(`/api/edit/games/${(copy.body as { id: number }).id}/challenges`)).body as { title: string; releaseTimeUtc: string; deadlineUtc: string; submissionLimit: number; isEnabled: boolean }[]
    const cloned = list.find((c) => c.title === 'Ahead')!
    expect(cloned).toMatchObject({ submissionLimit: 4, isEnabled: false })
    expect(Date.parse(cloned.releaseTimeUtc)).toBe(releaseAt)
    expect(Date.parse(cloned.deadlineUtc)).toBe(deadline)
  })
})
