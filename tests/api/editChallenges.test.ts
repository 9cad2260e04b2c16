/**
 * Challenge administration (docs/compatibility.md#group-edit): challenges, their partial
 * update with its ordered error table and side effects, flags and attachments with their file
 * references, and the flag-template rules (docs/compatibility.md#dynamic-flags) through the API.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChallengeEditDetailModel, ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { challengeScore } from '@flagwave/shared/scoring'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import {
  blobExists,
  countRows,
  createChallenge,
  createGame,
  createParticipation,
  createStoredFile,
  dropReference,
  fileRow,
} from '../support/factories/games.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { Attachment } from '../../server/src/entities/Attachment.js'
import { Container } from '../../server/src/entities/Container.js'
import { GameNotice } from '../../server/src/entities/GameNotice.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { LocalFile } from '../../server/src/entities/LocalFile.js'
import type { Game } from '../../server/src/entities/Game.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const HOUR = 3600_000
/** A challenge without rules (docs/challenge-rules.md). */
const NO_RULES = { releaseTimeUtc: null, deadlineUtc: null, submissionLimit: 0 }
const em = () => server.services.orm.em.fork()
const challengeRow = (id: number) => em().findOne(Challenge, { id }, { populate: ['attachment'] })
const base = (game: Game | number, cId?: number) => `/api/edit/games/${typeof game === 'number' ? game : game.id}/challenges${cId === undefined ? '' : `/${cId}`}`

/** Ids of the attachments of a challenge and of its flags. */
async function attachmentIds(challengeId: number): Promise<number[]> {
  const rows = await em()
    .getConnection()
    .execute<{ id: number }[]>(
      `select attachment_id as id from challenges where id = ? and attachment_id is not null
       union select attachment_id from flags where challenge_id = ? and attachment_id is not null`,
      [challengeId, challengeId],
    )
  return rows.map((r) => r.id)
}

async function expectError(res: { status: number; body: unknown }, status: number, title: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
}

describe('POST /api/edit/games/{id}/challenges', () => {
  it('creates a disabled challenge with the defaults, taking only title, tag and type', async () => {
    const game = await createGame(server)
    const res = await admin.post(base(game), { title: 'Warmup', tag: 'Web', type: 'DynamicContainer', isEnabled: true, originalScore: 1, id: 5 })
    expect(res.status).toBe(200)
    expect(ChallengeEditDetailModel.parse(res.body)).toEqual({
      id: expect.any(Number),
      title: 'Warmup',
      content: '',
      tag: 'Web',
      type: 'DynamicContainer',
      hints: [],
      flagTemplate: null,
      isEnabled: false,
      acceptedCount: 0,
      fileName: 'attachment',
      attachment: null,
      testContainer: null,
      flags: [],
      containerImage: '',
      memoryLimit: 64,
      cpuCount: 1,
      storageLimit: 256,
      containerExposePort: 80,
      enableTrafficCapture: false,
      originalScore: 500,
      minScoreRate: 0.25,
      difficulty: 5,
      category: 'Web',
      exposePort: 80,
      disableBloodBonus: false,
      submissionLimit: 0,
      deadlineUtc: null,
      networkMode: 'Open',
      releaseTimeUtc: null,
    })
    expect(await challengeRow(res.body.id)).toMatchObject({ title: 'Warmup', isEnabled: false, originalScore: 500 })
  })

  it('defaults tag and type, and accepts enum names in any case or as integers', async () => {
    const game = await createGame(server)
    expect((await admin.post(base(game), { title: 'A' })).body).toMatchObject({ tag: 'Misc', type: 'StaticAttachment' })
    expect((await admin.post(base(game), { title: 'B', tag: 'ppc', type: 3 })).body).toMatchObject({ tag: 'PPC', type: 'DynamicContainer' })
  })

  it('rejects invalid bodies and unknown games, creating nothing', async () => {
    const game = await createGame(server)
    await expectError(await admin.post(base(game), {}), 400, '标题是必需的')
    await expectError(await admin.post(base(game), { title: '' }), 400, '标题是必需的')
    await expectError(await admin.post(base(game), { title: 'x'.repeat(129) }), 400, '标题过长')
    await expectError(await admin.post(base(game), { title: 'x', tag: 'Cooking' }), 400, "The value 'Cooking' is not valid.")
    await expectError(await admin.post(base(game), { title: 'x', type: 7 }), 400, "The value '7' is not valid.")
    await expectError(await admin.post(base(987654), { title: 'x' }), 404, '比赛未找到')
    expect(await countRows(server, 'challenges', 'game_id = ?', [game.id])).toBe(0)
  })
})

