/**
 * Bounded work per request (issue 13, docs/operations.md#request-limits, docs/architecture.md#bounded-work):
 *
 * - Request bodies are bounded per route. For each kind of route — small JSON, large content,
 *   image upload, write-up upload, asset upload, and a route that takes no body — a body one byte
 *   over the limit is refused with 413 ProblemDetails and changes nothing, both when its
 *   Content-Length announces it (answered before the body is sent) and when it is streamed
 *   chunked without one; a body of exactly the limit is accepted.
 * - Over-long headers (a 100 KB cookie or User-Agent) get 431, never a 500; a long User-Agent that
 *   fits the header limit is stored cut to its column.
 * - Image decoding never stalls the event loop: while a 25-megapixel BMP (and a 64-megapixel PNG)
 *   is being processed, the event-loop delay of the in-process server stays bounded and a
 *   concurrent /healthz answers at once. Nor does validating a hostile phone number.
 * - Strings that reach bounded columns are refused (400, contract shape) or cut, never a 500.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { BODY_LIMITS, IMAGE_MAX_BYTES, WRITEUP_MAX_BYTES } from '@flagwave/shared/limits'
import { ProblemDetails } from '@flagwave/shared/schemas/common'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { countRows, createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { PNG_2X2, PDF_BYTES } from '../support/fixtures.js'
import { multipartFile, multipartOverhead, paddedJson, sendBody, type BodyResponse } from './support/bodies.js'
import { User } from '../../server/src/entities/User.js'
import { Session } from '../../server/src/entities/Session.js'
import { Game } from '../../server/src/entities/Game.js'
import { Division } from '../../server/src/entities/Division.js'
import { Challenge } from '../../server/src/entities/Challenge.js'

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

function expect413(res: BodyResponse) {
  expect(res.status, res.text.slice(0, 200)).toBe(413)
  expect(ProblemDetails.parse(JSON.parse(res.text))).toMatchObject({ status: 413, title: 'Payload Too Large' })
  // The rest of the body is never read, so the connection cannot carry another request.
  expect(res.headers.connection).toBe('close')
}

/** Send `body` both ways one byte over the limit: announced (only 1 KiB is sent) and chunked. */
async function expectRefusedBothWays(method: string, target: string, headers: Record<string, string>, body: Buffer) {
  const announced = await sendBody(server.url, method, target, { headers, body, mode: 'announce' })
  expect413(announced)
  const chunked = await sendBody(server.url, method, target, { headers, body, mode: 'chunked' })
  expect413(chunked)
}

/** A valid PNG followed by padding up to `size` bytes (decoders stop at IEND). */
const pngOfSize = (size: number) => Buffer.concat([PNG_2X2, Buffer.alloc(size - PNG_2X2.length)])
const pdfOfSize = (size: number) => Buffer.concat([PDF_BYTES, Buffer.alloc(size - PDF_BYTES.length, 0x20)])
/** A multipart body of exactly `total` bytes whose one file part is `make(file size)`. */
function multipartOfSize(total: number, field: string, name: string, type: string, make: (size: number) => Buffer) {
  const envelope = multipartOverhead(field, name, type)
  return multipartFile(field, name, make(total - envelope), type)
}

