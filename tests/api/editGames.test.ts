/**
 * Game administration (docs/compatibility.md#group-edit): create, list, read, replace, delete, poster,
 * team hash salt and write-ups, plus the permission matrix of every game/challenge/notice edit
 * endpoint.
 */
import { createHash, createPublicKey, verify } from 'node:crypto'
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { GameInfoModel } from '@flagwave/shared/schemas/games'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { encodeBloodBonus } from '@flagwave/shared/scoring'
import { DEFAULT_BLOOD_BONUS } from '@flagwave/shared/limits'
import { EPOCH_WIRE } from '@flagwave/shared/format'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import {
  blobExists,
  countRows,
  createChallenge,
  createGame,
  createNotice,
  createParticipation,
  createStoredFile,
  dropReference,
  fileRow,
  setWriteup,
} from '../support/factories/games.js'
import { Game } from '../../server/src/entities/Game.js'
import { Attachment } from '../../server/src/entities/Attachment.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { Submission } from '../../server/src/entities/Submission.js'
import { GameEvent } from '../../server/src/entities/GameEvent.js'
import { teamToken } from '../../server/src/domain/games/keys.js'

let server: TestServer
let admin: ApiClient
let user: ApiClient
let monitor: ApiClient
let anon: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
  user = (await createUser(server)).client
  monitor = (await createUser(server, { role: 'Monitor' })).client
  anon = server.client()
})
afterAll(async () => {
  await server?.close()
})

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')
const em = () => server.services.orm.em.fork()
const gameRow = (id: number) => em().findOne(Game, { id })

const png = (width = 40, height = 30) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer()
const gif = () => sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 0, g: 90, b: 200 } } }).gif().toBuffer()

describe('permissions of the edit endpoints', () => {
  it('answer 401 anonymous, 403 for User and Monitor on every game, notice and challenge endpoint', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const notice = await createNotice(server, game)
    const flag = await em().findOneOrFail(Flag, { challenge: challenge.id })
    const g = `/api/edit/games/${game.id}`
    const c = `${g}/challenges/${challenge.id}`
    const endpoints: [string, string, unknown?][] = [
      ['POST', '/api/edit/games', { title: 'x' }],
      ['GET', '/api/edit/games?count=10'],
      ['GET', g],
      ['GET', `${g}/teamhashsalt`],
      ['PUT', g, { title: 'x' }],
      ['DELETE', g],
      ['DELETE', `${g}/writeups`],
      ['PUT', `${g}/poster`, 'multipart'],
      ['POST', `${g}/notices`, { content: 'x' }],
      ['GET', `${g}/notices`],
      ['PUT', `${g}/notices/${notice.id}`, { content: 'x' }],
      ['DELETE', `${g}/notices/${notice.id}`],
      ['POST', `${g}/challenges`, { title: 'x' }],
      ['GET', `${g}/challenges`],
      ['GET', c],
      ['PUT', c, { title: 'x' }],
      ['DELETE', c],
      ['POST', `${c}/attachment`, { attachmentType: 'None' }],
      ['POST', `${c}/flags`, [{ flag: 'flag{x}' }]],
      ['DELETE', `${c}/flags/${flag.id}`],
    ]
    for (const [who, client, status, title] of [
      ['anonymous', anon, 401, '请先登录'],
      ['user', user, 403, '无权访问'],
      ['monitor', monitor, 403, '无权访问'],
    ] as const) {
      for (const [method, path, body] of endpoints) {
        const res =
          body === 'multipart'
            ? await client.upload(method as 'PUT', path, [['file', 'p.png', await png()]])
            : await client.request(method, path, body === undefined ? {} : { json: body })
        expect({ who, method, path, status: res.status, body: res.body }).toEqual({ who, method, path, status, body: { title, status } })
      }
    }
    // Nothing was changed by the refused calls.
    expect(await gameRow(game.id)).not.toBeNull()
    expect(await countRows(server, 'challenges', 'game_id = ?', [game.id])).toBe(1)
    expect(await countRows(server, 'notices', 'game_id = ?', [game.id])).toBe(1)
    expect(await countRows(server, 'flags', 'challenge_id = ?', [challenge.id])).toBe(1)
  })
})