describe('GET /api/edit/games/{id}/challenges', () => {
  it('lists ChallengeInfoModels by id with the current dynamic score; an unknown game has none', async () => {
    const game = await createGame(server)
    const a = await createChallenge(server, game, { title: 'A', tag: 'Crypto' })
    const b = await createChallenge(server, game, { title: 'B', isEnabled: false, originalScore: 1000, minScoreRate: 0.1, difficulty: 3, acceptedCount: 6 })
    await createChallenge(server, await createGame(server), { title: 'elsewhere' })
    const res = await admin.get(base(game))
    expect(res.status).toBe(200)
    const list = ChallengeInfoModel.array().parse(res.body)
    expect(list).toEqual([
      { id: a.id, title: 'A', tag: 'Crypto', type: 'StaticAttachment', isEnabled: true, score: 500, minScore: 125, originalScore: 500, category: 'Crypto', ...NO_RULES },
      {
        id: b.id,
        title: 'B',
        tag: 'Misc',
        type: 'StaticAttachment',
        isEnabled: false,
        score: challengeScore(1000, 0.1, 3, 6),
        minScore: 100,
        originalScore: 1000,
        category: 'Misc',
        ...NO_RULES,
      },
    ])
    expect(list[1]!.score).toBe(Math.floor(1000 * (0.1 + 0.9 * Math.exp(-5 / 3))))
    const none = await admin.get(base(987654))
    expect(none.status).toBe(200)
    expect(none.body).toEqual([])
  })
})

describe('GET /api/edit/games/{id}/challenges/{cId}', () => {
  it('shows flags with their attachments and the running test container', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicAttachment', flags: [] })
    const file = await createStoredFile(server, 'dynamic attachment bytes', 'chall.zip')
    const unknown = 'f'.repeat(64)
    const add = await admin.post(`${base(game, challenge.id)}/flags`, [
      { flag: 'flag{local}', attachmentType: 'Local', fileHash: file.hash },
      { flag: 'flag{unknown}', attachmentType: 'Local', fileHash: unknown },
      { flag: 'flag{remote}', attachmentType: 'Remote', remoteUrl: 'https://example.com/a.zip' },
      { flag: 'flag{none}' },
    ])
    expect(add.status).toBe(200)
    expect(add.text).toBe('')
    const fork = em()
    fork.create(Container, {
      id: randomUUID(),
      containerId: 'abc',
      image: 'nginx',
      status: 'Running',
      startedAt: new Date('2030-01-01T00:00:00Z'),
      expectStopAt: new Date('2030-01-01T02:00:00Z'),
      ip: '10.0.0.5',
      port: 8080,
      publicIp: 'ctf.example.com',
      publicPort: 31000,
      isProxy: false,
      testChallengeId: challenge.id,
      flag: null,
    })
    await fork.flush()

    const res = await admin.get(base(game, challenge.id))
    expect(res.status).toBe(200)
    const detail = ChallengeEditDetailModel.parse(res.body)
    expect(detail.testContainer).toEqual({ status: 'Running', startedAt: '2030-01-01T00:00:00+00:00', expectStopAt: '2030-01-01T02:00:00+00:00', entry: 'ctf.example.com:31000' })
    expect(detail.flags.map((f) => [f.flag, f.attachment && { type: f.attachment.type, url: f.attachment.url, fileSize: f.attachment.fileSize }])).toEqual([
      ['flag{local}', { type: 'Local', url: `/assets/${file.hash}/chall.zip`, fileSize: file.fileSize }],
      ['flag{unknown}', { type: 'Local', url: null, fileSize: null }],
      ['flag{remote}', { type: 'Remote', url: 'https://example.com/a.zip', fileSize: null }],
      ['flag{none}', null],
    ])
    // The known file got one more reference; the unknown hash none.
    expect((await fileRow(server, file.hash))!.referenceCount).toBe(2)
  })

  it('answers 404 for an unknown game, an unknown challenge and a challenge of another game', async () => {
    const game = await createGame(server)
    const other = await createChallenge(server, await createGame(server))
    await expectError(await admin.get(base(987654, other.id)), 404, '比赛未找到')
    await expectError(await admin.get(base(game, 987654)), 404, '题目未找到')
    await expectError(await admin.get(base(game, other.id)), 404, '题目未找到')
  })
})

