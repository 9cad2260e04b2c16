/**
 * Group `assets` (docs/compatibility.md#group-assets) and `GET /api/admin/files` (docs/compatibility.md#group-admin): content-addressed upload
 * with reference counts, download with strong caching, conditional GET and byte ranges (our
 * improvement over the reference), delete semantics, and proof that file names are only labels.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { LocalFile as LocalFileModel } from '@flagwave/shared/schemas/admin'
import { arrayResponseOf, ProblemDetails } from '@flagwave/shared/schemas/common'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser } from '../support/factories/users.js'
import type { ApiClient } from '../support/client.js'
import { LocalFile } from '../../server/src/entities/LocalFile.js'

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
const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const blobPath = (hash: string) => path.join(server.dataDir, 'files', hash.slice(0, 2), hash.slice(2, 4), hash)
const exists = (p: string) => fs.access(p).then(() => true, () => false)
const fileRow = (hash: string) => em().findOne(LocalFile, { hash })

/** Every regular file under a directory (recursive), relative paths. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort()
}

async function upload(content: string, name = 'file.txt', query = '') {
  const res = await admin.upload('POST', `/api/assets${query}`, [['files', name, content, 'text/plain']])
  expect(res.status).toBe(200)
  return z.array(LocalFileModel).parse(res.body)
}

/** A GET whose path is sent exactly as written (fetch() would resolve `..` segments first). */
function rawGet(pathAsIs: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathAsIs, method: 'GET' }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + url, { headers })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

describe('POST /api/assets', () => {
  it('stores each non-empty `files` part and answers LocalFile[] in upload order', async () => {
    const res = await admin.upload('POST', '/api/assets', [
      ['files', 'one.txt', 'first file'],
      ['files', 'empty.txt', ''],
      ['other', 'ignored.txt', 'not a files part'],
      ['Files', 'two.bin', 'second file'],
    ])
    expect(res.status).toBe(200)
    const files = z.array(LocalFileModel).parse(res.body)
    expect(files).toEqual([
      { hash: sha('first file'), name: 'one.txt' },
      { hash: sha('second file'), name: 'two.bin' },
    ])
    expect(await exists(blobPath(sha('first file')))).toBe(true)
    expect(await fileRow(sha('not a files part'))).toBeNull()
    expect(await exists(blobPath(sha('')))).toBe(false)
  })

  it('the same bytes uploaded twice are stored once, with a reference count of 2 and the first name', async () => {
    const content = `dedupe ${Date.now()}`
    const hash = sha(content)
    await upload(content, 'a.txt')
    const before = await listFiles(path.join(server.dataDir, 'files'))
    const second = await upload(content, 'b.txt')
    // A second uploader never renames a file another owner uses (docs/architecture.md#stored-files).
    expect(second).toEqual([{ hash, name: 'a.txt' }])
    const row = await fileRow(hash)
    expect(row).toMatchObject({ referenceCount: 2, name: 'a.txt', fileSize: Buffer.byteLength(content), contentType: 'text/plain; charset=utf-8' })
    expect((await listFiles(path.join(server.dataDir, 'files'))).filter((f) => f.endsWith(hash))).toHaveLength(1)
    expect(await listFiles(path.join(server.dataDir, 'files'))).toEqual(before)
  })

  it('`filename` stores every part under that name; an empty one is ignored', async () => {
    expect(await upload('renamed content', 'orig.txt', '?filename=chosen.md')).toEqual([{ hash: sha('renamed content'), name: 'chosen.md' }])
    expect(await upload('kept name content', 'orig.txt', '?filename=')).toEqual([{ hash: sha('kept name content'), name: 'orig.txt' }])
  })

  it('a multipart body without `files` answers [] (no rows)', async () => {
    const count = await em().count(LocalFile, {})
    const res = await admin.upload('POST', '/api/assets', [['file', 'x.txt', 'wrong field']])
    expect(res.body).toEqual([])
    expect(await em().count(LocalFile, {})).toBe(count)
  })

  it('401 anonymous, 403 for User and Monitor, 415 for a JSON body', async () => {
    const count = await em().count(LocalFile, {})
    expect((await server.client().upload('POST', '/api/assets', [['files', 'x', 'anon']])).body).toEqual({ title: '请先登录', status: 401 })
    for (const role of ['User', 'Monitor'] as const) {
      const u = await createUser(server, { role })
      expect((await u.client.upload('POST', '/api/assets', [['files', 'x', role]])).body).toEqual({ title: '无权访问', status: 403 })
    }
    expect((await admin.post('/api/assets', { files: [] })).status).toBe(415)
    expect(await em().count(LocalFile, {})).toBe(count)
  })
})