describe('POST /api/edit/games', () => {
  it('creates a game from the fields the frontend sends, with every other default and a fresh Ed25519 key', async () => {
    const start = '2030-01-01T00:00:00.000Z'
    const end = '2030-01-02T00:00:00.000Z'
    const wpddl = '2030-01-02T03:00:00.000Z'
    const res = await admin.post('/api/edit/games', { title: 'My CTF', start, end, wpddl })
    expect(res.status).toBe(200)
    const body = GameInfoModel.parse(res.body)
    expect(body).toEqual({
      id: expect.any(Number),
      title: 'My CTF',
      hidden: false,
      summary: '',
      content: '',
      acceptWithoutReview: false,
      inviteCode: null,
      organizations: null,
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      poster: null,
      publicKey: expect.any(String),
      practiceMode: true,
      start: '2030-01-01T00:00:00+00:00',
      end: '2030-01-02T00:00:00+00:00',
      wpddl: '2030-01-02T03:00:00+00:00',
      wpNote: '',
      bloodBonus: DEFAULT_BLOOD_BONUS,
      writeupDeadline: '2030-01-02T03:00:00+00:00',
      writeupNote: '',
      writeupRequired: false,
      freezeTime: null,
      replayPublic: false,
    })
    expect(Buffer.from(body.publicKey, 'base64')).toHaveLength(32)
    expect(body.publicKey).toHaveLength(44)

    // The stored private key signs team tokens that the published public key verifies (docs/compatibility.md#team-token).
    const game = (await gameRow(body.id))!
    const [, signature] = teamToken(game, 7, server.services.config.XOR_KEY).split(':')
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(body.publicKey, 'base64').toString('base64url') }, format: 'jwk' })
    expect(verify(null, Buffer.from('GZCTF_TEAM_7'), key, Buffer.from(signature!, 'base64'))).toBe(true)

    const other = GameInfoModel.parse((await admin.post('/api/edit/games', { title: 'Other' })).body)
    expect(other.publicKey).not.toBe(body.publicKey)
  })

  it('defaults omitted dates to the epoch and takes every option as given (id, poster, publicKey ignored)', async () => {
    expect((await admin.post('/api/edit/games', { title: 'Dates' })).body).toMatchObject({ start: EPOCH_WIRE, end: EPOCH_WIRE, wpddl: EPOCH_WIRE })
    const res = await admin.post('/api/edit/games', {
      id: 999999,
      poster: '/assets/x/poster',
      publicKey: 'forged',
      title: 'Full',
      hidden: true,
      summary: 'sum',
      content: '# hello',
      acceptWithoutReview: true,
      inviteCode: 'secret',
      organizations: ['A', 'B', 'A'],
      teamMemberCountLimit: 4,
      containerCountLimit: '0',
      practiceMode: false,
      start: '2030-01-01T00:00:00Z',
      end: '2030-01-01T12:00:00+00:00',
      wpddl: '2030-01-01T15:00:00.5Z',
      wpNote: 'note',
      bloodBonus: encodeBloodBonus(100, 50, 0),
    })
    expect(res.status).toBe(200)
    const body = GameInfoModel.parse(res.body)
    expect(body.id).not.toBe(999999)
    expect(body.poster).toBeNull()
    expect(body.publicKey).not.toBe('forged')
    expect(body).toMatchObject({
      title: 'Full',
      hidden: true,
      summary: 'sum',
      content: '# hello',
      acceptWithoutReview: true,
      inviteCode: 'secret',
      organizations: ['A', 'B'],
      teamMemberCountLimit: 4,
      containerCountLimit: 0,
      practiceMode: false,
      start: '2030-01-01T00:00:00+00:00',
      end: '2030-01-01T12:00:00+00:00',
      wpddl: '2030-01-01T15:00:00.5+00:00',
      wpNote: 'note',
      bloodBonus: encodeBloodBonus(100, 50, 0),
    })
  })

  it('replaces a blood bonus with a 10-bit field above 1000 by the default; 0 stays 0', async () => {
    const cases: [number, number][] = [
      [0, 0],
      [encodeBloodBonus(1000, 1000, 1000), encodeBloodBonus(1000, 1000, 1000)],
      [1001 * 2 ** 20, DEFAULT_BLOOD_BONUS],
      [1001 * 2 ** 10, DEFAULT_BLOOD_BONUS],
      [1001, DEFAULT_BLOOD_BONUS],
    ]
    for (const [sent, stored] of cases) {
      const res = await admin.post('/api/edit/games', { title: 'Blood', bloodBonus: sent })
      expect(res.status).toBe(200)
      expect(res.body.bloodBonus).toBe(stored)
      expect(Number((await gameRow(res.body.id))!.bloodBonus)).toBe(stored)
    }
  })

  it('rejects invalid bodies with the contract titles and creates nothing', async () => {
    const before = await countRows(server, 'games')
    const cases: [unknown, string][] = [
      [{}, 'The Title field is required.'],
      [{ title: '' }, 'The Title field is required.'],
      [{ title: null }, 'The Title field is required.'],
      [{ title: 'ok', inviteCode: 'x'.repeat(33) }, '邀请码过长'],
      [{ title: 'ok', hidden: 'yes' }, 'The JSON value could not be converted to System.Boolean.'],
      [{ title: 'ok', start: 'tomorrow' }, 'The JSON value could not be converted to System.DateTimeOffset.'],
      [{ title: 'x'.repeat(129) }, '标题过长'],
    ]
    for (const [body, title] of cases) {
      const res = await admin.post('/api/edit/games', body)
      expect({ body, status: res.status, res: res.body }).toEqual({ body, status: 400, res: { title, status: 400 } })
    }
    const wrongType = await admin.request('POST', '/api/edit/games', { body: 'title=x', headers: { 'content-type': 'text/plain' } })
    expect(wrongType.status).toBe(415)
    expect(await countRows(server, 'games')).toBe(before)
  })
})