describe('PUT /api/edit/games/{id}/challenges/{cId}', () => {
  it('updates only the members sent; flags are untouched', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, {
      title: 'Old',
      content: 'old content',
      hints: ['h1'],
      tag: 'Pwn',
      type: 'StaticContainer',
      containerImage: 'old:1',
      enableTrafficCapture: true,
      flags: ['flag{keep}'],
    })
    const res = await admin.put(base(game, challenge.id), { title: 'New', enableTrafficCapture: null })
    expect(res.status).toBe(200)
    const detail = ChallengeEditDetailModel.parse(res.body)
    expect(detail).toMatchObject({ title: 'New', content: 'old content', hints: ['h1'], tag: 'Pwn', containerImage: 'old:1', enableTrafficCapture: true })
    expect(detail.flags.map((f) => f.flag)).toEqual(['flag{keep}'])

    const all = await admin.put(base(game, challenge.id), {
      content: 'c',
      tag: 'web',
      hints: ['a', 'b'],
      containerImage: '  nginx:latest  ',
      memoryLimit: 128,
      cpuCount: 2,
      storageLimit: 512,
      containerExposePort: 8080,
      originalScore: 1000,
      minScoreRate: 0.5,
      difficulty: 10,
      fileName: 'dist.zip',
      enableTrafficCapture: true,
    })
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({
      title: 'New',
      content: 'c',
      tag: 'Web',
      hints: ['a', 'b'],
      containerImage: 'nginx:latest',
      memoryLimit: 128,
      cpuCount: 2,
      storageLimit: 512,
      containerExposePort: 8080,
      originalScore: 1000,
      minScoreRate: 0.5,
      difficulty: 10,
      fileName: 'dist.zip',
      enableTrafficCapture: true,
    })
    // hints [] clears; enableTrafficCapture omitted means false.
    expect((await admin.put(base(game, challenge.id), { hints: [] })).body).toMatchObject({ hints: [], enableTrafficCapture: false })
    expect(await challengeRow(challenge.id)).toMatchObject({ hints: [], enableTrafficCapture: false, containerImage: 'nginx:latest' })
  })

  it('treats flagTemplate null as keep and blank as clear', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicContainer', flags: [] })
    const url = base(game, challenge.id)
    expect((await admin.put(url, { flagTemplate: 'flag{[GUID]}' })).body.flagTemplate).toBe('flag{[GUID]}')
    expect((await admin.put(url, { flagTemplate: null })).body.flagTemplate).toBe('flag{[GUID]}')
    expect((await admin.put(url, { title: 'T' })).body.flagTemplate).toBe('flag{[GUID]}')
    expect((await admin.put(url, { flagTemplate: '   ' })).body.flagTemplate).toBeNull()
    await admin.put(url, { flagTemplate: 'flag{[TEAM_HASH]}' })
    expect((await admin.put(url, { flagTemplate: '' })).body.flagTemplate).toBeNull()
    expect((await challengeRow(challenge.id))!.flagTemplate).toBeNull()
  })

  it('rejects invalid bodies with the validation messages and changes nothing', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Same', type: 'DynamicContainer', flags: [] })
    const cases: [unknown, string][] = [
      [{ title: '' }, '标题过短'],
      [{ flagTemplate: 'x'.repeat(121) }, 'flag 字符串过长'],
      [{ memoryLimit: 31 }, 'MemoryLimit 的值必须介于 32 - 1048576'],
      [{ memoryLimit: 1048577 }, 'MemoryLimit 的值必须介于 32 - 1048576'],
      [{ cpuCount: 0 }, 'CPUCount 的值必须介于 1 - 1024'],
      [{ cpuCount: 1025 }, 'CPUCount 的值必须介于 1 - 1024'],
      [{ storageLimit: 127 }, 'StorageLimit 的值必须介于 128 - 1048576'],
      [{ storageLimit: 1048577 }, 'StorageLimit 的值必须介于 128 - 1048576'],
      [{ minScoreRate: 1.5 }, 'The field MinScoreRate must be between 0 and 1.'],
      [{ minScoreRate: -0.1 }, 'The field MinScoreRate must be between 0 and 1.'],
      [{ isEnabled: 'yes' }, 'The JSON value could not be converted to System.Boolean.'],
    ]
    for (const [body, title] of cases) {
      const res = await admin.put(base(game, challenge.id), body)
      expect({ body, status: res.status, res: res.body }).toEqual({ body, status: 400, res: { title, status: 400 } })
    }
    // Validation comes before the lookups.
    await expectError(await admin.put(base(987654, 1), { cpuCount: 0 }), 400, 'CPUCount 的值必须介于 1 - 1024')
    await expectError(await admin.put(base(987654, challenge.id), { title: 'x' }), 404, '比赛未找到')
    await expectError(await admin.put(base(game, 987654), { title: 'x' }), 404, '题目未找到')
    expect(await challengeRow(challenge.id)).toMatchObject({ title: 'Same', memoryLimit: 64, cpuCount: 1, storageLimit: 256, minScoreRate: 0.25, isEnabled: true })
  })

  it('applies the ordered rule table: no flag, traffic capture, blank file name, weak template', async () => {
    const game = await createGame(server)
    const attach = await createChallenge(server, game, { type: 'StaticAttachment', isEnabled: false, flags: [] })
    const container = await createChallenge(server, game, { type: 'StaticContainer', isEnabled: false, flags: [] })
    const dynamic = await createChallenge(server, game, { type: 'DynamicContainer', isEnabled: false, flags: [] })

    // No flag: enabling refused for every type but DynamicContainer; checked before the capture rule.
    await expectError(await admin.put(base(game, attach.id), { isEnabled: true, enableTrafficCapture: true }), 400, '题目无 flag，不可启用')
    await expectError(await admin.put(base(game, container.id), { isEnabled: true }), 400, '题目无 flag，不可启用')
    await expectError(await admin.put(base(game, attach.id), { enableTrafficCapture: true, fileName: ' ' }), 400, '只有容器题目可以进行流量捕获')
    await expectError(await admin.put(base(game, attach.id), { fileName: '   ', flagTemplate: 'weak' }), 400, '动态附件名不可为空')
    await expectError(await admin.put(base(game, dynamic.id), { fileName: '' }), 400, '动态附件名不可为空')
    await expectError(await admin.put(base(game, dynamic.id), { flagTemplate: 'flag{hello}' }), 400, 'flag 复杂度不足，请考虑添加队伍哈希或增加长度')
    for (const c of [attach, container, dynamic]) expect(await challengeRow(c.id)).toMatchObject({ isEnabled: false, fileName: 'attachment', flagTemplate: null, enableTrafficCapture: false })

    // A DynamicContainer may be enabled without flags; a container type may capture traffic.
    expect((await admin.put(base(game, dynamic.id), { isEnabled: true, enableTrafficCapture: true })).body).toMatchObject({ isEnabled: true, enableTrafficCapture: true })
    // Templates are only checked for DynamicContainer.
    expect((await admin.put(base(game, attach.id), { flagTemplate: 'flag{hello}' })).status).toBe(200)
  })

  it('accepts templates with [GUID], [TEAM_HASH] or at least 32 bits of leet entropy', async () => {
    const game = await createGame(server)
    const dynamic = await createChallenge(server, game, { type: 'DynamicContainer', flags: [] })
    const url = base(game, dynamic.id)
    for (const template of ['flag{[GUID]}', 'flag{[TEAM_HASH]}', '[LEET]flag{hello_[TEAM_HASH]}', 'flag{this_is_a_long_leet_flag_template_with_enough_entropy}']) {
      const res = await admin.put(url, { flagTemplate: template })
      expect({ template, status: res.status }).toEqual({ template, status: 200 })
      expect(res.body.flagTemplate).toBe(template)
    }
    for (const template of ['flag{short}', 'no_braces_at_all_so_no_leet_zone_here_xxxxxxxxxxxxxxxxxxxxxxxx', 'flag{[guid]}']) {
      await expectError(await admin.put(url, { flagTemplate: template }), 400, 'flag 复杂度不足，请考虑添加队伍哈希或增加长度')
    }
  })

  it('enabling creates the missing instances of every participation and, in a running game, a NewChallenge notice', async () => {
    const game = await createGame(server)
    const captain = (await createUser(server)).user
    const parts = [
      await createParticipation(server, game, await createTeam(server, captain), []),
      await createParticipation(server, game, await createTeam(server, captain), [], 'Pending'),
      await createParticipation(server, game, await createTeam(server, captain), [], 'Rejected'),
    ]
    const challenge = await createChallenge(server, game, { title: 'Fresh', isEnabled: false })
    const fork = em()
    fork.create(GameInstance, { participation: parts[0]!.id, challenge: challenge.id, isLoaded: true })
    await fork.flush()

    const res = await admin.put(base(game, challenge.id), { isEnabled: true })
    expect(res.status).toBe(200)
    expect(res.body.isEnabled).toBe(true)
    expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(3)
    expect(await countRows(server, 'instances', 'challenge_id = ? and is_loaded', [challenge.id])).toBe(1)
    const notices = await em().find(GameNotice, { game: game.id })
    expect(notices.map((n) => [n.type, n.content])).toEqual([['NewChallenge', '新增了题目 「Fresh」']])

    // Sent again (already enabled): no duplicate instances, and no second notice (Flagwave: once per enabling).
    expect((await admin.put(base(game, challenge.id), { isEnabled: true })).status).toBe(200)
    expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(3)
    expect(await em().count(GameNotice, { game: game.id, type: 'NewChallenge' })).toBe(1)
  })

  it('creates no notice when the game is not running', async () => {
    for (const times of [
      { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) },
      { start: new Date(Date.now() - 2 * HOUR), end: new Date(Date.now() - HOUR) },
    ]) {
      const game = await createGame(server, times)
      const captain = (await createUser(server)).user
      await createParticipation(server, game, await createTeam(server, captain), [])
      const challenge = await createChallenge(server, game, { isEnabled: false })
      expect((await admin.put(base(game, challenge.id), { isEnabled: true, hints: ['new hint'] })).status).toBe(200)
      expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(1)
      expect(await em().count(GameNotice, { game: game.id })).toBe(0)
    }
  })

  it('changed hints of an enabled challenge in a running game give a NewHint notice; the same set does not', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Hinted', hints: ['a', 'b'] })
    const disabled = await createChallenge(server, game, { title: 'Off', isEnabled: false, hints: [] })
    const url = base(game, challenge.id)
    expect((await admin.put(url, { hints: ['b', 'a'] })).status).toBe(200)
    expect((await admin.put(url, { hints: ['a', 'b', 'a'] })).status).toBe(200)
    expect((await admin.put(url, { hints: [] })).status).toBe(200)
    expect((await admin.put(base(game, disabled.id), { hints: ['x'] })).status).toBe(200)
    expect(await em().count(GameNotice, { game: game.id })).toBe(0)
    expect((await admin.put(url, { hints: ['c'] })).status).toBe(200)
    const notices = await em().find(GameNotice, { game: game.id })
    expect(notices.map((n) => [n.type, n.content])).toEqual([['NewHint', '「Hinted」 更新了提示']])
  })
})

