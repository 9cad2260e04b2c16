/**
 * Events as data (docs/archive.md): export → import → export gives the same content, the CTFd
 * and ctfcli importers on their fixtures, hostile archives refused with nothing created, clone,
 * and the static archive through the route and the CLI.
 */
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GameArchiveManifest, GameImportResult } from '@flagwave/shared/schemas/gameArchive'
import { GameInfoModel } from '@flagwave/shared/schemas/games'
import { Game } from '../../server/src/entities/Game.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { LocalFile } from '../../server/src/entities/LocalFile.js'
import { GameNotice } from '../../server/src/entities/GameNotice.js'
import { Participation } from '../../server/src/entities/Participation.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { PNG_2X2 } from '../support/fixtures.js'
import { patchDeclaredSizes, patchEntryCount, renameEntry, unzip, zip } from '../support/zip.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createSubmission } from '../support/factories/play.js'
import { finishedGame } from '../support/factories/archive.js'
import { createTeam } from '../support/factories/teams.js'
import { createUser } from '../support/factories/users.js'

let server: TestServer
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.admin()
})
afterAll(() => server?.close())

/** The tests that build a whole game through the editor's endpoints take several seconds on a loaded machine. */
const SLOW = 120_000
const em = () => server.services.orm.em.fork()
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const ok = <T>(res: { status: number; text: string; body: T }): T => {
  expect(res.status, res.text.slice(0, 500)).toBe(200)
  return res.body
}