describe('GET /api/edit/games', () => {
  it('answers an empty page without count (default 0), newest first with count and skip, total = all games', async () => {
    await createGame(server)
    await createGame(server)
    const total = await countRows(server, 'games')
    const none = await admin.get('/api/edit/games')
    expect(none.status).toBe(200)
    expect(none.body).toEqual({ data: [], length: 0, total })

    const page = arrayResponseOf(GameInfoModel).parse((await admin.get('/api/edit/games?count=2')).body)
    expect(page.length).toBe(2)
    expect(page.total).toBe(total)
    expect(page.data[0]!.id).toBeGreaterThan(page.data[1]!.id)
    const ids = (await em().find(Game, {}, { orderBy: { id: 'desc' } })).map((g) => g.id)
    expect(page.data.map((g) => g.id)).toEqual(ids.slice(0, 2))

    const skipped = (await admin.get('/api/edit/games?count=2&skip=1')).body
    expect(skipped.data.map((g: { id: number }) => g.id)).toEqual(ids.slice(1, 3))
    expect((await admin.get('/api/edit/games?Count=1')).body.length).toBe(1)
  })

  it('rejects a non-integer count', async () => {
    const res = await admin.get('/api/edit/games?count=abc')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: "The value 'abc' is not valid for count.", status: 400 })
  })
})

describe('GET /api/edit/games/{id} and /teamhashsalt', () => {
  it('answers the GameInfoModel of a game', async () => {
    const game = await createGame(server, { title: 'Read me', organizations: ['X'], inviteCode: 'c0de' })
    const res = await admin.get(`/api/edit/games/${game.id}`)
    expect(res.status).toBe(200)
    expect(GameInfoModel.parse(res.body)).toMatchObject({ id: game.id, title: 'Read me', organizations: ['X'], inviteCode: 'c0de', publicKey: game.publicKey })
  })

  it('answers the team hash salt: SHA-256 of GZCTF@{privateKey}@PK', async () => {
    const game = await createGame(server)
    const res = await admin.get(`/api/edit/games/${game.id}/teamhashsalt`)
    expect(res.status).toBe(200)
    expect(res.body).toBe(sha256(`GZCTF@${game.privateKey}@PK`))
    expect(res.body).toMatch(/^[0-9a-f]{64}$/)
  })

  it('answers 404 比赛未找到 for an unknown game, and no route for a non-integer id', async () => {
    for (const path of ['/api/edit/games/987654', '/api/edit/games/987654/teamhashsalt']) {
      const res = await admin.get(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ title: '比赛未找到', status: 404 })
    }
    const noRoute = await admin.get('/api/edit/games/abc')
    expect(noRoute.status).toBe(404)
    expect(noRoute.body).toMatchObject({ title: 'Not Found', status: 404 })
  })
})