describe('DELETE /api/edit/games/{id}/challenges/{cId}', () => {
  it('removes the challenge, its flags, instances and attachments, releasing their files', async () => {
    const game = await createGame(server)
    const captain = (await createUser(server)).user
    await createParticipation(server, game, await createTeam(server, captain), [])
    const challenge = await createChallenge(server, game, { isEnabled: false, flags: [] })
    const keep = await createChallenge(server, game)
    const mine = await createStoredFile(server, 'only this challenge', 'a.bin')
    const shared = await createStoredFile(server, 'shared bytes', 'b.bin')
    const url = base(game, challenge.id)
    await admin.post(`${url}/attachment`, { attachmentType: 'Local', fileHash: mine.hash })
    await admin.post(`${url}/flags`, [{ flag: 'flag{1}', attachmentType: 'Local', fileHash: shared.hash }])
    await admin.put(url, { isEnabled: true })
    await dropReference(server, mine.hash)
    expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(1)
    const attachments = await attachmentIds(challenge.id)
    expect(attachments).toHaveLength(2)

    const res = await admin.delete(url)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await challengeRow(challenge.id)).toBeNull()
    expect(await em().count(Flag, { challenge: challenge.id })).toBe(0)
    expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(0)
    expect(await em().count(Attachment, { id: { $in: attachments } })).toBe(0)
    expect(await fileRow(server, mine.hash)).toBeNull()
    expect(await blobExists(server, mine.hash)).toBe(false)
    expect((await fileRow(server, shared.hash))!.referenceCount).toBe(1)
    expect(await blobExists(server, shared.hash)).toBe(true)
    expect(await challengeRow(keep.id)).not.toBeNull()

    await expectError(await admin.delete(url), 404, '题目未找到')
    await expectError(await admin.delete(base(987654, keep.id)), 404, '比赛未找到')
  })
})