async function download(pathname: string, json?: unknown): Promise<{ status: number; bytes: Buffer; type: string }> {
  const res = await fetch(server.url + pathname, {
    method: 'POST',
    headers: { cookie: admin.cookieHeader, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' }
}

async function exportManifest(gameId: number): Promise<{ manifest: GameArchiveManifest; entries: Map<string, Buffer>; bytes: Buffer }> {
  const res = await download(`/api/edit/games/${gameId}/export`)
  expect(res.status).toBe(200)
  expect(res.type).toContain('application/zip')
  const entries = await unzip(res.bytes)
  const manifest = GameArchiveManifest.parse(JSON.parse(entries.get('manifest.json')!.toString('utf8')))
  return { manifest, entries, bytes: res.bytes }
}

const importUpload = (name: string, data: Buffer | string) => admin.upload('POST', '/api/edit/games/import', [['file', name, data, 'application/octet-stream']])

/** Everything an import may create, counted: a refused import must leave all of it as it was. */
async function counts() {
  const e = em()
  const blobs = await fs.readdir(path.join(server.dataDir, 'files'), { recursive: true }).catch(() => [] as string[])
  return {
    games: await e.count(Game, {}),
    challenges: await e.count(Challenge, {}),
    flags: await e.count(Flag, {}),
    files: await e.count(LocalFile, {}),
    references: Number((await e.execute<{ n: string }[]>('select coalesce(sum(reference_count), 0) as n from files'))[0]!.n),
    blobs: blobs.filter((b) => /^[0-9a-f]{64}$/.test(path.basename(b))).length,
    staged: blobs.filter((b) => b.startsWith('tmp/')).length,
  }
}

/** A game with every kind of content, built through the editor's own endpoints. */
async function richGame(): Promise<{ id: number; attachmentBytes: string }> {
  const game = ok(
    await admin.post('/api/edit/games', {
      title: 'Round Trip CTF',
      summary: 'summary',
      content: '# rules',
      hidden: true,
      practiceMode: false,
      acceptWithoutReview: true,
      inviteCode: 'invite',
      organizations: ['Uni A', 'Uni B'],
      teamMemberCountLimit: 4,
      containerCountLimit: 2,
      start: '2030-01-01T00:00:00Z',
      end: '2030-01-03T00:00:00Z',
      wpddl: '2030-01-04T00:00:00Z',
      wpNote: 'write-ups please',
      bloodBonus: 0,
    }),
  )
  ok(await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, [['file', 'poster.png', PNG_2X2, 'image/png']]))
  const attachmentBytes = `attachment bytes ${Date.now()}`
  const [stored, perTeamA, perTeamB] = ok(
    await admin.upload('POST', '/api/assets', [
      ['files', 'handout.txt', attachmentBytes],
      ['files', 'team-a.bin', 'per team a'],
      ['files', 'team-b.bin', 'per team b'],
    ]),
  ) as { hash: string }[]

  const web = ok(await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'Web 1', tag: 'Web', type: 'StaticAttachment' }))
  ok(await admin.post(`/api/edit/games/${game.id}/challenges/${web.id}/flags`, [{ flag: 'flag{one}' }, { flag: 'flag{two}' }]))
  ok(await admin.post(`/api/edit/games/${game.id}/challenges/${web.id}/attachment`, { attachmentType: 'Local', fileHash: stored!.hash }))
  ok(
    await admin.put(`/api/edit/games/${game.id}/challenges/${web.id}`, {
      content: 'find **it**',
      hints: ['look closer', 'even closer'],
      isEnabled: true,
      originalScore: 700,
      minScoreRate: 0.4,
      difficulty: 3.5,
    }),
  )
  const remote = ok(await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'Remote', tag: 'Misc', type: 'StaticAttachment' }))
  // Costed hints and prerequisites travel with the challenges (docs/challenge-rules.md): Remote requires Web 1.
  ok(await admin.put(`/api/edit/games/${game.id}/challenges/${web.id}/hints`, { hints: [{ content: 'paid', kind: 'Percent', amount: 10 }] }))
  ok(await admin.put(`/api/edit/games/${game.id}/challenges/${remote.id}/prerequisites`, { prerequisites: [web.id], lockedTitleVisible: false }))
  ok(await admin.post(`/api/edit/games/${game.id}/challenges/${remote.id}/attachment`, { attachmentType: 'Remote', remoteUrl: 'https://example.org/file.zip' }))
  const dynamic = ok(await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'Per team', tag: 'Reverse', type: 'DynamicAttachment' }))
  ok(
    await admin.post(`/api/edit/games/${game.id}/challenges/${dynamic.id}/flags`, [
      { flag: 'flag{a}', attachmentType: 'Local', fileHash: perTeamA!.hash },
      { flag: 'flag{b}', attachmentType: 'Local', fileHash: perTeamB!.hash },
    ]),
  )
  ok(await admin.put(`/api/edit/games/${game.id}/challenges/${dynamic.id}`, { fileName: 'binary' }))
  const container = ok(await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'Box', tag: 'Pwn', type: 'DynamicContainer' }))
  ok(
    await admin.put(`/api/edit/games/${game.id}/challenges/${container.id}`, {
      containerImage: 'registry.local/box:1',
      memoryLimit: 128,
      cpuCount: 2,
      storageLimit: 512,
      containerExposePort: 1337,
      flagTemplate: 'flag{[TEAM_HASH]}',
    }),
  )
  ok(await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Welcome!' }))
  ok(await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Second notice' }))
  return { id: game.id, attachmentBytes }
}

/** A manifest without what differs between two exports of the same content. */
const comparable = (m: GameArchiveManifest) => ({ ...m, exportedAt: undefined })

describe('export and import', () => {
  it('export → import → export gives the same content, and the bytes come along', async () => {
    const { id, attachmentBytes } = await richGame()
    const first = await exportManifest(id)
    expect(first.manifest.format).toBe('flagwave-game')
    expect(first.manifest.version).toBe(1)
    expect(first.manifest.divisions).toEqual([])
    expect(first.manifest.challenges.map((c) => c.title)).toEqual(['Web 1', 'Remote', 'Per team', 'Box'])
    expect(first.manifest.challenges[0]!.hints).toEqual(['look closer', 'even closer'])
    expect(first.manifest.challenges[0]!.costedHints).toEqual([{ content: 'paid', kind: 'Percent', amount: 10, freeAt: null }])
    expect(first.manifest.challenges[1]).toMatchObject({ prerequisites: [0], lockedTitleVisible: false })
    expect(first.manifest.notices.map((n) => n.content)).toEqual(['Welcome!', 'Second notice'])
    expect(first.manifest.files).toHaveLength(4)
    expect(first.entries.get(`files/${sha(attachmentBytes)}`)?.toString()).toBe(attachmentBytes)
    expect(first.manifest.game.poster).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(first.manifest)).not.toMatch(/"id"/)

    const references = (await em().findOneOrFail(LocalFile, { hash: sha(attachmentBytes) })).referenceCount
    const imported = await importUpload('game.zip', first.bytes)
    const result = GameImportResult.parse(ok(imported))
    expect(result).toMatchObject({ format: 'flagwave', challenges: 4, files: 4, unmapped: [] })
    expect(result.game.id).not.toBe(id)
    expect(result.game.title).toBe('Round Trip CTF')
    // The bytes are shared by hash: the imported attachment holds one reference more.
    expect((await em().findOneOrFail(LocalFile, { hash: sha(attachmentBytes) })).referenceCount).toBe(references + 1)

    const second = await exportManifest(result.game.id)
    expect(comparable(second.manifest)).toEqual(comparable(first.manifest))
    // A new game has its own key pair.
    const [a, b] = await Promise.all([em().findOneOrFail(Game, { id }), em().findOneOrFail(Game, { id: result.game.id })])
    expect(a.publicKey).not.toBe(b.publicKey)
  }, SLOW)

  it('an export of an unknown game is 404, and the import takes nothing but a file', async () => {
    const res = await download('/api/edit/games/999999/export')
    expect(res.status).toBe(404)
    expect(JSON.parse(res.bytes.toString())).toEqual({ title: '比赛未找到', status: 404 })
    const none = await admin.upload('POST', '/api/edit/games/import', [['other', 'x.zip', 'x']])
    expect(none.status).toBe(400)
    expect(none.body).toEqual({ title: 'The file field is required.', status: 400 })
  })
})

