/**
 * PUT /api/account/avatar (docs/compatibility.md#group-account, #file-and-image-urls): content-checked images, GIFs kept byte for
 * byte, everything else 300 px wide WebP, file references released on replacement, and the
 * error titles of the contract.
 */
import { createHash, randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import sharp, { type Sharp } from 'sharp'
import { IMAGE_MAX_BYTES } from '@flagwave/shared/limits'
import { ProfileUserInfoModel } from '@flagwave/shared/schemas/account'
import { User } from '../../server/src/entities/User.js'
import { LocalFile } from '../../server/src/entities/LocalFile.js'
import { LogEntry } from '../../server/src/entities/LogEntry.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient, ApiResponse } from '../support/client.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

const em = () => server.services.orm.em.fork()
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex')
/** A colour of a test's own: a retry's image is a new file with its own references, not the first try's. */
const ownColour = () => ({ r: randomInt(256), g: randomInt(256), b: randomInt(256) })
const AVATAR_URL = /^\/assets\/([0-9a-f]{64})\/avatar\.(webp|gif)$/

function upload(client: ApiClient, data: Uint8Array | string, name = 'avatar.png', type = 'image/png') {
  return client.upload('PUT', '/api/account/avatar', [['file', name, data, type]])
}

function expectError(res: ApiResponse, status: number, title: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status } })
}

/** The stored bytes behind an avatar URL; through GET /assets when that endpoint answers, else from the store. */
async function storedBytes(url: string): Promise<Buffer> {
  const hash = AVATAR_URL.exec(url)![1]
  expect(await server.services.storage.has(hash)).toBe(true)
  const chunks: Buffer[] = []
  for await (const chunk of await server.services.storage.open(hash)) chunks.push(chunk as Buffer)
  const bytes = Buffer.concat(chunks)
  expect(sha256(bytes)).toBe(hash)
  const served = await fetch(server.url + url)
  if (served.status !== 404) {
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
  }
  return bytes
}

let seed = 0
/**
 * A 40 × 20 image: red top half, blue bottom half, and one corner pixel that differs from call
 * to call (the store is content-addressed, so tests must not share files by accident).
 */
function twoTone(): Sharp {
  const raw = Buffer.alloc(40 * 20 * 3)
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 40; x++) raw.set(y < 10 ? [255, 0, 0] : [0, 0, 255], (y * 40 + x) * 3)
  seed += 1
  raw.set([seed & 0xff, (seed >> 8) & 0xff, 128], 0)
  return sharp(raw, { raw: { width: 40, height: 20, channels: 3 } })
}

/** A hand-written uncompressed BMP (BITMAPINFOHEADER, bottom-up). 24-bit, or 8-bit with a palette. */
function bmp(bits: 24 | 8, width: number, height: number, color: (x: number, y: number) => [number, number, number]): Buffer {
  const palette: [number, number, number][] = []
  const index = new Map<string, number>()
  if (bits === 8) {
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const key = color(x, y).join()
        if (!index.has(key)) {
          index.set(key, palette.length)
          palette.push(color(x, y))
        }
      }
  }
  const stride = Math.ceil((width * bits) / 32) * 4
  const offset = 54 + palette.length * 4
  const buf = Buffer.alloc(offset + stride * height)
  buf.write('BM', 0, 'latin1')
  buf.writeUInt32LE(buf.length, 2)
  buf.writeUInt32LE(offset, 10)
  buf.writeUInt32LE(40, 14)
  buf.writeInt32LE(width, 18)
  buf.writeInt32LE(height, 22)
  buf.writeUInt16LE(1, 26)
  buf.writeUInt16LE(bits, 28)
  buf.writeUInt32LE(stride * height, 34)
  buf.writeUInt32LE(palette.length, 46)
  palette.forEach(([r, g, b], i) => buf.set([b, g, r, 0], 54 + i * 4))
  for (let row = 0; row < height; row++) {
    const y = height - 1 - row
    for (let x = 0; x < width; x++) {
      const [r, g, b] = color(x, y)
      if (bits === 24) buf.set([b, g, r], offset + row * stride + x * 3)
      else buf[offset + row * stride + x] = index.get([r, g, b].join())!
    }
  }
  return buf
}