describe('POST /api/edit/games/{id}/challenges/{cId}/attachment', () => {
  it('sets, replaces and removes the challenge attachment, moving file references', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const url = base(game, challenge.id)
    const a = await createStoredFile(server, 'attachment A', 'a.tar.gz')
    const b = await createStoredFile(server, 'attachment B', 'b.tar.gz')

    let res = await admin.post(`${url}/attachment`, { attachmentType: 'Local', fileHash: a.hash })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect((await fileRow(server, a.hash))!.referenceCount).toBe(2)
    await dropReference(server, a.hash) // the attachment is now its only holder
    expect((await admin.get(url)).body.attachment).toEqual({ id: expect.any(Number), type: 'Local', url: `/assets/${a.hash}/a.tar.gz`, fileSize: a.fileSize })
    expect((await fileRow(server, a.hash))!.referenceCount).toBe(1)

    res = await admin.post(`${url}/attachment`, { attachmentType: 'local', fileHash: b.hash.toUpperCase() })
    expect(res.status).toBe(200)
    expect((await admin.get(url)).body.attachment).toMatchObject({ type: 'Local', url: `/assets/${b.hash}/b.tar.gz` })
    expect(await fileRow(server, a.hash)).toBeNull()
    expect(await blobExists(server, a.hash)).toBe(false)
    expect((await fileRow(server, b.hash))!.referenceCount).toBe(2)

    res = await admin.post(`${url}/attachment`, { attachmentType: 'Remote', remoteUrl: 'https://files.example.com/x.zip' })
    expect(res.status).toBe(200)
    expect((await admin.get(url)).body.attachment).toEqual({ id: expect.any(Number), type: 'Remote', url: 'https://files.example.com/x.zip', fileSize: null })
    expect((await fileRow(server, b.hash))!.referenceCount).toBe(1)

    res = await admin.post(`${url}/attachment`, { attachmentType: 'Local', fileHash: '0'.repeat(64) })
    expect(res.status).toBe(200)
    expect((await admin.get(url)).body.attachment).toMatchObject({ type: 'Local', url: null, fileSize: null })

    const last = await attachmentIds(challenge.id)
    res = await admin.post(`${url}/attachment`, { attachmentType: 'None' })
    expect(res.status).toBe(200)
    expect((await admin.get(url)).body.attachment).toBeNull()
    expect(await attachmentIds(challenge.id)).toEqual([])
    expect(await em().count(Attachment, { id: { $in: last } })).toBe(0)
  })

  it('shows a null url once the stored file is gone', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const file = await createStoredFile(server, 'soon gone', 'gone.txt')
    await admin.post(`${base(game, challenge.id)}/attachment`, { attachmentType: 'Local', fileHash: file.hash })
    await em().nativeDelete(LocalFile, { hash: file.hash })
    expect((await admin.get(base(game, challenge.id))).body.attachment).toMatchObject({ type: 'Local', url: null, fileSize: null })
  })

  it('refuses dynamic-attachment challenges, bad bodies and unknown ids', async () => {
    const game = await createGame(server)
    const dynamic = await createChallenge(server, game, { type: 'DynamicAttachment' })
    const file = await createStoredFile(server, 'x', 'x')
    await expectError(await admin.post(`${base(game, dynamic.id)}/attachment`, { attachmentType: 'Local', fileHash: file.hash }), 400, '动态附件题目请使用 assets API 上传附件')
    await expectError(await admin.post(`${base(game, dynamic.id)}/attachment`, { attachmentType: 'Bogus' }), 400, "The value 'Bogus' is not valid.")
    await expectError(await admin.post(`${base(987654, dynamic.id)}/attachment`, {}), 404, '比赛未找到')
    await expectError(await admin.post(`${base(game, 987654)}/attachment`, {}), 404, '题目未找到')
    expect((await fileRow(server, file.hash))!.referenceCount).toBe(1)
    expect(await attachmentIds(dynamic.id)).toEqual([])
  })
})