describe('GET /assets/{hash}/{filename}', () => {
  const content = 'The quick brown fox jumps over the lazy dog'
  const hash = sha(content)
  beforeAll(async () => {
    await upload(content, 'fox.txt')
  })

  it('streams the bytes with the stored type, the requested name as download name, and strong caching', async () => {
    const res = await download(`/assets/${hash}/anything.txt`)
    expect(res.status).toBe(200)
    expect(res.bytes.toString()).toBe(content)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="anything.txt"')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('etag')).toBe(`"${hash}"`)
    expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN()
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(res.headers.get('content-length')).toBe(String(content.length))

    // The name in the URL never picks the type (docs/compatibility.md#group-assets).
    for (const name of ['avatar', 'png', 'poster.webp', 'page.html']) {
      expect((await download(`/assets/${hash}/${name}`)).headers.get('content-type')).toBe('text/plain; charset=utf-8')
    }
  })

  it('encodes non-ASCII names per RFC 5987', async () => {
    const res = await download(`/assets/${hash}/${encodeURIComponent('题目附件.zip')}`)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="????.zip"; filename*=UTF-8''${encodeURIComponent('题目附件.zip')}`)
  })

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await download(`/assets/${hash}/a.txt`)
    let res = await download(`/assets/${hash}/a.txt`, { 'If-None-Match': `"${hash}"` })
    expect(res.status).toBe(304)
    expect(res.bytes.length).toBe(0)
    res = await download(`/assets/${hash}/a.txt`, { 'If-Modified-Since': first.headers.get('last-modified')! })
    expect(res.status).toBe(304)
    res = await download(`/assets/${hash}/a.txt`, { 'If-None-Match': '"something-else"' })
    expect(res.status).toBe(200)
  })

  it('serves single byte ranges with 206 and refuses unsatisfiable ones with 416', async () => {
    let res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=4-8' })
    expect(res.status).toBe(206)
    expect(res.bytes.toString()).toBe('quick')
    expect(res.headers.get('content-range')).toBe(`bytes 4-8/${content.length}`)
    expect(res.headers.get('content-length')).toBe('5')

    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=-3' })
    expect(res.status).toBe(206)
    expect(res.bytes.toString()).toBe('dog')
    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=40-' })
    expect(res.bytes.toString()).toBe('dog')
    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=40-1000' })
    expect(res.headers.get('content-range')).toBe(`bytes 40-42/${content.length}`)

    res = await download(`/assets/${hash}/a.txt`, { Range: `bytes=${content.length}-` })
    expect(res.status).toBe(416)
    expect(res.headers.get('content-range')).toBe(`bytes */${content.length}`)

    // Several ranges, or a stale If-Range: the whole file.
    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=0-1,4-5' })
    expect(res.status).toBe(200)
    expect(res.bytes.toString()).toBe(content)
    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=0-2', 'If-Range': '"other"' })
    expect(res.status).toBe(200)
    res = await download(`/assets/${hash}/a.txt`, { Range: 'bytes=0-2', 'If-Range': `"${hash}"` })
    expect(res.status).toBe(206)
    expect(res.bytes.toString()).toBe('The')
  })

  it('HEAD answers the headers without a body', async () => {
    const res = await fetch(`${server.url}/assets/${hash}/a.txt`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(content.length))
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  it('a hash of another length matches no endpoint; a 64-character non-lowercase-hex hash is 400; unknown is 404', async () => {
    expect((await server.client().get(`/assets/${hash.slice(1)}/a.txt`)).status).toBe(404)
    expect((await server.client().get(`/assets/${hash}`)).status).toBe(404)
    let res = await server.client().get(`/assets/${hash.toUpperCase()}/a.txt`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ title: "The field hash must match the regular expression '[0-9a-f]{64}'.", status: 400 })
    res = await server.client().get(`/assets/${'0'.repeat(64)}/a.txt`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ title: '文件不存在', status: 404 })
  })

  it('file names are only labels: traversal names never reach the file system', async () => {
    const secret = path.join(server.dataDir, 'secret.txt')
    await fs.writeFile(secret, 'top secret')
    const outside = await listFiles(server.dataDir)

    // Uploading under traversal names stores by hash only.
    const stored = await upload('payload', '../../escape.txt', '')
    expect(stored[0].name).toBe('../../escape.txt')
    const renamed = await upload('payload2', 'x.txt', `?filename=${encodeURIComponent('../../../etc/evil')}`)
    expect(renamed[0].name).toBe('../../../etc/evil')
    const after = (await listFiles(server.dataDir)).filter((f) => !outside.includes(f))
    expect(after.every((f) => f.startsWith('files/'))).toBe(true)
    expect(after.some((f) => /escape|evil/.test(f))).toBe(false)
    expect(await exists(path.join(server.dataDir, '..', 'escape.txt'))).toBe(false)

    // Downloading with traversal names answers the blob of the hash, never another file.
    for (const name of ['..%2f..%2fsecret.txt', '..%2F..%2F..%2Fetc%2Fpasswd', '..', '%2e%2e', '..%5c..%5csecret.txt']) {
      const res = await rawGet(`/assets/${hash}/${name}`)
      expect({ name, status: res.status }).toEqual({ name, status: 200 })
      expect(res.body).toBe(content)
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=/)
    }
    // A "hash" made of traversal segments is refused before any file access.
    const evilHash = '..%2F'.repeat(21) + 'a' // 64 characters once decoded: "../../…/a"
    expect((await rawGet(`/assets/${evilHash}/secret.txt`)).status).toBe(400)
    expect((await rawGet(`/assets/${'..%2F'.repeat(12) + 'abcd'}/secret.txt`)).status).toBe(404)
    expect((await rawGet(`/assets/../secret.txt`)).status).toBe(404)
    expect((await rawGet(`/assets/${hash}/../../secret.txt`)).status).toBe(404)
    expect(await fs.readFile(secret, 'utf8')).toBe('top secret')
  })
})

describe('DELETE /api/assets/{hash}', () => {
  it('drops one reference at a time; the last one removes record and blob', async () => {
    const content = `shared ${Date.now()}`
    const hash = sha(content)
    await upload(content, 'one.txt')
    await upload(content, 'two.txt')
    let res = await admin.delete(`/api/assets/${hash}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect((await fileRow(hash))?.referenceCount).toBe(1)
    expect((await download(`/assets/${hash}/two.txt`)).bytes.toString()).toBe(content)
    res = await admin.delete(`/api/assets/${hash}`)
    expect(res.status).toBe(200)
    expect(await fileRow(hash)).toBeNull()
    expect(await exists(blobPath(hash))).toBe(false)
    expect((await download(`/assets/${hash}/two.txt`)).status).toBe(404)
  })

  it('404 ProblemDetails for an unknown hash, and when the blob is already gone (record removed)', async () => {
    let res = await admin.delete(`/api/assets/${'f'.repeat(64)}`)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(ProblemDetails.parse(res.body)).toMatchObject({ title: 'Not Found', status: 404, type: 'https://tools.ietf.org/html/rfc7231#section-6.5.4' })

    const content = `vanishing ${Date.now()}`
    const hash = sha(content)
    await upload(content)
    await fs.rm(blobPath(hash))
    res = await admin.delete(`/api/assets/${hash}`)
    expect(res.status).toBe(404)
    expect(await fileRow(hash)).toBeNull()
    expect((await admin.delete(`/api/assets/${'f'.repeat(63)}`)).status).toBe(404)
  })

  it('401 anonymous, 403 User and Monitor; nothing changes', async () => {
    const content = `guarded ${Date.now()}`
    const hash = sha(content)
    await upload(content)
    expect((await server.client().delete(`/api/assets/${hash}`)).status).toBe(401)
    for (const role of ['User', 'Monitor'] as const) {
      const u = await createUser(server, { role })
      expect((await u.client.delete(`/api/assets/${hash}`)).body).toEqual({ title: '无权访问', status: 403 })
    }
    expect((await fileRow(hash))?.referenceCount).toBe(1)
  })
})

