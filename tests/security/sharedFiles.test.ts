/**
 * Stored files are shared by content hash (docs/architecture.md#stored-files): many owners —
 * user avatars, team avatars, write-ups, challenge and flag attachments, admin uploads — may hold
 * references on the same bytes at the same moment. These attacks upload, replace and delete the
 * same and different bytes concurrently and then check the books: every reference count equals the
 * references that exist, no row is left at zero, no blob lacks a row (or a row its blob), every
 * file still referenced is served, a second uploader never renames a file, and the Content-Type
 * of a download comes from what the bytes are, never from the name in the URL.
 */
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { LocalFile as LocalFileModel } from '@flagwave/shared/schemas/admin'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'
import { BasicWriteupInfoModel, WriteupInfoModel } from '@flagwave/shared/schemas/play'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient, ApiResponse } from '../support/client.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createPlayer, type Player } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { PNG_2X2 } from '../support/fixtures.js'

let server: TestServer
let admin: ApiClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
})

const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex')
const sql = <T>(query: string, params: unknown[] = []) => server.services.orm.em.fork().getConnection().execute<T[]>(query, params)

/** A GIF (kept byte for byte by the avatar endpoints) of one colour. */
const gif = (r: number, g: number, b: number) => sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g, b } } }).gif().toBuffer()
/** A small PDF, distinct per `tag`. */
const pdf = (tag: string) => Buffer.from(`%PDF-1.4\n% ${tag}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`)

function ok(label: string, res: ApiResponse): void {
  expect({ label, status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ label, status: 200, body: null })
}

async function download(url: string) {
  const res = await fetch(server.url + url)
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

async function expectServed(label: string, url: string | null, bytes: Buffer): Promise<void> {
  expect({ label, url: url !== null }).toEqual({ label, url: true })
  const res = await download(url!)
  expect({ label, status: res.status, sha: sha(res.bytes) }).toEqual({ label, status: 200, sha: sha(bytes) })
}

const uploadAsset = (data: Buffer, name: string) => admin.upload('POST', '/api/assets', [['files', name, data, 'application/octet-stream']])
const userAvatar = (client: ApiClient, data: Buffer) => client.upload('PUT', '/api/account/avatar', [['file', 'a.gif', data, 'image/gif']])
const teamAvatar = (p: Player, data: Buffer) => p.client.upload('PUT', `/api/team/${p.team.id}/avatar`, [['file', 't.gif', data, 'image/gif']])
const writeup = (p: Player, gameId: number, data: Buffer) => p.client.upload('POST', `/api/game/${gameId}/writeup`, [['file', 'wp.pdf', data, 'application/pdf']])
const challengeUrl = (gameId: number, challengeId: number) => `/api/edit/games/${gameId}/challenges/${challengeId}`

/** Every blob under the data directory's store (by hash), and whatever else lies there. */
async function blobsOnDisk(): Promise<{ hashes: string[]; strays: string[] }> {
  const root = path.join(server.dataDir, 'files')
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)))
  const hashes = files.filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f)).map((f) => path.basename(f))
  return { hashes: hashes.sort(), strays: files.filter((f) => !/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f)) }
}

/**
 * The books balance: each `files` row counts exactly the rows that reference it plus the admin
 * uploads still held (`adminRefs`), no count is zero or less, every referenced hash has a row,
 * and the blobs on disk are exactly the rows.
 */
async function expectBalancedBooks(adminRefs: ReadonlyMap<string, number>): Promise<void> {
  const rows = await sql<{ hash: string; reference_count: number; owners: string }>(`
    select f.hash, f.reference_count,
      (select count(*) from users where avatar_hash = f.hash)
      + (select count(*) from teams where avatar_hash = f.hash)
      + (select count(*) from games where poster_hash = f.hash)
      + (select count(*) from participations where writeup_hash = f.hash)
      + (select count(*) from attachments where type = 'Local' and file_hash = f.hash) as owners
    from files f order by f.hash`)
  const books = rows.map((r) => ({ hash: r.hash, count: r.reference_count, expected: Number(r.owners) + (adminRefs.get(r.hash) ?? 0) }))
  expect(books.filter((b) => b.count !== b.expected)).toEqual([])
  expect(rows.filter((r) => r.reference_count <= 0)).toEqual([])
  const dangling = await sql<{ hash: string }>(`
    select h as hash from (
      select avatar_hash as h from users union all select avatar_hash from teams union all select poster_hash from games
      union all select writeup_hash from participations union all select file_hash from attachments where type = 'Local'
    ) refs where h is not null and h not in (select hash from files)`)
  expect(dangling).toEqual([])
  const disk = await blobsOnDisk()
  expect(disk.strays).toEqual([])
  expect(disk.hashes).toEqual(rows.map((r) => r.hash).sort())
}