describe('POST /api/edit/games/{id}/challenges/{cId}/flags', () => {
  it('appends flags and validates each one, adding nothing on error', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { flags: ['flag{first}'] })
    const url = `${base(game, challenge.id)}/flags`
    const res = await admin.post(url, [{ flag: 'flag{second}' }, { flag: 'flag{third}', attachmentType: 'None' }])
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect((await admin.post(url, [])).status).toBe(200)
    const flags = await em().find(Flag, { challenge: challenge.id }, { orderBy: { id: 'asc' } })
    expect(flags.map((f) => f.flag)).toEqual(['flag{first}', 'flag{second}', 'flag{third}'])

    await expectError(await admin.post(url, [{ flag: 'ok' }, {}]), 400, 'The Flag field is required.')
    await expectError(await admin.post(url, [{ flag: '' }]), 400, 'The Flag field is required.')
    await expectError(await admin.post(url, [{ flag: 'x'.repeat(126) }]), 400, 'flag 字符串过长')
    await expectError(await admin.post(url, { flag: 'not an array' }), 400, 'The JSON value could not be converted to System.Collections.Generic.List`1[GZCTF.Models.Request.Edit.FlagCreateModel].')
    await expectError(await admin.post(`${base(987654, challenge.id)}/flags`, [{ flag: 'x' }]), 404, '比赛未找到')
    await expectError(await admin.post(`${base(game, 987654)}/flags`, [{ flag: 'x' }]), 404, '题目未找到')
    expect(await em().count(Flag, { challenge: challenge.id })).toBe(3)
  })
})