describe('GET /api/admin/files', () => {
  it('lists files by name; total is the page length; count and skip page', async () => {
    for (const [name, data] of [['zz-last.txt', 'last'], ['aa-first.txt', 'first!'], ['mm-middle.txt', 'middle']]) await upload(data, name)
    const res = await admin.get('/api/admin/files?count=1000')
    expect(res.status).toBe(200)
    const page = arrayResponseOf(LocalFileModel).parse(res.body)
    const names = page.data.map((f) => f.name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(page.length).toBe(page.data.length)
    expect(page.total).toBe(page.data.length)
    const second = (await admin.get('/api/admin/files?count=1&skip=1')).body
    expect(second).toEqual({ data: [page.data[1]], length: 1, total: 1 })
    expect((await admin.get('/api/admin/files')).body.data.length).toBeLessThanOrEqual(50)
    expect((await admin.get('/api/admin/files?count=abc')).body).toEqual({ title: "The value 'abc' is not valid for count.", status: 400 })
  })

  it('401, 403 for User and Monitor', async () => {
    expect((await server.client().get('/api/admin/files')).status).toBe(401)
    const monitor = await createUser(server, { role: 'Monitor' })
    expect((await monitor.client.get('/api/admin/files')).status).toBe(403)
  })
})

describe('audit', () => {
  it('records uploads and deletes', async () => {
    const content = `audited ${Date.now()}`
    await upload(content, 'audit.txt')
    await admin.delete(`/api/assets/${sha(content)}`)
    const rows = await em().execute<{ message: string }[]>('select message from logs')
    expect(rows.some((r) => r.message.startsWith(`更新文件 [${sha(content).slice(0, 8)}] audit.txt`))).toBe(true)
    expect(rows.some((r) => r.message.startsWith(`删除文件 [${sha(content).slice(0, 8)}]`))).toBe(true)
  })
})