describe('hostile archives: a clear 400 and nothing created', () => {
  let valid: { manifest: GameArchiveManifest; entries: Map<string, Buffer> }
  beforeAll(async () => {
    const game = await createGame(server, { title: 'Source of hostile archives' })
    await createChallenge(server, game, { title: 'Only', flags: ['flag{x}'] })
    valid = await exportManifest(game.id)
  })
  /** A zip with one entry named as no zip writer would name it. */
  const hostileName = async (name: string) => renameEntry(await zip([['manifest.json', '{}'], ['x'.repeat(name.length), 'x']]), 'x'.repeat(name.length), name)
  const withManifest = (manifest: unknown, extra: [string, Buffer | string][] = []) => zip([['manifest.json', JSON.stringify(manifest)], ...extra])

  const cases: [string, () => Promise<Buffer>, string | RegExp, string?][] = [
    ['not a zip', async () => Buffer.from('plain text, no archive'), '压缩包无效：expected a zip archive or a challenge.yml'],
    ['a broken zip', async () => Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 7)]), /^压缩包无效：/],
    // yauzl refuses these names itself, before our own check (unzip.ts) sees them.
    ['path traversal', async () => hostileName('../../etc/cron.d/evil'), '压缩包无效：invalid relative path: ../../etc/cron.d/evil'],
    ['an absolute path', async () => hostileName('/etc/passwd'), '压缩包无效：absolute path: /etc/passwd'],
    ['a backslash path', async () => hostileName('..\\..\\evil'), '压缩包无效：invalid relative path: ../../evil'],
    ['duplicate names', async () => zip([['manifest.json', '{}'], ['manifest.json', '{}']]), '压缩包无效：duplicate entry "manifest.json"'],
    ['too many entries', async () => patchEntryCount(await zip([['a', 'a']], { store: true }), 65000), '压缩包无效：too many entries (65000, at most 20000)'],
    ['a declared zip bomb', async () => patchDeclaredSizes(await zip([['manifest.json', 'x']]), 0xfffffff0), /^压缩包无效：unpacks to more than \d+ bytes$/],
    // Deflated zeros that declare 100 bytes: inflating more than declared stops at once.
    ['a lying header', async () => patchDeclaredSizes(await zip([['manifest.json', Buffer.alloc(4 * 1024 * 1024)]]), 100), /^压缩包无效：.*too many bytes/],
    ['no known document', async () => zip([['readme.txt', 'hello']]), /^压缩包无效：neither manifest\.json/],
    ['bad JSON', async () => zip([['manifest.json', '{"format": "flagwave-game",']]), /^压缩包无效：manifest\.json is not valid JSON/],
    ['wrong types', async () => withManifest({ ...valid.manifest, challenges: 'all of them' }), /^压缩包无效：manifest\.json: challenges: /],
    ['a newer version', async () => withManifest({ ...valid.manifest, version: 99 }), '压缩包无效：manifest.json: version: archive written by a newer Flagwave'],
    ['a division', async () => withManifest({ ...valid.manifest, divisions: [{ name: 'x' }] }), /^压缩包无效：manifest\.json: divisions: /],
    [
      'a listed file missing',
      async () => withManifest({ ...valid.manifest, files: [{ hash: sha('gone'), name: 'gone.txt', size: 4 }] }),
      `压缩包无效：files/${sha('gone')} is listed in manifest.json but missing`,
    ],
    [
      'an attachment whose file is not listed',
      async () =>
        withManifest({
          ...valid.manifest,
          challenges: [{ ...valid.manifest.challenges[0]!, attachment: { type: 'Local', hash: sha('nowhere'), fileName: 'x', remoteUrl: null } }],
        }),
      `压缩包无效：manifest.json refers to ${sha('nowhere')}, which is not in its files`,
    ],
    [
      'altered bytes',
      async () =>
        withManifest(
          {
            ...valid.manifest,
            challenges: [{ ...valid.manifest.challenges[0]!, attachment: { type: 'Local', hash: sha('original'), fileName: 'a.txt', remoteUrl: null } }],
            files: [{ hash: sha('original'), name: 'a.txt', size: 8 }],
          },
          [[`files/${sha('original')}`, 'tampered']],
        ),
      `压缩包无效：the bytes of a.txt do not match their hash ${sha('original')}`,
    ],
  ]

  it.each(cases)('%s', async (_, build, title) => {
    const before = await counts()
    const res = await importUpload('game.zip', await build())
    expect(res.status, res.text).toBe(400)
    expect(res.body.status).toBe(400)
    if (typeof title === 'string') expect(res.body.title).toBe(title)
    else expect(res.body.title).toMatch(title)
    expect(await counts()).toEqual(before)
  })

  it('an archive over the body limit is refused before it is read', async () => {
    const url = new URL(`${server.url}/api/edit/games/import`)
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { cookie: admin.cookieHeader, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(600 * 1024 * 1024) } },
        (res) => {
          resolve(res.statusCode ?? 0)
          req.destroy()
        },
      )
      req.on('error', reject)
      req.write('--x\r\n')
    })
    expect(status).toBe(413)
  })
})