describe('DELETE /api/edit/games/{id}/challenges/{cId}/flags/{fId}', () => {
  it('answers "Success" or "NotFound"; the last flag disables the challenge and files are released', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicAttachment', flags: [] })
    const other = await createChallenge(server, game)
    const file = await createStoredFile(server, 'per-flag attachment', 'f.zip')
    const url = base(game, challenge.id)
    await admin.post(`${url}/flags`, [{ flag: 'flag{a}', attachmentType: 'Local', fileHash: file.hash }, { flag: 'flag{b}' }])
    await dropReference(server, file.hash)
    const attachments = await attachmentIds(challenge.id)
    expect(attachments).toHaveLength(1)
    await admin.put(url, { isEnabled: true })
    const [a, b] = await em().find(Flag, { challenge: challenge.id }, { orderBy: { id: 'asc' } })
    const otherFlag = await em().findOneOrFail(Flag, { challenge: other.id })

    let res = await admin.delete(`${url}/flags/${a!.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toBe('Success')
    expect(await fileRow(server, file.hash)).toBeNull()
    expect(await blobExists(server, file.hash)).toBe(false)
    expect(await em().count(Attachment, { id: { $in: attachments } })).toBe(0)
    expect((await challengeRow(challenge.id))!.isEnabled).toBe(true)

    res = await admin.delete(`${url}/flags/${otherFlag.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toBe('NotFound')
    expect(await em().count(Flag, { id: otherFlag.id })).toBe(1)
    expect((await admin.delete(`${url}/flags/987654`)).body).toBe('NotFound')

    res = await admin.delete(`${url}/flags/${b!.id}`)
    expect(res.body).toBe('Success')
    expect((await challengeRow(challenge.id))!.isEnabled).toBe(false)
    expect((await admin.get(url)).body).toMatchObject({ isEnabled: false, flags: [] })

    await expectError(await admin.delete(`${base(987654, challenge.id)}/flags/1`), 404, '比赛未找到')
    await expectError(await admin.delete(`${base(game, 987654)}/flags/1`), 404, '题目未找到')
  })
})