describe('request bodies are bounded per route', () => {
  it('small JSON (PUT /api/account/update, 64 KiB): one byte over is 413 and changes nothing; the limit itself is accepted', async () => {
    const { user, client } = await createUser(server)
    const headers = { 'content-type': 'application/json', cookie: client.cookieHeader }
    await expectRefusedBothWays('PUT', '/api/account/update', headers, paddedJson({ bio: 'over' }, BODY_LIMITS.json + 1))
    expect((await em().findOneOrFail(User, user.id)).bio).toBe('')

    for (const mode of ['whole', 'chunked'] as const) {
      const res = await sendBody(server.url, 'PUT', '/api/account/update', { headers, body: paddedJson({ bio: `at the limit ${mode}` }, BODY_LIMITS.json), mode })
      expect(res.status, res.text).toBe(200)
      expect((await em().findOneOrFail(User, user.id)).bio).toBe(`at the limit ${mode}`)
    }
  })

  it('large content (POST /api/edit/posts, 2 MiB): one byte over is 413 and creates nothing; the limit itself is accepted', async () => {
    const headers = { 'content-type': 'application/json', cookie: admin.cookieHeader }
    const posts = await countRows(server, 'posts')
    await expectRefusedBothWays('POST', '/api/edit/posts', headers, paddedJson({ title: 'over', content: 'x'.repeat(BODY_LIMITS.content - 100) }, BODY_LIMITS.content + 1))
    expect(await countRows(server, 'posts')).toBe(posts)

    const content = 'c'.repeat(BODY_LIMITS.content - 100)
    const res = await sendBody(server.url, 'POST', '/api/edit/posts', { headers, body: paddedJson({ title: 'at the limit', content }, BODY_LIMITS.content), mode: 'chunked' })
    expect(res.status, res.text).toBe(200)
    expect(await countRows(server, 'posts')).toBe(posts + 1)
    expect((await admin.get(`/api/posts/${JSON.parse(res.text) as string}`)).body.content).toBe(content)
  })

  it('also the other large-content routes take 2 MiB and no more: game, challenge, notice, flags, config, bulk users', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game)
    const routes: [string, string][] = [
      ['POST', '/api/edit/games'],
      ['PUT', `/api/edit/games/${game.id}`],
      ['POST', `/api/edit/games/${game.id}/notices`],
      ['PUT', `/api/edit/games/${game.id}/challenges/${challenge.id}`],
      ['POST', `/api/edit/games/${game.id}/challenges/${challenge.id}/flags`],
      ['PUT', '/api/admin/config'],
      ['POST', '/api/admin/users'],
    ]
    const headers = { 'content-type': 'application/json', cookie: admin.cookieHeader }
    for (const [method, target] of routes) {
      expect413(await sendBody(server.url, method, target, { headers, body: paddedJson({}, BODY_LIMITS.content + 1), mode: 'announce' }))
      // At the limit the body is read and validated: a 400 from the schema, not a 413.
      const atLimit = await sendBody(server.url, method, target, { headers, body: paddedJson(7, BODY_LIMITS.content), mode: 'whole' })
      expect(atLimit.status, `${method} ${target}`).toBe(400)
    }
    // A small-JSON route refuses the same 2 MiB.
    expect413(await sendBody(server.url, 'POST', `/api/edit/games/${game.id}/challenges`, { headers, body: paddedJson({ title: 'big' }, BODY_LIMITS.json + 1), mode: 'chunked' }))
    expect(await countRows(server, 'challenges', 'game_id = ?', [game.id])).toBe(1)
  })

  it('image upload (PUT /api/account/avatar, 3 MiB + envelope): one byte over is 413 and keeps the avatar; at the limit the contract answers', async () => {
    const { user, client } = await createUser(server)
    const over = multipartOfSize(BODY_LIMITS.image + 1, 'file', 'a.png', 'image/png', pngOfSize)
    await expectRefusedBothWays('PUT', '/api/account/avatar', { 'content-type': over.contentType, cookie: client.cookieHeader }, over.body)
    expect((await em().findOneOrFail(User, user.id)).avatarHash).toBeNull()

    // Exactly the limit reaches the endpoint, whose own rule (file > 3 MiB) answers.
    const atLimit = multipartOfSize(BODY_LIMITS.image, 'file', 'a.png', 'image/png', pngOfSize)
    const tooBigFile = await sendBody(server.url, 'PUT', '/api/account/avatar', { headers: { 'content-type': atLimit.contentType, cookie: client.cookieHeader }, body: atLimit.body, mode: 'chunked' })
    expect({ status: tooBigFile.status, body: JSON.parse(tooBigFile.text) }).toEqual({ status: 400, body: { title: '文件过大', status: 400 } })
    // A file of the contract's 3 MiB is stored.
    const largest = multipartFile('file', 'a.png', pngOfSize(IMAGE_MAX_BYTES), 'image/png')
    const stored = await sendBody(server.url, 'PUT', '/api/account/avatar', { headers: { 'content-type': largest.contentType, cookie: client.cookieHeader }, body: largest.body, mode: 'chunked' })
    expect(stored.status, stored.text).toBe(200)
    expect((await em().findOneOrFail(User, user.id)).avatarHash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('write-up upload (20 MiB + envelope): one byte over is 413 and stores nothing; a 20 MiB PDF is stored', async () => {
    const game = await createGame(server)
    const player = await createUser(server)
    const team = await createTeam(server, player.user)
    await createParticipation(server, game, team, [player.user], 'Accepted')
    const target = `/api/game/${game.id}/writeup`
    const over = multipartOfSize(BODY_LIMITS.writeup + 1, 'file', 'wp.pdf', 'application/pdf', pdfOfSize)
    const files = await countRows(server, 'files')
    await expectRefusedBothWays('POST', target, { 'content-type': over.contentType, cookie: player.client.cookieHeader }, over.body)
    expect(await countRows(server, 'files')).toBe(files)

    const largest = multipartFile('file', 'wp.pdf', pdfOfSize(WRITEUP_MAX_BYTES), 'application/pdf')
    const res = await sendBody(server.url, 'POST', target, { headers: { 'content-type': largest.contentType, cookie: player.client.cookieHeader }, body: largest.body, mode: 'chunked' })
    expect(res.status, res.text).toBe(200)
    expect(await countRows(server, 'files')).toBe(files + 1)
  })

  it('asset upload (30,000,000 bytes): one byte over is 413 and stores nothing; the limit itself is stored', async () => {
    const headers = (contentType: string) => ({ 'content-type': contentType, cookie: admin.cookieHeader })
    const over = multipartOfSize(BODY_LIMITS.assets + 1, 'files', 'big.bin', 'application/octet-stream', (n) => Buffer.alloc(n, 1))
    const files = await countRows(server, 'files')
    await expectRefusedBothWays('POST', '/api/assets', headers(over.contentType), over.body)
    expect(await countRows(server, 'files')).toBe(files)

    const atLimit = multipartOfSize(BODY_LIMITS.assets, 'files', 'big.bin', 'application/octet-stream', (n) => Buffer.alloc(n, 2))
    const res = await sendBody(server.url, 'POST', '/api/assets', { headers: headers(atLimit.contentType), body: atLimit.body, mode: 'chunked' })
    expect(res.status, res.text).toBe(200)
    expect(await countRows(server, 'files')).toBe(files + 1)
  })

  it('a multipart body that is mostly preamble or part headers is cut off at the limit too', async () => {
    const { client } = await createUser(server)
    const boundary = 'xyzzy'
    const junk = Buffer.concat([Buffer.alloc(BODY_LIMITS.image + 1, 0x61), Buffer.from(`\r\n--${boundary}--\r\n`)])
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: client.cookieHeader }
    expect413(await sendBody(server.url, 'PUT', '/api/account/avatar', { headers, body: junk, mode: 'chunked' }))
    const longHeader = Buffer.concat([Buffer.from(`--${boundary}\r\nX-Junk: `), Buffer.alloc(BODY_LIMITS.image + 1, 0x61)])
    expect413(await sendBody(server.url, 'PUT', '/api/account/avatar', { headers, body: longHeader, mode: 'chunked' }))
  })

  it('a route that takes no body refuses one announced above 64 KiB without reading it', async () => {
    expect413(await sendBody(server.url, 'GET', '/api/config', { headers: {}, body: Buffer.alloc(BODY_LIMITS.json + 1), mode: 'announce' }))
    expect413(await sendBody(server.url, 'DELETE', `/api/edit/posts/ffffffff`, { headers: { cookie: admin.cookieHeader }, body: Buffer.alloc(BODY_LIMITS.json + 1), mode: 'announce' }))
  })
})