describe('concurrent owners of the same bytes', () => {
  let game: Game
  let statics: Challenge[]
  let dynamic: Challenge
  let gifs: Buffer[]
  let pdfs: Buffer[]
  let users: TestUser[]
  let players: Player[]

  beforeAll(async () => {
    game = await createGame(server)
    statics = await Promise.all([0, 1, 2].map(() => createChallenge(server, game, { type: 'StaticAttachment' })))
    dynamic = await createChallenge(server, game, { type: 'DynamicAttachment', flags: [] })
    gifs = await Promise.all([gif(255, 0, 0), gif(0, 255, 0), gif(0, 0, 255)])
    pdfs = ['one', 'two', 'three'].map(pdf)
    users = []
    for (let i = 0; i < 12; i++) users.push(await createUser(server))
    players = []
    for (let i = 0; i < 10; i++) players.push(await createPlayer(server, game))
  })

  it('uploads, replacements and deletions at the same moment never lose a reference or leave a blob behind', async () => {
    const adminRefs = new Map<string, number>()
    const holdAdminRef = (hash: string, delta: number) => adminRefs.set(hash, (adminRefs.get(hash) ?? 0) + delta)
    const userBytes = new Map<string, Buffer | null>()
    const teamBytes = new Map<number, Buffer | null>()
    const writeupBytes = new Map<number, Buffer | null>()

    // Round 1: everyone uploads at once; the same GIFs and PDFs are also uploaded by the admin.
    await Promise.all([
      ...users.map(async (u, i) => {
        ok(`user avatar ${i}`, await userAvatar(u.client, gifs[i % 3]))
        userBytes.set(u.user.id, gifs[i % 3])
      }),
      ...players.map(async (p, i) => {
        ok(`captain avatar ${i}`, await userAvatar(p.client, gifs[(i + 1) % 3]))
        userBytes.set(p.user.id, gifs[(i + 1) % 3])
      }),
      ...players.map(async (p, i) => {
        ok(`team avatar ${i}`, await teamAvatar(p, gifs[i % 3]))
        teamBytes.set(p.team.id, gifs[i % 3])
      }),
      ...players.map(async (p, i) => {
        ok(`write-up ${i}`, await writeup(p, game.id, pdfs[i % 3]))
        writeupBytes.set(p.participation.id, pdfs[i % 3])
      }),
      ...[...gifs, ...pdfs].flatMap((data, i) =>
        [0, 1].map(async (k) => {
          ok(`asset ${i}/${k}`, await uploadAsset(data, `asset-${i}-${k}.bin`))
          holdAdminRef(sha(data), 1)
        }),
      ),
    ])
    await expectBalancedBooks(adminRefs)

    // Round 2: replacements, deletions and new attachments of the same hashes, all at once.
    const flagBytes = [gifs[0], pdfs[1], gifs[2], pdfs[0]]
    await Promise.all([
      ...statics.map(async (c, i) => {
        const data = i % 2 ? gifs[i] : pdfs[i]
        ok(`attachment ${i}`, await admin.post(`${challengeUrl(game.id, c.id)}/attachment`, { attachmentType: 'Local', fileHash: sha(data) }))
      }),
      ...flagBytes.map(async (data, i) => {
        ok(`flag ${i}`, await admin.post(`${challengeUrl(game.id, dynamic.id)}/flags`, [{ flag: `flag{${i}}`, attachmentType: 'Local', fileHash: sha(data) }]))
      }),
      ...users.map(async (u, i) => {
        if (i < 5) {
          ok(`user avatar again ${i}`, await userAvatar(u.client, gifs[(i + 1) % 3]))
          userBytes.set(u.user.id, gifs[(i + 1) % 3])
        } else if (i < 8) {
          ok(`delete user ${i}`, await admin.delete(`/api/admin/users/${u.user.id}`))
          userBytes.delete(u.user.id)
        }
      }),
      ...players.map(async (p, i) => {
        if (i < 3) {
          ok(`team avatar again ${i}`, await teamAvatar(p, gifs[(i + 2) % 3]))
          teamBytes.set(p.team.id, gifs[(i + 2) % 3])
        } else if (i < 5) {
          ok(`delete team ${i}`, await admin.delete(`/api/admin/teams/${p.team.id}`))
          teamBytes.delete(p.team.id)
          writeupBytes.delete(p.participation.id)
        } else if (i < 8) {
          ok(`write-up again ${i}`, await writeup(p, game.id, pdfs[(i + 1) % 3]))
          writeupBytes.set(p.participation.id, pdfs[(i + 1) % 3])
        }
      }),
      ...[...gifs, ...pdfs].map(async (data, i) => {
        ok(`delete asset ${i}`, await admin.delete(`/api/assets/${sha(data)}`))
        holdAdminRef(sha(data), -1)
      }),
    ])
    await expectBalancedBooks(adminRefs)

    // Round 3: every admin upload is given up again while owners keep replacing.
    await Promise.all([
      ...[...gifs, ...pdfs].map(async (data, i) => {
        ok(`delete asset again ${i}`, await admin.delete(`/api/assets/${sha(data)}`))
        holdAdminRef(sha(data), -1)
      }),
      ...players.slice(5).map(async (p, i) => {
        ok(`team avatar third ${i}`, await teamAvatar(p, gifs[i % 3]))
        teamBytes.set(p.team.id, gifs[i % 3])
      }),
      ...users.slice(0, 5).map(async (u, i) => {
        ok(`user avatar third ${i}`, await userAvatar(u.client, gifs[(i + 2) % 3]))
        userBytes.set(u.user.id, gifs[(i + 2) % 3])
      }),
    ])
    await expectBalancedBooks(adminRefs)

    // Everything still referenced is served with its owner's bytes.
    for (const [userId, bytes] of userBytes) {
      const [row] = await sql<{ avatar_hash: string | null }>('select avatar_hash from users where id = ?', [userId])
      expect(row.avatar_hash).toBe(sha(bytes!))
      await expectServed(`user ${userId}`, `/assets/${row.avatar_hash}/avatar`, bytes!)
    }
    for (const [teamId, bytes] of teamBytes) {
      const team = await admin.get(`/api/team/${teamId}`)
      ok(`team ${teamId}`, team)
      await expectServed(`team ${teamId}`, team.body.avatar, bytes!)
    }
    const list = z.array(WriteupInfoModel).parse((await admin.get(`/api/admin/writeups/${game.id}`)).body)
    expect(list.map((w) => w.id).sort()).toEqual([...writeupBytes.keys()].sort())
    for (const w of list) await expectServed(`write-up ${w.id}`, w.url, writeupBytes.get(w.id)!)
    for (const [i, c] of statics.entries()) {
      const detail = await admin.get(challengeUrl(game.id, c.id))
      await expectServed(`attachment ${i}`, detail.body.attachment?.url ?? null, i % 2 ? gifs[i] : pdfs[i])
    }
    const flags = (await admin.get(challengeUrl(game.id, dynamic.id))).body.flags as { flag: string; attachment: { url: string | null } }[]
    for (const f of flags) await expectServed(f.flag, f.attachment.url, flagBytes[Number(/\d+/.exec(f.flag)![0])])

    // Dropping the remaining owners frees everything: the books stay balanced down to nothing.
    await Promise.all([
      ...statics.map(async (c, i) => ok(`remove attachment ${i}`, await admin.post(`${challengeUrl(game.id, c.id)}/attachment`, { attachmentType: 'None' }))),
      ...players.slice(5).map(async (p, i) => ok(`delete team again ${i}`, await admin.delete(`/api/admin/teams/${p.team.id}`))),
    ])
    await expectBalancedBooks(adminRefs)
  })

  it('a release racing a store of the same bytes never deletes the blob the store just re-added', async () => {
    const adminRefs = new Map<string, number>()
    for (let round = 0; round < 25; round++) {
      const data = randomBytes(2048)
      const hash = sha(data)
      ok(`first ${round}`, await uploadAsset(data, 'race.bin'))
      // The last reference goes while the same bytes arrive again.
      const [del, again] = await Promise.all([admin.delete(`/api/assets/${hash}`), uploadAsset(data, 'race-again.bin')])
      ok(`delete ${round}`, del)
      ok(`again ${round}`, again)
      adminRefs.set(hash, 1)
      const res = await download(`/assets/${hash}/race.bin`)
      expect({ round, status: res.status, same: res.bytes.equals(data) }).toEqual({ round, status: 200, same: true })
    }
    await expectBalancedBooks(adminRefs)
  })
})

