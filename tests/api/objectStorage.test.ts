/**
 * Stored files and traffic captures on an S3-compatible bucket (STORAGE_URL=s3://…,
 * docs/operations.md#object-storage), through the HTTP routes, against a real S3 server started
 * here (tests/support/s3.ts): uploads land in the bucket and nowhere on the node's disk,
 * downloads stream back whole or by range, deletes remove the object, captures are listed and
 * served from the bucket — and with the bucket down every route answers a clear error, nothing
 * is committed without its bytes, /readyz names the store, and everything is back once it returns.
 */
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { startS3, type TestS3 } from '../support/s3.js'
import { createChallenge, createGame, fileRow, storeCapture } from '../support/factories/games.js'
import { createPlayer } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import { parseStorageUrl, type S3Location } from '../../server/src/storage/location.js'
import { s3Stores } from '../../server/src/storage/s3.js'
import { User } from '../../server/src/entities/User.js'

let s3: TestS3
let server: TestServer
let admin: ApiClient
const PREFIX = 'node'

beforeAll(async () => {
  s3 = await startS3()
  server = await startTestServer({ env: { STORAGE_URL: s3.storageUrl(PREFIX) } })
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
  await s3?.close()
})

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

async function download(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(server.url + url, { headers })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

async function localFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name))
}

async function upload(data: Buffer, name: string) {
  return admin.upload('POST', '/api/assets', [['files', name, data, 'application/octet-stream']])
}

describe('files on S3', () => {
  it('parses the configured URL into the bucket, prefix and path style', () => {
    expect(server.services.config.storage).toMatchObject({ kind: 's3', bucket: 'flagwave-test', prefix: 'node/', forcePathStyle: true, endpoint: `http://127.0.0.1:${s3.port}` })
  })

  it('uploads into the bucket under the content hash, streams it back, honours ranges and deletes it', async () => {
    const data = randomBytes(300_000)
    const hash = sha256(data)
    const res = await upload(data, 'blob.bin')
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ hash, name: 'blob.bin' }])
    expect((await s3.object(`${PREFIX}/files/${hash}`))?.equals(data)).toBe(true)
    // Nothing of the file stays on the node: staging is emptied and there is no files/ tree.
    expect(await localFiles(path.join(server.dataDir, 'files'))).toEqual([])
    expect(await localFiles(path.join(server.dataDir, 'spool', 'staging'))).toEqual([])

    const whole = await download(`/assets/${hash}/blob.bin`)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('content-length')).toBe(String(data.length))
    expect(whole.bytes.equals(data)).toBe(true)

    const part = await download(`/assets/${hash}/blob.bin`, { range: 'bytes=1000-1999' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`)
    expect(part.bytes.equals(data.subarray(1000, 2000))).toBe(true)

    const tail = await download(`/assets/${hash}/blob.bin`, { range: 'bytes=-10' })
    expect(tail.status).toBe(206)
    expect(tail.bytes.equals(data.subarray(data.length - 10))).toBe(true)

    const outside = await download(`/assets/${hash}/blob.bin`, { range: `bytes=${data.length}-` })
    expect(outside.status).toBe(416)
    expect(outside.headers.get('content-range')).toBe(`bytes */${data.length}`)
    expect(JSON.parse(outside.bytes.toString())).toEqual({ title: 'Range Not Satisfiable', status: 416 })

    // A validator that no longer matches gets the whole file.
    const stale = await download(`/assets/${hash}/blob.bin`, { range: 'bytes=0-9', 'if-range': '"something-else"' })
    expect(stale.status).toBe(200)
    expect(stale.bytes.length).toBe(data.length)

    const removed = await admin.delete(`/api/assets/${hash}`)
    expect(removed.status).toBe(200)
    expect(await s3.object(`${PREFIX}/files/${hash}`)).toBeNull()
    expect(await fileRow(server, hash)).toBeNull()
    expect((await download(`/assets/${hash}/blob.bin`)).status).toBe(404)
  })

  it('keeps shared bytes once and deletes the object only with its last reference', async () => {
    const data = randomBytes(2048)
    const hash = sha256(data)
    expect((await upload(data, 'one.bin')).status).toBe(200)
    expect((await upload(data, 'two.bin')).status).toBe(200)
    expect(await s3.keys(`${PREFIX}/files/${hash}`)).toEqual([`${PREFIX}/files/${hash}`])
    expect((await admin.delete(`/api/assets/${hash}`)).status).toBe(200)
    expect((await s3.object(`${PREFIX}/files/${hash}`))?.equals(data)).toBe(true)
    expect((await admin.delete(`/api/assets/${hash}`)).status).toBe(200)
    expect(await s3.object(`${PREFIX}/files/${hash}`)).toBeNull()
  })
})

describe('captures on S3', () => {
  it('lists and serves a team capture from the bucket, by range and as a zip', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { title: 'Sniffed', type: 'StaticContainer', enableTrafficCapture: true })
    const player = await createPlayer(server, game)
    const monitor = await createUser(server, { role: 'Monitor' })
    const data = randomBytes(4096)
    const name = '20261125-10.00.00-conn.pcap'
    await storeCapture(server, challenge.id, player.participation.id, name, data)
    const key = `${PREFIX}/captures/${challenge.id}/${player.participation.id}/${name}`
    expect((await s3.object(key))?.equals(data)).toBe(true)
    expect(await localFiles(path.join(server.dataDir, 'spool', 'captures'))).toEqual([])

    expect((await monitor.client.get(`/api/game/games/${game.id}/captures`)).body).toEqual([expect.objectContaining({ id: challenge.id, count: 1 })])
    expect((await monitor.client.get(`/api/game/captures/${challenge.id}`)).body).toEqual([expect.objectContaining({ id: player.participation.id, count: 1 })])
    const records = await monitor.client.get(`/api/game/captures/${challenge.id}/${player.participation.id}`)
    expect(records.body).toEqual([expect.objectContaining({ fileName: name, size: data.length })])

    const headers = { cookie: monitor.client.cookieHeader }
    const base = `/api/game/captures/${challenge.id}/${player.participation.id}`
    const whole = await download(`${base}/${name}`, headers)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('application/octet-stream')
    expect(whole.bytes.equals(data)).toBe(true)
    const part = await download(`${base}/${name}`, { ...headers, range: 'bytes=24-99' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 24-99/${data.length}`)
    expect(part.bytes.equals(data.subarray(24, 100))).toBe(true)

    const zip = await download(`${base}/all`, headers)
    expect(zip.status).toBe(200)
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK')
    expect(zip.bytes.includes(Buffer.from(name))).toBe(true)
    expect((await monitor.client.get(`${base}/missing.pcap`)).body).toEqual({ title: '未找到相关捕获信息', status: 400 })
  })
})