/** Decode a stored WebP and check size and the two-tone colours (lossy: approximately). */
async function expectTwoToneWebp(bytes: Buffer): Promise<void> {
  const meta = await sharp(bytes).metadata()
  expect(meta.format).toBe('webp')
  expect([meta.width, meta.height]).toEqual([300, 150])
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)]
  const close = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]) < 40)
  expect(close(at(150, 30), [255, 0, 0]), `top is red: ${at(150, 30)}`).toBe(true)
  expect(close(at(150, 120), [0, 0, 255]), `bottom is blue: ${at(150, 120)}`).toBe(true)
}

describe('PUT /api/account/avatar', () => {
  it.each(['png', 'jpeg', 'webp', 'tiff'] as const)('accepts %s, whatever its name and declared type, as a 300 px wide WebP', async (format) => {
    const { client, user } = await createUser(server)
    const bytes = await twoTone().toFormat(format).toBuffer()
    const res = await upload(client, bytes, 'upload.bin', 'application/octet-stream')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.body).toMatch(AVATAR_URL)
    expect(res.body).toMatch(/\.webp$/)
    const hash = AVATAR_URL.exec(res.body)![1]
    await expectTwoToneWebp(await storedBytes(res.body))

    const profile = ProfileUserInfoModel.parse((await client.get('/api/account/profile')).body)
    expect(profile.avatar).toBe(`/assets/${hash}/avatar`)
    expect((await em().findOneOrFail(User, { id: user.id })).avatarHash).toBe(hash)
    expect(await em().findOne(LocalFile, { hash })).toMatchObject({ name: 'avatar.webp', referenceCount: 1 })
    const log = await em().find(LogEntry, { userName: user.userName, message: `更改新头像：[${hash.slice(0, 8)}]` })
    expect(log).toHaveLength(1)
  })

  it('accepts BMP (24-bit and 8-bit palette) as a 300 px wide WebP', async () => {
    const { client } = await createUser(server)
    const color = (_x: number, y: number): [number, number, number] => (y < 10 ? [255, 0, 0] : [0, 0, 255])
    for (const bits of [24, 8] as const) {
      const res = await upload(client, bmp(bits, 40, 20, color), 'a.bmp', 'image/bmp')
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body).toMatch(/\.webp$/)
      await expectTwoToneWebp(await storedBytes(res.body))
    }
  })

  it('keeps a GIF byte for byte (animation included) as avatar.gif', async () => {
    const { client, user } = await createUser(server)
    const red = await sharp({ create: { width: 20, height: 10, channels: 3, background: ownColour() } }).png().toBuffer()
    const blue = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#0000ff' } }).png().toBuffer()
    const gif = await sharp([red, blue], { join: { animated: true } }).gif({ delay: [100, 100] }).toBuffer()
    const res = await upload(client, gif, 'moving.png', 'image/png')
    expect(res.status).toBe(200)
    expect(res.body).toBe(`/assets/${sha256(gif)}/avatar.gif`)
    expect((await storedBytes(res.body)).equals(gif)).toBe(true)
    expect((await sharp(await storedBytes(res.body), { pages: -1 }).metadata()).pages).toBe(2)
    expect(await em().findOne(LocalFile, { hash: sha256(gif) })).toMatchObject({ name: 'avatar.gif', referenceCount: 1 })
    expect((await client.get('/api/account/profile')).body.avatar).toBe(`/assets/${sha256(gif)}/avatar`)
    expect((await em().findOneOrFail(User, { id: user.id })).avatarHash).toBe(sha256(gif))
  })

  it('releases the previous avatar: its blob goes with the last reference', async () => {
    const { client } = await createUser(server)
    const first = await upload(client, await twoTone().png().toBuffer())
    const firstHash = AVATAR_URL.exec(first.body)![1]
    const secondImage = await twoTone().flip().png().toBuffer()
    const second = await upload(client, secondImage)
    const secondHash = AVATAR_URL.exec(second.body)![1]
    expect(secondHash).not.toBe(firstHash)
    expect(await em().findOne(LocalFile, { hash: firstHash })).toBeNull()
    expect(await server.services.storage.has(firstHash)).toBe(false)
    expect(await server.services.storage.has(secondHash)).toBe(true)

    // The same picture again: one reference, still stored.
    const again = await upload(client, secondImage)
    expect(again.body).toBe(second.body)
    expect(await em().findOne(LocalFile, { hash: secondHash })).toMatchObject({ referenceCount: 1 })
    expect(await server.services.storage.has(secondHash)).toBe(true)
  })

  it('keeps a shared file while another user still uses it', async () => {
    const a = await createUser(server)
    const b = await createUser(server)
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: ownColour() } }).gif().toBuffer()
    const hash = sha256(gif)
    await upload(a.client, gif, 'g.gif', 'image/gif')
    await upload(b.client, gif, 'g.gif', 'image/gif')
    expect(await em().findOne(LocalFile, { hash })).toMatchObject({ referenceCount: 2 })
    await upload(a.client, await twoTone().png().toBuffer())
    expect(await em().findOne(LocalFile, { hash })).toMatchObject({ referenceCount: 1 })
    expect(await server.services.storage.has(hash)).toBe(true)
  })

  it.each([
    ['text named .png', Buffer.from('definitely not an image, just text'), 'x.png', 'image/png'],
    ['a PNG signature followed by garbage', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]), 'x.png', 'image/png'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'), 'x.svg', 'image/svg+xml'],
    ['a truncated BMP', bmp(24, 40, 20, () => [1, 2, 3]).subarray(0, 300), 'x.bmp', 'image/bmp'],
    ['a BMP claiming a huge size', (() => { const b = bmp(24, 4, 4, () => [1, 2, 3]); b.writeInt32LE(100_000, 18); b.writeInt32LE(100_000, 22); return b })(), 'x.bmp', 'image/bmp'],
  ])('refuses %s with 用户头像更新失败 and changes nothing', async (_label, bytes, name, type) => {
    const { client, user } = await createUser(server)
    const files = await em().count(LocalFile, {})
    expectError(await upload(client, bytes, name, type), 400, '用户头像更新失败')
    expect((await em().findOneOrFail(User, { id: user.id })).avatarHash).toBeNull()
    expect(await em().count(LocalFile, {})).toBe(files)
  })

  it('keeps the current avatar when an upload fails', async () => {
    const { client, user } = await createUser(server)
    const ok = await upload(client, await twoTone().png().toBuffer())
    const hash = AVATAR_URL.exec(ok.body)![1]
    expectError(await upload(client, 'junk'), 400, '用户头像更新失败')
    expect((await em().findOneOrFail(User, { id: user.id })).avatarHash).toBe(hash)
    expect(await server.services.storage.has(hash)).toBe(true)
  })

  it('answers 文件非法 for an empty file and 文件过大 above 3 MiB', async () => {
    const { client } = await createUser(server)
    expectError(await upload(client, new Uint8Array(0)), 400, '文件非法')
    expectError(await upload(client, new Uint8Array(IMAGE_MAX_BYTES + 1)), 400, '文件过大')
    // Exactly 3 MiB is not too large (it is just not an image).
    expectError(await upload(client, new Uint8Array(IMAGE_MAX_BYTES)), 400, '用户头像更新失败')
  })

  it('answers The file field is required. without a file part, and 415 for a non-multipart body', async () => {
    const { client } = await createUser(server)
    expectError(await client.upload('PUT', '/api/account/avatar', [['image', 'a.png', await twoTone().png().toBuffer(), 'image/png']]), 400, 'The file field is required.')
    const form = new FormData()
    form.append('note', 'no file here')
    expectError(await client.request('PUT', '/api/account/avatar', { body: form }), 400, 'The file field is required.')
    const json = await client.put('/api/account/avatar', { file: 'x' })
    expect(json.status).toBe(415)
    expect(json.body).toMatchObject({ title: 'Unsupported Media Type', status: 415 })
  })

  it('answers 401 anonymous (before looking at the body) and 403 banned', async () => {
    expectError(await upload(server.client(), await twoTone().png().toBuffer()), 401, '请先登录')
    expectError(await server.client().put('/api/account/avatar', { file: 'x' }), 401, '请先登录')
    const { client } = await createUser(server, { role: 'Banned' })
    expectError(await upload(client, await twoTone().png().toBuffer()), 403, '无权访问')
  })
})