describe('display names belong to the referencing row', () => {
  it("a second uploader of the same bytes does not rename the first owner's download", async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'StaticAttachment' })
    const data = Buffer.from(`handout ${randomBytes(8).toString('hex')}`)
    const hash = sha(data)

    const first = await uploadAsset(data, 'handout.txt')
    ok('first upload', first)
    expect(z.array(LocalFileModel).parse(first.body)).toEqual([{ hash, name: 'handout.txt' }])
    ok('attach', await admin.post(`${challengeUrl(game.id, challenge.id)}/attachment`, { attachmentType: 'Local', fileHash: hash }))

    // Another upload of the same bytes under another name.
    const second = await uploadAsset(data, 'pwned.html')
    ok('second upload', second)
    expect(z.array(LocalFileModel).parse(second.body)).toEqual([{ hash, name: 'handout.txt' }])

    const detail = await admin.get(challengeUrl(game.id, challenge.id))
    expect(detail.body.attachment.url).toBe(`/assets/${hash}/handout.txt`)
    const served = await download(detail.body.attachment.url)
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="handout.txt"')
    const files = arrayResponseOf(LocalFileModel).parse((await admin.get('/api/admin/files?count=1000')).body)
    expect(files.data.filter((f) => f.hash === hash)).toEqual([{ hash, name: 'handout.txt' }])
  })

  it("two teams' identical write-ups are each served under the uploading team's name", async () => {
    const game = await createGame(server)
    const a = await createPlayer(server, game)
    const b = await createPlayer(server, game)
    const data = pdf(`shared ${randomBytes(8).toString('hex')}`)
    ok('a', await writeup(a, game.id, data))
    ok('b', await writeup(b, game.id, data))

    const list = z.array(WriteupInfoModel).parse((await admin.get(`/api/admin/writeups/${game.id}`)).body)
    const urlOf = (p: Player) => list.find((w) => w.id === p.participation.id)!.url
    const nameOf = (p: Player) => new RegExp(`^/assets/${sha(data)}/Writeup-${game.id}-${p.team.id}-\\d{8}-\\d\\d\\.\\d\\d\\.\\d\\dZ\\.pdf$`)
    expect(urlOf(a)).toMatch(nameOf(a))
    expect(urlOf(b)).toMatch(nameOf(b))
    const own = BasicWriteupInfoModel.parse((await a.client.get(`/api/game/${game.id}/writeup`)).body)
    expect(`/assets/${sha(data)}/${own.name}`).toMatch(nameOf(a))
    const served = await download(urlOf(a))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-disposition')).toBe(`attachment; filename="${urlOf(a).split('/').pop()}"`)
    expect(served.headers.get('content-type')).toBe('application/pdf')
  })

  it('the admin cannot delete a reference that an owner still holds', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'StaticAttachment' })
    const data = Buffer.from(`kept ${randomBytes(8).toString('hex')}`)
    const hash = sha(data)
    ok('upload', await uploadAsset(data, 'kept.txt'))
    ok('attach', await admin.post(`${challengeUrl(game.id, challenge.id)}/attachment`, { attachmentType: 'Local', fileHash: hash }))
    ok('admin gives up its upload', await admin.delete(`/api/assets/${hash}`))
    const res = await admin.delete(`/api/assets/${hash}`)
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title: '文件仍被引用', status: 400 } })
    const [row] = await sql<{ reference_count: number }>('select reference_count from files where hash = ?', [hash])
    expect(row.reference_count).toBe(1)
    await expectServed('attachment', (await admin.get(challengeUrl(game.id, challenge.id))).body.attachment.url, data)
  })
})