describe('with the bucket unreachable', () => {
  it('answers clear errors, commits nothing without its bytes, reports it in /readyz, and recovers', async () => {
    const kept = randomBytes(1024)
    const keptHash = sha256(kept)
    expect((await upload(kept, 'kept.bin')).status).toBe(200)
    const user = await createUser(server)
    const before = await server.services.orm.em.fork().findOneOrFail(User, { id: user.user.id })
    expect((await server.client().get('/readyz')).body).toMatchObject({ status: 'Ready', checks: { storage: 'ok', database: 'ok' } })

    await s3.stop()
    try {
      const ready = await server.client().get('/readyz')
      expect(ready.status).toBe(503)
      expect(ready.body).toEqual({ title: 'Not ready: storage', status: 503, checks: expect.objectContaining({ storage: 'failed', database: 'ok' }) })

      // The contract's upload error, and no row for bytes that never reached the bucket.
      const fresh = randomBytes(512)
      const refused = await upload(fresh, 'fresh.bin')
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ title: '遇到IO错误', status: 400 })
      expect(await fileRow(server, sha256(fresh))).toBeNull()

      // Any other route that stores a file: 503 in the contract's error shape, the owner unchanged.
      const avatar = await user.client.upload('PUT', '/api/account/avatar', [['file', 'a.png', await pngBytes(), 'image/png']])
      expect(avatar.status).toBe(503)
      expect(avatar.body).toEqual({ title: '存储服务暂不可用', status: 503 })
      expect(avatar.headers.get('retry-after')).toBe('30')
      const after = await server.services.orm.em.fork().findOneOrFail(User, { id: user.user.id })
      expect(after.avatarHash).toBe(before.avatarHash)

      const unreachable = await download(`/assets/${keptHash}/kept.bin`)
      expect(unreachable.status).toBe(503)
      expect(JSON.parse(unreachable.bytes.toString())).toEqual({ title: '存储服务暂不可用', status: 503 })

      // Deleting needs the store too: refused, the row and its reference stay.
      const deleting = await admin.delete(`/api/assets/${keptHash}`)
      expect(deleting.status).toBe(503)
      expect(await fileRow(server, keptHash)).toMatchObject({ referenceCount: 1 })
    } finally {
      await s3.restart()
    }
    expect((await server.client().get('/readyz')).status).toBe(200)
    const back = await download(`/assets/${keptHash}/kept.bin`)
    expect(back.status).toBe(200)
    expect(back.bytes.equals(kept)).toBe(true)
  })

  it('keeps a capture finished during the outage in the spool and uploads it when the bucket is back', async () => {
    const location = parseStorageUrl(s3.storageUrl('retry'), server.dataDir).location as S3Location
    const spoolRoot = await fs.mkdtemp(path.join(server.dataDir, 'retry-'))
    const stores = s3Stores(location, spoolRoot, pino({ level: 'silent' }), 200)
    try {
      const ref = { challengeId: 7, participationId: 9, name: 'outage.pcap' }
      const data = randomBytes(777)
      await s3.stop()
      const file = stores.captures.spoolPath(ref)
      await fs.mkdir(path.dirname(file), { recursive: true })
      await fs.writeFile(file, data)
      await stores.captures.keep(ref)
      expect((await fs.readFile(file)).equals(data)).toBe(true)
      await s3.restart()
      const deadline = Date.now() + 10_000
      while ((await s3.object(`retry/captures/7/9/outage.pcap`)) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect((await s3.object(`retry/captures/7/9/outage.pcap`))?.equals(data)).toBe(true)
      expect(await fs.stat(file).catch(() => null)).toBeNull()
      expect((await stores.captures.files(7, 9))?.map((f) => f.name)).toEqual(['outage.pcap'])
    } finally {
      stores.close()
    }
  })
})

async function pngBytes(): Promise<Buffer> {
  const sharp = (await import('sharp')).default
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer()
}