describe('over-long headers', () => {
  it('a 100 KB cookie or User-Agent gets 431, never a 500, and the server keeps answering', async () => {
    const hostile: Record<string, string>[] = [{ cookie: `GZCTF_Token=${'x'.repeat(100_000)}` }, { 'user-agent': 'x'.repeat(100_000) }, { 'x-forwarded-for': '1.2.3.4,'.repeat(12_500) }]
    for (const headers of hostile) {
      const res = await fetch(`${server.url}/api/config`, { headers })
      expect(res.status).toBe(431)
    }
    expect((await server.client().get('/api/config')).status).toBe(200)
  })

  it('a long User-Agent that fits the header limit signs in and is stored cut to 512 characters', async () => {
    const { user, password } = await createUser(server, { emailConfirmed: false })
    await em().nativeUpdate(User, { id: user.id }, { emailConfirmed: true })
    const res = await fetch(`${server.url}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 '.repeat(700) },
      body: JSON.stringify({ userName: user.userName, password }),
    })
    expect(res.status).toBe(200)
    const session = await em().findOneOrFail(Session, { user: user.id })
    expect(session.userAgent).toBe('Mozilla/5.0 '.repeat(700).slice(0, 512))
  })
})

/** Poll /healthz every 20 ms until `done()`; the slowest answer (ms). */
async function pollHealth(done: () => boolean): Promise<number> {
  const client = server.client()
  let slowest = 0
  while (!done()) {
    const started = performance.now()
    expect((await client.get('/healthz')).status).toBe(200)
    slowest = Math.max(slowest, performance.now() - started)
    await new Promise((r) => setTimeout(r, 20))
  }
  return slowest
}

/** The largest event-loop delay (ms) and /healthz latency while `work` runs. */
async function measure(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  await new Promise((r) => setTimeout(r, 100))
  histogram.reset()
  let done = false
  const poll = pollHealth(() => done)
  try {
    await work()
  } finally {
    done = true
    histogram.disable()
  }
  return { maxDelayMs: histogram.max / 1e6, slowestHealth: await poll }
}

/**
 * Run `work` while polling /healthz; the largest event-loop delay and /healthz latency it caused.
 * The same measurement over an idle window of the same length just before is the machine's own
 * noise (other processes taking the cores), added to the limit so that a loaded machine does not
 * fail the test while a stall of the work itself (hundreds of ms to seconds) still does.
 */
async function stallDuring(work: () => Promise<unknown>) {
  const started = performance.now()
  const during = await measure(work)
  const length = Math.min(performance.now() - started, 5_000)
  const idle = await measure(() => new Promise((r) => setTimeout(r, length)))
  return { maxDelayMs: during.maxDelayMs - idle.maxDelayMs, slowestHealth: during.slowestHealth - idle.slowestHealth }
}

/** 1 bit per pixel, so that 25 megapixels fit in 3 MiB. */
function bmp1bit(width: number, height: number): Buffer {
  const stride = Math.ceil(width / 32) * 4
  const offset = 54 + 8
  const b = Buffer.alloc(offset + stride * height)
  b.write('BM', 0, 'latin1')
  b.writeUInt32LE(b.length, 2)
  b.writeUInt32LE(offset, 10)
  b.writeUInt32LE(40, 14)
  b.writeInt32LE(width, 18)
  b.writeInt32LE(height, 22)
  b.writeUInt16LE(1, 26)
  b.writeUInt16LE(1, 28)
  b.writeUInt32LE(stride * height, 34)
  b.writeUInt32LE(2, 46)
  b.writeUInt32LE(0x00ffffff, 58)
  for (let i = offset; i < b.length; i += 3) b[i] = (i * 37) & 0xff
  return b
}

describe('image decoding never stalls the event loop', () => {
  it('a 25-megapixel BMP avatar (decoded by bmp-ts) is processed off the event loop', async () => {
    const { user, client } = await createUser(server)
    const image = bmp1bit(5000, 5000)
    expect(image.length).toBeLessThanOrEqual(IMAGE_MAX_BYTES)
    const { maxDelayMs, slowestHealth } = await stallDuring(async () => {
      const res = await client.upload('PUT', '/api/account/avatar', [['file', 'big.bmp', image, 'image/bmp']])
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatch(/\/avatar\.webp$/)
    })
    expect((await em().findOneOrFail(User, user.id)).avatarHash).toMatch(/^[0-9a-f]{64}$/)
    expect(maxDelayMs).toBeLessThan(250)
    expect(slowestHealth).toBeLessThan(250)
  }, 60_000)

  it('a 64-megapixel PNG poster and three BMP avatars at once all succeed, taking turns, without a stall', async () => {
    const game = await createGame(server)
    const png = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: { r: 10, g: 20, b: 30 } } }).png().toBuffer()
    expect(png.length).toBeLessThanOrEqual(IMAGE_MAX_BYTES)
    const bmp = bmp1bit(3000, 3000)
    const players: TestUser[] = await Promise.all([1, 2, 3].map(() => createUser(server)))
    const { maxDelayMs, slowestHealth } = await stallDuring(async () => {
      const answers = await Promise.all([
        admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'poster.png', png, 'image/png']]),
        ...players.map((p) => p.client.upload('PUT', '/api/account/avatar', [['file', 'a.bmp', bmp, 'image/bmp']])),
      ])
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200])
    })
    expect((await em().findOneOrFail(Game, game.id)).posterHash).toMatch(/^[0-9a-f]{64}$/)
    expect(maxDelayMs).toBeLessThan(250)
    expect(slowestHealth).toBeLessThan(250)
  }, 120_000)
})

describe('validation never stalls the event loop', () => {
  it('a phone number of 60,000 spaces is refused at once (the phone rule once took seconds on it)', async () => {
    const { user, client } = await createUser(server)
    const phone = `1${' '.repeat(60_000)}a`
    const { maxDelayMs } = await stallDuring(async () => {
      for (const res of [
        await client.put('/api/account/update', { phone }),
        await admin.put(`/api/admin/users/${user.id}`, { phone }),
        await admin.post('/api/admin/users', [{ userName: 'spaces', password: 'Passw0rd!', email: 'spaces@example.com', phone }]),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title: '手机号格式错误', status: 400 } })
      }
    })
    expect(maxDelayMs).toBeLessThan(250)
    expect((await em().findOneOrFail(User, user.id)).phone).toBeNull()
  })
})

describe('strings that reach bounded columns', () => {
  const expectError = (res: { status: number; body: unknown }, title: string) => expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title, status: 400 } })

  it('joining a game with a 65-character organization is a 400 and registers nothing (the column holds 64)', async () => {
    const game = await createGame(server)
    const player = await createUser(server)
    const team = await createTeam(server, player.user)
    expectError(await player.client.post(`/api/game/${game.id}`, { teamId: team.id, organization: 'o'.repeat(65) }), '参赛单位名称过长')
    expect(await countRows(server, 'participations', 'game_id = ?', [game.id])).toBe(0)
    expect((await player.client.post(`/api/game/${game.id}`, { teamId: team.id, organization: 'o'.repeat(64) })).status).toBe(200)
  })

  it('a game cannot list an organization longer than a participation can hold', async () => {
    const game = await createGame(server, { organizations: ['A'] })
    const body = { title: game.title, start: game.start.toISOString(), end: game.end.toISOString(), organizations: ['A', 'o'.repeat(65)] }
    expectError(await admin.put(`/api/edit/games/${game.id}`, body), '参赛单位名称过长')
    expect((await em().find(Division, { game: game.id })).map((d) => d.name)).toEqual(['A'])
  })

  it('a flag template that would generate a flag longer than 128 characters is refused and the challenge kept', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicContainer', flagTemplate: 'flag{[GUID]}' })
    expectError(await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { flagTemplate: `flag{${'[GUID]'.repeat(4)}}` }), 'flag 字符串过长')
    expect((await em().findOneOrFail(Challenge, challenge.id)).flagTemplate).toBe('flag{[GUID]}')
  })

  it('an e-mail longer than its column is a 400 in bulk import and admin edit, and changes nothing', async () => {
    const long = `${'a'.repeat(253)}@b.c`
    const users = await countRows(server, 'users')
    expectError(await admin.post('/api/admin/users', [{ userName: 'longmail', password: 'Passw0rd!', email: long }]), '邮箱地址无效')
    expect(await countRows(server, 'users')).toBe(users)
    const { user } = await createUser(server)
    expectError(await admin.put(`/api/admin/users/${user.id}`, { email: long }), '邮箱格式错误')
    expect((await em().findOneOrFail(User, user.id)).email).toBe(user.email)
  })

  it('an e-mail whose upper-cased form outgrows the column (ß → SS) is refused, never a 500', async () => {
    const email = `${'ß'.repeat(130)}@b.c`
    const users = await countRows(server, 'users')
    const res = await server.client().post('/api/account/register', { userName: 'sharpS', password: 'Passw0rd!', email })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ status: 400 })
    expect(await countRows(server, 'users')).toBe(users)
  })
})