describe('Content-Type of downloads', () => {
  it('comes from the stored type: PNG bytes named x.html are served as image/png, sandboxed', async () => {
    const stored = z.array(LocalFileModel).parse((await uploadAsset(PNG_2X2, 'x.html')).body)
    const hash = sha(PNG_2X2)
    expect(stored).toEqual([{ hash, name: 'x.html' }])
    for (const name of ['x.html', 'x.svg', 'x.xhtml', 'x.js', 'avatar']) {
      const res = await download(`/assets/${hash}/${name}`)
      expect({ name, status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy') }).toEqual({
        name,
        status: 200,
        type: 'image/png',
        csp: 'sandbox',
      })
      expect(res.bytes.equals(PNG_2X2)).toBe(true)
    }
  })

  it('markup is never served as a document, whatever its stored or requested name', async () => {
    const page = Buffer.from(`<!doctype html><html><body><script>parent.pwned = ${Date.now()}</script></body></html>`)
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(${Date.now()})</script></svg>`)
    const notes = Buffer.from(`plain notes ${Date.now()}`)
    ok('page', await uploadAsset(page, 'page.html'))
    ok('svg', await uploadAsset(svg, 'image.svg'))
    ok('notes', await uploadAsset(notes, 'notes.txt'))
    for (const [data, name] of [[page, 'page.html'], [svg, 'image.svg'], [notes, 'notes.html']] as const) {
      const res = await download(`/assets/${sha(data)}/${name}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-security-policy')).toBe('sandbox')
      expect(res.headers.get('content-type')).not.toMatch(/html|svg|xml|javascript/)
    }
    expect((await download(`/assets/${sha(notes)}/notes.html`)).headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect((await download(`/assets/${sha(page)}/page.txt`)).headers.get('content-type')).toBe('application/octet-stream')
  })

  it('avatars are served as the image type they were stored as', async () => {
    const u = await createUser(server)
    const res = await userAvatar(u.client, await gif(1, 2, 3))
    ok('avatar', res)
    const hash = /\/assets\/([0-9a-f]{64})\//.exec(res.body as string)![1]
    expect((await download(`/assets/${hash}/avatar`)).headers.get('content-type')).toBe('image/gif')
  })
})