describe('PUT /api/edit/games/{id}', () => {
  it('replaces every option; organizations null/omitted keeps the list, an array replaces it', async () => {
    const game = await createGame(server, {
      title: 'Old',
      hidden: true,
      summary: 'old summary',
      content: 'old content',
      acceptWithoutReview: true,
      inviteCode: 'old',
      organizations: ['Org1', 'Org2'],
      teamMemberCountLimit: 5,
      containerCountLimit: 9,
      practiceMode: false,
      wpNote: 'old note',
      bloodBonus: 0,
    })
    const res = await admin.put(`/api/edit/games/${game.id}`, { title: 'New', start: '2031-05-01T10:00:00Z', end: '2031-05-02T10:00:00Z', wpddl: '2031-05-03T10:00:00Z' })
    expect(res.status).toBe(200)
    expect(GameInfoModel.parse(res.body)).toEqual({
      id: game.id,
      title: 'New',
      hidden: false,
      summary: '',
      content: '',
      acceptWithoutReview: false,
      inviteCode: null,
      organizations: ['Org1', 'Org2'],
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      poster: null,
      publicKey: game.publicKey,
      practiceMode: true,
      start: '2031-05-01T10:00:00+00:00',
      end: '2031-05-02T10:00:00+00:00',
      wpddl: '2031-05-03T10:00:00+00:00',
      wpNote: '',
      bloodBonus: DEFAULT_BLOOD_BONUS,
      writeupDeadline: '2031-05-03T10:00:00+00:00',
      writeupNote: '',
      writeupRequired: false,
      freezeTime: null,
      replayPublic: false,
    })
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'New', organizations: null })).body.organizations).toEqual(['Org1', 'Org2'])
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'New', organizations: ['B', 'B', 'C'] })).body.organizations).toEqual(['B', 'C'])
    // Organizations are the game's divisions (docs/scoring.md#divisions): none read as null.
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'New', organizations: [] })).body.organizations).toBeNull()
    const stored = (await gameRow(game.id))!
    expect(await countRows(server, 'divisions', 'game_id = ?', [game.id])).toBe(0)
    expect(stored.privateKey).toBe(game.privateKey)
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'New', publicKey: 'x', id: 1, bloodBonus: 2 ** 30 - 1 })).body).toMatchObject({
      id: game.id,
      publicKey: game.publicKey,
      bloodBonus: DEFAULT_BLOOD_BONUS,
    })
  })

  it('keeps the freeze and replay settings when a v0.17.6 client replaces the game; null removes the freeze', async () => {
    const game = await createGame(server, { title: 'Freeze' })
    const freezeAt = Date.parse('2031-05-02T08:00:00Z')
    const set = await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze', freezeTime: freezeAt, replayPublic: true })
    expect(set.body).toMatchObject({ freezeTime: '2031-05-02T08:00:00+00:00', replayPublic: true })
    // A full replace without the members (what v0.17.6's editor sends) changes neither.
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze' })).body).toMatchObject({ freezeTime: '2031-05-02T08:00:00+00:00', replayPublic: true })
    expect((await admin.get(`/api/game/${game.id}`)).body).toMatchObject({ frozen: false, freezeTime: '2031-05-02T08:00:00+00:00' })
    // A lifted freeze is lifted until a new freeze time is set.
    await em().nativeUpdate(Game, { id: game.id }, { unfrozenAt: new Date() })
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze', freezeTime: freezeAt })).body.freezeTime).toBe('2031-05-02T08:00:00+00:00')
    expect((await gameRow(game.id))!.unfrozenAt).not.toBeNull()
    await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze', freezeTime: '2031-05-02T09:00:00Z' })
    expect((await gameRow(game.id))!.unfrozenAt).toBeNull()
    const cleared = await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze', freezeTime: null })
    expect(cleared.body).toMatchObject({ freezeTime: null, replayPublic: true })
    const bad = await admin.put(`/api/edit/games/${game.id}`, { title: 'Freeze', freezeTime: 'soon' })
    expect(bad.body).toEqual({ title: 'The JSON value could not be converted to System.DateTimeOffset.', status: 400 })
  })

  it('rejects invalid bodies unchanged and answers 404 for an unknown game', async () => {
    const game = await createGame(server, { title: 'Keep', inviteCode: 'keep' })
    for (const [body, title] of [
      [{ inviteCode: 'x' }, 'The Title field is required.'],
      [{ title: 'T', inviteCode: 'y'.repeat(40) }, '邀请码过长'],
      [{ title: 'T', teamMemberCountLimit: 1.5 }, 'The JSON value could not be converted to System.Int32.'],
    ] as const) {
      const res = await admin.put(`/api/edit/games/${game.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ title, status: 400 })
    }
    expect(await gameRow(game.id)).toMatchObject({ title: 'Keep', inviteCode: 'keep' })
    const missing = await admin.put('/api/edit/games/987654', { title: 'x' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ title: '比赛未找到', status: 404 })
    // Validation comes before the lookup.
    expect((await admin.put('/api/edit/games/987654', {})).body).toEqual({ title: 'The Title field is required.', status: 400 })
  })
})

describe('PUT /api/edit/games/{id}/poster', () => {
  it('stores a PNG as full-size WebP and exposes /assets/{hash}/poster on the game', async () => {
    const game = await createGame(server)
    const res = await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'poster.png', await png(640, 360), 'image/png']])
    expect(res.status).toBe(200)
    expect(res.body).toMatch(/^\/assets\/[0-9a-f]{64}\/poster\.webp$/)
    const hash = (res.body as string).split('/')[2]!
    const meta = await sharp(await buffer(await server.services.storage.open(hash))).metadata()
    expect(meta.format).toBe('webp')
    expect([meta.width, meta.height]).toEqual([640, 360])
    expect(await fileRow(server, hash)).toMatchObject({ name: 'poster.webp', referenceCount: 1 })
    expect((await admin.get(`/api/edit/games/${game.id}`)).body.poster).toBe(`/assets/${hash}/poster`)
  })

  it('keeps a GIF byte for byte and releases the replaced poster', async () => {
    const game = await createGame(server)
    const first = await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'a.png', await png(20, 20)]])
    const firstHash = (first.body as string).split('/')[2]!
    expect(await blobExists(server, firstHash)).toBe(true)

    const bytes = await gif()
    const res = await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'anim.gif', bytes, 'image/gif']])
    expect(res.status).toBe(200)
    expect(res.body).toBe(`/assets/${sha256(bytes)}/poster.gif`)
    expect(await fileRow(server, sha256(bytes))).toMatchObject({ name: 'poster.gif', fileSize: bytes.length })
    expect((await admin.get(`/api/edit/games/${game.id}`)).body.poster).toBe(`/assets/${sha256(bytes)}/poster`)
    // The previous poster had no other holder: its row and blob are gone.
    expect(await fileRow(server, firstHash)).toBeNull()
    expect(await blobExists(server, firstHash)).toBe(false)
  })

  it('checks the file in the contract order: missing, empty, too large, game lookup, not an image', async () => {
    const game = await createGame(server)
    const before = await countRows(server, 'files')
    const expectError = async (path: string, files: Parameters<ApiClient['upload']>[2], status: number, title: string) => {
      const res = await admin.upload('PUT', path, files)
      expect({ title, got: res.body, status: res.status }).toEqual({ title, got: { title, status }, status })
    }
    const own = `/api/edit/games/${game.id}/poster`
    const unknown = '/api/edit/games/987654/poster'
    await expectError(unknown, [['other', 'a.png', await png()]], 400, 'The file field is required.')
    await expectError(unknown, [['file', 'empty.png', new Uint8Array(0)]], 400, '文件非法')
    await expectError(unknown, [['file', 'big.png', new Uint8Array(3 * 1024 * 1024 + 1)]], 400, '文件过大')
    await expectError(unknown, [['file', 'a.png', await png()]], 404, '比赛未找到')
    await expectError(own, [['file', 'notes.png', 'this is not an image at all', 'image/png']], 400, '文件创建失败')
    await expectError(own, [['file', 'broken.png', (await png()).subarray(0, 40), 'image/png']], 400, '文件创建失败')
    expect(await countRows(server, 'files')).toBe(before)
    expect((await gameRow(game.id))!.posterHash).toBeNull()
    const json = await admin.put(own, { file: 'x' })
    expect(json.status).toBe(415)
  })
})

describe('DELETE /api/edit/games/{id}/writeups', () => {
  it("releases every write-up of the game's participations", async () => {
    const game = await createGame(server)
    const other = await createGame(server)
    const captain = (await createUser(server)).user
    const t1 = await createTeam(server, captain)
    const t2 = await createTeam(server, captain)
    const p1 = await createParticipation(server, game, t1, [])
    const p2 = await createParticipation(server, game, t2, [], 'Pending')
    const p3 = await createParticipation(server, other, t1, [])
    const w1 = await setWriteup(server, p1, 'writeup one')
    const w2 = await setWriteup(server, p2, 'shared writeup')
    await setWriteup(server, p3, 'shared writeup') // the same bytes: two references
    expect((await fileRow(server, w2.hash))!.referenceCount).toBe(2)

    const res = await admin.delete(`/api/edit/games/${game.id}/writeups`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await fileRow(server, w1.hash)).toBeNull()
    expect(await blobExists(server, w1.hash)).toBe(false)
    expect((await fileRow(server, w2.hash))!.referenceCount).toBe(1)
    expect(await blobExists(server, w2.hash)).toBe(true)
    expect(await countRows(server, 'participations', 'game_id = ? and writeup_hash is not null', [game.id])).toBe(0)
    expect(await countRows(server, 'participations', 'game_id = ? and writeup_hash is not null', [other.id])).toBe(1)

    const missing = await admin.delete('/api/edit/games/987654/writeups')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ title: '比赛未找到', status: 404 })
  })
})

describe('DELETE /api/edit/games/{id}', () => {
  it('removes the game with everything of it and releases its file references in one go', async () => {
    const game = await createGame(server)
    const keep = await createGame(server)
    const captain = (await createUser(server)).user
    const team = await createTeam(server, captain)
    const part = await createParticipation(server, game, team, [captain])
    const keepPart = await createParticipation(server, keep, team, [])

    const poster = await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'p.png', await png(12, 12)]])
    const posterHash = (poster.body as string).split('/')[2]!
    const only = await createStoredFile(server, 'attachment only used here', 'a.zip')
    const shared = await createStoredFile(server, 'attachment also used by another game', 'b.zip')
    const challenge = await createChallenge(server, game, { flags: [] })
    const keepChallenge = await createChallenge(server, keep, { flags: [] })
    const c = `/api/edit/games/${game.id}/challenges/${challenge.id}`
    expect((await admin.post(`${c}/attachment`, { attachmentType: 'Local', fileHash: only.hash })).status).toBe(200)
    expect((await admin.post(`${c}/flags`, [{ flag: 'flag{a}', attachmentType: 'Local', fileHash: shared.hash }, { flag: 'flag{b}' }])).status).toBe(200)
    expect((await admin.post(`/api/edit/games/${keep.id}/challenges/${keepChallenge.id}/attachment`, { attachmentType: 'Local', fileHash: shared.hash })).status).toBe(200)
    // The upload's own reference of `only` is given up: the attachment is its last holder.
    await dropReference(server, only.hash)
    expect((await fileRow(server, only.hash))!.referenceCount).toBe(1)
    expect((await fileRow(server, shared.hash))!.referenceCount).toBe(3)
    const writeup = await setWriteup(server, part, 'the write-up')
    await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'hello' })
    const fork = em()
    fork.create(GameInstance, { participation: part.id, challenge: challenge.id, isLoaded: false })
    fork.create(Submission, { game: game.id, challenge: challenge.id, participation: part.id, user: captain.id, answer: 'flag{a}', status: 'Accepted', submitTime: new Date() })
    fork.create(GameEvent, { game: game.id, type: 'FlagSubmit', content: 'x', publishTime: new Date(), user: captain.id, team: team.id })
    await fork.flush()

    const res = await admin.delete(`/api/edit/games/${game.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')

    expect(await gameRow(game.id)).toBeNull()
    for (const [table, where] of [
      ['challenges', 'game_id = ?'],
      ['participations', 'game_id = ?'],
      ['registrations', 'game_id = ?'],
      ['notices', 'game_id = ?'],
      ['submissions', 'game_id = ?'],
      ['events', 'game_id = ?'],
    ] as const) {
      expect({ table, n: await countRows(server, table, where, [game.id]) }).toEqual({ table, n: 0 })
    }
    expect(await countRows(server, 'flags', 'challenge_id = ?', [challenge.id])).toBe(0)
    expect(await countRows(server, 'instances', 'challenge_id = ?', [challenge.id])).toBe(0)
    // Only the other game's attachment is left.
    expect(await em().count(Attachment, {})).toBe(1)
    // Files: the poster, the write-up and the attachment only this game held are gone; the shared one lost one reference.
    for (const hash of [posterHash, writeup.hash, only.hash]) {
      expect(await fileRow(server, hash)).toBeNull()
      expect(await blobExists(server, hash)).toBe(false)
    }
    expect((await fileRow(server, shared.hash))!.referenceCount).toBe(2)
    expect(await blobExists(server, shared.hash)).toBe(true)
    // The other game is untouched.
    expect(await gameRow(keep.id)).not.toBeNull()
    expect(await em().count(Challenge, { game: keep.id })).toBe(1)
    expect(await countRows(server, 'participations', 'id = ?', [keepPart.id])).toBe(1)

    const again = await admin.delete(`/api/edit/games/${game.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ title: '比赛未找到', status: 404 })
  })
})