const CHALLENGE_YML = `
name: Baby RSA
author: someone
category: cryptography
description: |
  Small e, big trouble.
connection_info: nc crypto.example 1337
value: 500
type: dynamic
extra:
  initial: 500
  decay: 20
  minimum: 100
flags:
  - flag{static_one}
  - {type: static, content: "FLAG{Case}", data: case_insensitive}
  - {type: regex, content: "flag{.*}"}
hints:
  - free hint
  - {content: paid hint, cost: 50}
files:
  - dist/output.txt
  - dist/source.py
tags:
  - beginner
state: visible
version: "0.1"
`

describe('ctfcli challenge.yml', () => {
  it('a lone challenge.yml: mapped, approximated and left out items are reported', async () => {
    const result = GameImportResult.parse(ok(await importUpload('challenge.yml', CHALLENGE_YML)))
    expect(result).toMatchObject({ format: 'ctfcli', challenges: 1, files: 0 })
    expect(result.game).toMatchObject({ title: 'Baby RSA', hidden: true })
    const [c] = await em().find(Challenge, { game: result.game.id }, { populate: ['attachment'] })
    expect(c).toMatchObject({
      title: 'Baby RSA',
      tag: 'Crypto',
      type: 'StaticAttachment',
      content: 'Small e, big trouble.\n\n\nnc crypto.example 1337',
      hints: ['free hint'],
      costedHints: [{ id: 1, content: 'paid hint', kind: 'Fixed', amount: 50, freeAt: null }],
      originalScore: 500,
      isEnabled: true,
      attachment: null,
    })
    expect(Number(c!.minScoreRate)).toBeCloseTo(0.2)
    expect((await em().find(Flag, { challenge: c!.id }, { orderBy: { id: 'asc' } })).map((f) => f.flag)).toEqual(['flag{static_one}', 'FLAG{Case}'])
    expect(result.mapped).toEqual(
      expect.arrayContaining([
        expect.stringContaining('decay 20'),
        expect.stringContaining('connection_info appended'),
        expect.stringContaining('case-insensitive flag "FLAG{Case}"'),
        expect.stringContaining('hint cost 50 kept as a costed hint'),
      ]),
    )
    expect(result.unmapped).toEqual(
      expect.arrayContaining([
        expect.stringContaining('regex flag "flag{.*}"'),
        expect.stringContaining('file dist/output.txt is not in the upload'),
        expect.stringContaining('tags beginner'),
        expect.stringContaining('author has no Flagwave counterpart'),
      ]),
    )
  })

  it('a zip of challenge folders: files beside each challenge.yml become attachments, none from outside', async () => {
    const archive = await zip([
      ['crypto/rsa/challenge.yml', CHALLENGE_YML],
      ['crypto/rsa/dist/output.txt', 'c = 1234'],
      ['crypto/rsa/dist/source.py', 'print(1)'],
      ['web/login/challenge.yaml', 'name: Login\ncategory: web\nvalue: 100\nflags: ["flag{login}"]\nfiles: [../../crypto/rsa/dist/output.txt]\nstate: hidden\n'],
      ['misc/oracle/challenge.yml', 'name: Oracle\ntype: oracle\nflags: [x]\n'],
    ])
    const result = GameImportResult.parse(ok(await importUpload('challenges.zip', archive)))
    expect(result).toMatchObject({ format: 'ctfcli', challenges: 2, files: 1 })
    const challenges = await em().find(Challenge, { game: result.game.id }, { populate: ['attachment'], orderBy: { id: 'asc' } })
    expect(challenges.map((c) => [c.title, c.tag, c.isEnabled, c.originalScore, Number(c.minScoreRate)])).toEqual([
      ['Baby RSA', 'Crypto', true, 500, 0.2],
      ['Login', 'Web', false, 100, 1],
    ])
    const attachment = challenges[0]!.attachment as { fileHash: string; fileName: string }
    expect(attachment).toMatchObject({ fileHash: sha('c = 1234'), fileName: 'output.txt' })
    const download = await fetch(`${server.url}/assets/${sha('c = 1234')}/output.txt`)
    expect(await download.text()).toBe('c = 1234')
    expect(challenges[1]!.attachment).toBeNull()
    expect(result.unmapped).toEqual(
      expect.arrayContaining([
        expect.stringContaining('file dist/source.py left out (a Flagwave challenge has one attachment'),
        expect.stringContaining('file ../../crypto/rsa/dist/output.txt is not in the upload'),
        'challenge "Oracle": challenge type "oracle" is not supported, challenge skipped',
      ]),
    )
  })

  it.each([
    ['bad YAML', 'name: [unclosed', /^压缩包无效：challenge\.yml is not valid YAML/],
    ['wrong types', 'name: x\nvalue: lots\n', '压缩包无效：challenge.yml: value: Invalid input: expected number, received string'],
    ['no name', 'category: web\n', /^压缩包无效：challenge\.yml: name: /],
    ['an alias bomb', `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`).join('\n')}\nname: bomb\n`, /^压缩包无效：challenge\.yml is not valid YAML/],
    ['only unsupported types', 'name: x\ntype: oracle\n', '压缩包无效：no challenge could be imported'],
  ])('%s: 400 and nothing created', async (_, yml, title) => {
    const before = await counts()
    const res = await importUpload('challenge.yml', yml)
    expect(res.status, res.text).toBe(400)
    if (typeof title === 'string') expect(res.body.title).toBe(title)
    else expect(res.body.title).toMatch(title)
    expect(await counts()).toEqual(before)
  })
})

/** A CTFd 3.x export as its exporter lays it out: one `{count, results, meta}` document per table under db/, files under uploads/. */
async function ctfdExport(): Promise<Buffer> {
  const table = (results: unknown[]) => JSON.stringify({ count: results.length, results, meta: {} })
  return zip([
    ['db/alembic_version.json', table([{ version_num: '0366ba6575ca' }])],
    ['db/config.json', table([{ id: 1, key: 'ctf_name', value: 'Old CTFd Event' }, { id: 2, key: 'user_mode', value: 'teams' }])],
    [
      'db/challenges.json',
      table([
        { id: 1, name: 'Warmup', description: 'Say hi', connection_info: null, next_id: null, max_attempts: 0, value: 50, category: 'Misc', type: 'standard', state: 'visible', requirements: null },
        { id: 2, name: 'Heap', description: 'Pwn me', connection_info: 'nc pwn 9001', next_id: null, max_attempts: 5, value: 500, category: 'pwn', type: 'dynamic', state: 'hidden', requirements: { prerequisites: [1] } },
        { id: 3, name: 'Manual', description: 'Graded by hand', connection_info: null, next_id: null, max_attempts: 0, value: 10, category: 'OSINT', type: 'manual_verification', state: 'visible', requirements: null },
      ]),
    ],
    ['db/dynamic_challenge.json', table([{ id: 2, initial: 500, minimum: 125, decay: 15, function: 'logarithmic' }])],
    [
      'db/flags.json',
      table([
        { id: 1, challenge_id: 1, type: 'static', content: 'flag{hi}', data: '' },
        { id: 2, challenge_id: 2, type: 'static', content: 'flag{heap}', data: 'case_insensitive' },
        { id: 3, challenge_id: 2, type: 'regex', content: 'flag{h.*}', data: '' },
      ]),
    ],
    ['db/hints.json', table([{ id: 1, type: 'standard', challenge_id: 2, content: 'tcache', cost: 10, requirements: null }])],
    [
      'db/files.json',
      table([
        { id: 1, type: 'challenge', location: '0a1b2c3d/libc.so.6', challenge_id: 2, page_id: null, sha1sum: null },
        { id: 2, type: 'page', location: 'ffee/logo.png', challenge_id: null, page_id: 1, sha1sum: null },
      ]),
    ],
    ['db/tags.json', table([{ id: 1, challenge_id: 2, value: 'heap' }])],
    ['db/notifications.json', table([{ id: 1, title: 'Start', content: 'Good luck', date: '2024-05-01T10:00:00', user_id: null, team_id: null }])],
    ['db/users.json', table([{ id: 1, name: 'admin' }, { id: 2, name: 'player' }])],
    ['db/submissions.json', table([{ id: 1, challenge_id: 1, user_id: 2, provided: 'flag{hi}', type: 'correct' }])],
    ['uploads/0a1b2c3d/libc.so.6', 'libc bytes'],
    ['uploads/ffee/logo.png', 'logo'],
  ])
}

describe('CTFd 3.x export', () => {
  it('challenges, dynamic values, flags, hints, files and notifications are mapped; the rest is reported', async () => {
    const result = GameImportResult.parse(ok(await importUpload('ctfd-export.zip', await ctfdExport())))
    expect(result).toMatchObject({ format: 'ctfd', challenges: 2, files: 1 })
    expect(result.game.title).toBe('Old CTFd Event')
    const challenges = await em().find(Challenge, { game: result.game.id }, { populate: ['attachment'], orderBy: { id: 'asc' } })
    expect(challenges.map((c) => [c.title, c.tag, c.isEnabled, c.originalScore, Number(c.minScoreRate), c.hints])).toEqual([
      ['Warmup', 'Misc', true, 50, 1, []],
      ['Heap', 'Pwn', false, 500, 0.25, []],
    ])
    expect(challenges[1]!.costedHints).toEqual([{ id: 1, content: 'tcache', kind: 'Fixed', amount: 10, freeAt: null }])
    // CTFd's requirements become prerequisites (docs/challenge-rules.md#prerequisites).
    expect(challenges[1]!.prerequisites).toEqual([challenges[0]!.id])
    expect(result.mapped).toEqual(expect.arrayContaining([expect.stringContaining('requirements kept as prerequisites')]))
    expect(challenges[1]!.content).toBe('Pwn me\n\nnc pwn 9001')
    expect(challenges[1]!.attachment).toMatchObject({ type: 'Local', fileHash: sha('libc bytes'), fileName: 'libc.so.6' })
    expect((await em().find(Flag, { challenge: challenges[1]!.id })).map((f) => f.flag)).toEqual(['flag{heap}'])
    const notices = await em().find(GameNotice, { game: result.game.id })
    expect(notices.map((n) => [n.type, n.content, n.publishTime.toISOString()])).toEqual([['Normal', 'Start\n\nGood luck', '2024-05-01T10:00:00.000Z']])
    expect(result.unmapped).toEqual(
      expect.arrayContaining([
        'challenge #3 "Manual": challenge type "manual_verification" is not supported, challenge skipped',
        expect.stringContaining('regex flag "flag{h.*}"'),
        expect.stringContaining('tags heap'),
        expect.stringContaining('max_attempts 5'),
        'db/files.json: 1 file(s) of pages or deleted challenges left out',
        "db/users.json: 2 row(s) not imported (not part of a game's content)",
        "db/submissions.json: 1 row(s) not imported (not part of a game's content)",
      ]),
    )
    expect(result.mapped).toEqual(expect.arrayContaining([expect.stringContaining('decay 15 (logarithmic)'), expect.stringContaining('case-insensitive flag "flag{heap}"')]))
  })

  it('a table of the wrong shape is refused', async () => {
    const before = await counts()
    const res = await importUpload('ctfd.zip', await zip([['db/challenges.json', JSON.stringify({ count: 1, results: [{ id: 'one', name: 5 }] })]]))
    expect(res.status).toBe(400)
    expect(res.body.title).toMatch(/^压缩包无效：db\/challenges\.json: results\.0\.id: /)
    expect(await counts()).toEqual(before)
  })
})

describe('clone', () => {
  it('copies settings, challenges, flags, hints and attachments by hash; no teams, submissions or notices', async () => {
    const { id, attachmentBytes } = await richGame()
    const team = await createTeam(server, (await createUser(server)).user, [])
    const source = await em().findOneOrFail(Game, { id })
    const participation = await createParticipation(server, source, team, [])
    const [challenge] = await em().find(Challenge, { game: id }, { orderBy: { id: 'asc' } })
    await createSubmission(server, id, challenge!.id, participation, null)
    const references = (await em().findOneOrFail(LocalFile, { hash: sha(attachmentBytes) })).referenceCount

    const copy = GameInfoModel.parse(ok(await admin.post(`/api/edit/games/${id}/clone`)))
    expect(copy.title).toBe('Round Trip CTF (copy)')
    expect(copy.id).not.toBe(id)
    const [original, cloned] = await Promise.all([exportManifest(id), exportManifest(copy.id)])
    expect(comparable({ ...cloned.manifest, notices: [] })).toEqual(comparable({ ...original.manifest, notices: [], game: { ...original.manifest.game, title: 'Round Trip CTF (copy)' } }))
    expect(cloned.manifest.notices).toEqual([])
    expect((await em().findOneOrFail(LocalFile, { hash: sha(attachmentBytes) })).referenceCount).toBe(references + 1)
    expect(await em().count(Participation, { game: copy.id })).toBe(0)
    const clonedChallenges = await em().find(Challenge, { game: copy.id })
    expect(clonedChallenges.every((c) => c.acceptedCount === 0)).toBe(true)
    // The prerequisite names the clone's own challenge.
    const byTitle = new Map(clonedChallenges.map((c) => [c.title, c]))
    expect(byTitle.get('Remote')!.prerequisites).toEqual([byTitle.get('Web 1')!.id])
    expect(byTitle.get('Web 1')!.costedHints).toEqual([{ id: 1, content: 'paid', kind: 'Percent', amount: 10, freeAt: null }])
    expect(await em().count(Flag, { challenge: { game: copy.id }, isOccupied: true })).toBe(0)
  }, SLOW)

  it('a long title keeps its suffix within the limit; an unknown game is 404', async () => {
    const game = await createGame(server, { title: 'x'.repeat(128) })
    const copy = ok(await admin.post(`/api/edit/games/${game.id}/clone`))
    expect(copy.title).toBe(`${'x'.repeat(121)} (copy)`)
    const missing = await admin.post('/api/edit/games/999999/clone')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ title: '比赛未找到', status: 404 })
  })
})

describe('static archive', () => {
  it('the route answers the site as a zip: index.html with the board inlined, attachments as chosen', async () => {
    const { game, attachment } = await finishedGame(server)
    const res = await download(`/api/edit/games/${game.id}/archive`, { challenges: true, attachments: true })
    expect(res.status).toBe(200)
    const entries = await unzip(res.bytes)
    const html = entries.get('index.html')!.toString('utf8')
    expect(html).toContain('window.FLAGWAVE_ARCHIVE = ')
    expect(html).not.toContain('type="module"')
    expect(html).not.toMatch(/fetch\(|XMLHttpRequest/)
    // Archived text never closes the inline script early.
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).toContain('Alpha')
    const [file] = [...entries.keys()].filter((k) => k.startsWith('files/'))
    expect(file).toBe(`files/${sha(attachment)}/handout.txt`)
    expect(entries.get(file!)!.toString()).toBe(attachment)

    const bare = await unzip((await download(`/api/edit/games/${game.id}/archive`, { challenges: false, attachments: false })).bytes)
    expect([...bare.keys()]).toEqual(['index.html'])
    expect(bare.get('index.html')!.toString()).toContain('"challenges":null')
  }, SLOW)

  it('a running game is refused; an unknown game is 404', async () => {
    const running = await createGame(server)
    const res = await download(`/api/edit/games/${running.id}/archive`, {})
    expect(res.status).toBe(400)
    expect(JSON.parse(res.bytes.toString())).toEqual({ title: '比赛尚未结束', status: 400 })
    expect((await download('/api/edit/games/999999/archive', {})).status).toBe(404)
  })

  it('npm run archive writes the same site into a folder', async () => {
    const { game, attachment } = await finishedGame(server)
    const out = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-archive-'))
    try {
      const run = promisify(execFile)
      const env = { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, LOG_LEVEL: 'info' }
      await run('npm', ['run', '-s', 'archive', '--', String(game.id), out, '--attachments'], { env, cwd: path.resolve(import.meta.dirname, '../..') })
      const html = await fs.readFile(path.join(out, 'index.html'), 'utf8')
      expect(html).toContain('Beta')
      expect(await fs.readFile(path.join(out, 'files', sha(attachment), 'handout.txt'), 'utf8')).toBe(attachment)
      const refused = await run('npm', ['run', '-s', 'archive', '--', 'abc', out], { env, cwd: path.resolve(import.meta.dirname, '../..') }).catch((err: { code: number; stderr: string }) => err)
      expect(refused).toMatchObject({ code: 2 })
    } finally {
      await fs.rm(out, { recursive: true, force: true })
    }
  }, 180_000)
})
