/**
 * Hostile input against every route with a body or query schema, sent as Admin so that
 * authorization passes: wrong JSON types for each member, missing members, over-long strings
 * (10 KB, 1 MB), negative and huge numbers (2^31, 2^53, 1e308, "NaN"), unknown enum names,
 * malformed JSON, an array where an object is expected (and the reverse), a body one byte over
 * its route's limit (announced by Content-Length, or streamed chunked; → 413), every member that
 * writes a bounded column one character over that column (→ 400), a wrong content type (→ 415),
 * and for uploads non-image bytes named `.png`, empty files, missing parts and path-traversal file
 * names. Path parameters get out-of-range and malformed values too.
 *
 * Every answer is a 4xx with the contract's body — `{title, status}`, or ProblemDetails for
 * 404/413/415 — never a 5xx; a validation failure carries exactly the title the shared schema
 * gives (the first issue's message). Candidates the schema accepts are sent only where a path
 * parameter can point at a row that does not exist, so nothing is created. Afterwards every table
 * (but `logs` and `sessions`) has the same row count and content checksum as before.
 */
import fs from 'node:fs'
import path from 'node:path'
import os from 'node:os'
import querystring from 'node:querystring'
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ProblemDetails, RequestResponse } from '@flagwave/shared/schemas/common'
import { REQUEST_BODY_MAX_BYTES } from '@flagwave/shared/limits'
import { allRoutes } from '../../server/src/routes/index.js'
import { bodyLimitOf, type RouteSpec } from '../../server/src/http/route.js'
import { AppError } from '../../server/src/lib/errors.js'
import { parseOrThrow } from '../../server/src/http/validate.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { buildWorld, PDF_BYTES, type World } from '../support/fixtures.js'
import { specKey } from '../support/matrix.js'
import type { ApiClient, ApiResponse } from '../support/client.js'
import { COLUMN_GUARDS, boundedColumns, type Member } from '../support/columnBounds.js'
import { multipartFile, multipartOverhead, paddedJson, sendBody, type BodyResponse } from './support/bodies.js'

let server: TestServer
let world: World
let admin: ApiClient
let before: Map<string, string>

const KB10 = 'x'.repeat(10 * 1024)
const MB1 = 'x'.repeat(1024 * 1024)
/** Values tried in place of every member (and of whole string bodies). */
const HOSTILE_VALUES: [label: string, value: unknown][] = [
  ['number', 12345],
  ['negative', -1],
  ['2^31', 2 ** 31],
  ['2^53', 2 ** 53],
  ['1e308', 1e308],
  ['"NaN"', 'NaN'],
  ['true', true],
  ['object', { nested: { deeper: [1, 2, 3] } }],
  ['array', ['a', 1, null]],
  ['null', null],
  ['10 KB', KB10],
  ['1 MB', MB1],
  ['unknown enum', 'NotAnEnumName'],
  ['markup', '<script>alert(1)</script>'],
  ['traversal', '../../../../etc/passwd'],
  ['NUL', 'a\u0000b'],
]
const HOSTILE_QUERY_VALUES: [label: string, value: string | string[]][] = [
  ['word', 'abc'],
  ['negative', '-1'],
  ['2^31', '2147483648'],
  ['2^53', '9007199254740992'],
  ['1e308', '1e308'],
  ['NaN', 'NaN'],
  ['empty', ''],
  ['10 KB', KB10],
  ['unknown enum', 'NotAnEnumName'],
  ['repeated', ['1', 'abc']],
  ['NUL', 'a\u0000b'],
]

/** A valid body per JSON route: each hostile candidate replaces or drops one member of it. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/account/register': { userName: 'hostile1', password: 'Passw0rd!', email: 'hostile1@example.com' },
  'POST /api/account/recovery': { email: 'nobody@example.com' },
  'POST /api/account/passwordreset': { password: 'Passw0rd!', email: 'bm9ib2R5QGV4YW1wbGUuY29t', rToken: 'AAAA' },
  'POST /api/account/verify': { token: 'AAAA', email: 'bm9ib2R5QGV4YW1wbGUuY29t' },
  'POST /api/account/login': { userName: 'nobody', password: 'Passw0rd!' },
  'PUT /api/account/update': { userName: 'someone', bio: 'bio', phone: '123456', realName: 'R', stdNumber: '1' },
  'PUT /api/account/changepassword': { old: 'Passw0rd!', new: 'Passw0rd!2' },
  'PUT /api/account/changeemail': { newMail: 'new@example.com' },
  'POST /api/account/mailchangeconfirm': { token: 'AAAA', email: 'bm9ib2R5QGV4YW1wbGUuY29t' },
  'POST /api/admin/users': [{ userName: 'batch1', password: 'Passw0rd!', email: 'batch1@example.com', realName: 'R', stdNumber: '1', phone: '123', teamName: 'T' }],
  'PUT /api/admin/teams/:id': { name: 'n', bio: 'b', locked: false },
  'PUT /api/admin/users/:userid': { userName: 'someone', email: 'a@b.c', bio: 'b', phone: '123', realName: 'R', stdNumber: '1', role: 'User', emailConfirmed: true },
  'PUT /api/admin/sso': { ssoOnly: false },
  'POST /api/admin/sso/providers': { id: 'idp', name: 'IdP', issuer: 'https://idp.example', clientId: 'flagwave', clientSecret: 'secret', scopes: 'openid email', roleClaim: 'groups', adminValues: 'a', monitorValues: 'm', allowedDomains: 'example.com', enabled: false },
  'PUT /api/admin/sso/providers/:provider': { name: 'IdP', issuer: 'https://idp.example', clientId: 'flagwave', clientSecret: 'secret', scopes: 'openid email', roleClaim: 'groups', adminValues: 'a', monitorValues: 'm', allowedDomains: 'example.com', enabled: false },
  'PUT /api/admin/config': {
    accountPolicy: { allowRegister: true, emailDomainList: '' },
    globalConfig: { title: 't', slogan: 's', customTheme: null, apiEncryption: false },
    gamePolicy: { autoDestroyOnLimitReached: false },
    containerPolicy: { autoDestroyOnLimitReached: false, defaultLifetime: 120 },
  },
  'PUT /api/admin/participation/:id': { status: 'Accepted', divisionId: null },
  'POST /api/team/verify': { teamToken: 'x', publicKey: 'y' },
  'POST /api/edit/posts': { title: 't', summary: 's', content: 'c', tags: ['a'], isPinned: false },
  'PUT /api/edit/posts/:id': { title: 't', summary: 's', content: 'c', tags: ['a'], isPinned: false },
  'POST /api/edit/games': { title: 't', start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z', teamMemberCountLimit: 0, containerCountLimit: 3, bloodBonus: 0 },
  'PUT /api/edit/games/:id': { title: 't', start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z', teamMemberCountLimit: 0, containerCountLimit: 3 },
  'POST /api/edit/games/:id/notices': { content: 'c' },
  'POST /api/edit/games/:id/divisions': { name: 'Hostile', inviteCode: 'code', defaultPermissions: 3, challengeConfigs: [] },
  'PUT /api/edit/games/:id/divisions/:divisionId': { name: 'Hostile', inviteCode: null, defaultPermissions: 3, challengeConfigs: [] },
  'PUT /api/edit/games/:id/notices/:noticeId': { content: 'c' },
  'POST /api/edit/games/:id/challenges': { title: 'ttt', tag: 'Misc', category: 'Web', type: 'StaticAttachment' },
  'PUT /api/edit/games/:id/challenges/:cId': { title: 'ttt', isEnabled: false, originalScore: 500, minScoreRate: 0.25, difficulty: 5, memoryLimit: 64, cpuCount: 1, storageLimit: 256, containerExposePort: 80, hints: ['h'], category: 'Web', exposePort: 80, submissionLimit: 0, deadlineUtc: null, networkMode: 'Open', releaseTimeUtc: null },
  'POST /api/edit/games/:id/challenges/:cId/attachment': { attachmentType: 'Remote', remoteUrl: 'https://example.com/a' },
  'POST /api/edit/games/:id/challenges/:cId/flags': [{ flag: 'flag{x}', attachmentType: 'None' }],
  'POST /api/game/:id/challenges/:challengeId': { flag: 'flag{x}' },
  'PUT /api/edit/games/:id/challenges/:cId/hints': { hints: [{ id: null, content: 'c', kind: 'Fixed', amount: 10 }] },
  'PUT /api/edit/games/:id/challenges/:cId/prerequisites': { prerequisites: [1], lockedTitleVisible: true },
  'POST /api/game/:id': { teamId: 1, organization: null, inviteCode: null },
  'POST /api/team/accept': `name:1:${'0'.repeat(32)}`,
  'POST /api/team': { name: 'n', bio: 'b' },
  'PUT /api/team/:id': { name: 'n', bio: 'b' },
  'PUT /api/team/:id/transfer': { newCaptainId: randomUUID() },
  'POST /api/account/2fa/confirm': { code: '123456' },
  'POST /api/account/2fa/disable': { password: 'Passw0rd!', code: '123456' },
  'POST /api/account/2fa/recovery': { password: 'Passw0rd!', code: '123456' },
  'POST /api/account/2fa/login': { code: '123456', rememberDevice: false },
  'POST /api/account/tokens': { name: 'bot', scopes: ['read'], expiresInDays: 30 },
  'POST /api/tokens': { name: 'bot', expiresIn: 30 },
  'POST /api/edit/games/:id/webhooks': { name: 'hook', kind: 'Generic', url: 'https://example.com/hook', secret: '', chatId: '', events: ['blood'], enabled: true, allowPrivate: false, rotateSecret: false },
  'PUT /api/edit/games/:id/webhooks/:webhookId': { name: 'hook', kind: 'Generic', url: 'https://example.com/hook', secret: '', chatId: '', events: ['blood'], enabled: true, allowPrivate: false, rotateSecret: false },
  'PUT /api/edit/games/:id/ctftime': { enabled: false },
  'PUT /api/edit/games/:id/reveal/auto': { intervalMs: 1000 },
  'POST /api/edit/games/:id/archive': { challenges: true, attachments: false },
}

/**
 * Routes without path parameters whose accepted inputs change nothing (they end in "no such
 * account"): candidates their schema accepts are sent there too, anonymously. Accepted candidates
 * of the other parameterless routes (which would create or change rows) are not sent.
 */
const SAFE_WHEN_VALID = new Set(['POST /api/account/recovery', 'POST /api/account/passwordreset', 'POST /api/account/verify', 'POST /api/account/login'])

/* ------------------------------------------------------------------------------------------------ */

beforeAll(async () => {
  server = await startTestServer()
  world = await buildWorld(server)
  admin = world.clients.admin
  // Freeze the one column every request may touch (last visit, docs/compatibility.md#sessions-and-roles step 3) for the callers of this file.
  await sql(`update users set last_visited = '2100-01-01T00:00:00Z' where id = ?`, [world.users.admin.id])
  // A write behind the server's back: drop its cached copy of the admin (docs/architecture.md#read-cache).
  server.services.readCache.invalidate([`User:${world.users.admin.id}`])
  before = await snapshot()
})
afterAll(async () => {
  await server?.close()
})

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => server.services.orm.em.fork().getConnection().execute<T[]>(text, params)

/** Row count and content checksum of every table but `logs` and `sessions`. */
async function snapshot(): Promise<Map<string, string>> {
  const tables = await sql<{ tablename: string }>(`select tablename from pg_tables where schemaname = 'public' and tablename not in ('logs', 'sessions') order by 1`)
  const out = new Map<string, string>()
  for (const { tablename } of tables) {
    const [row] = await sql<{ n: string; sum: string | null }>(`select count(*) as n, md5(string_agg(t::text, ',' order by t::text)) as sum from "${tablename}" t`)
    out.set(tablename, `${row!.n} rows, ${row!.sum}`)
  }
  return out
}

/** Run `tasks` a few at a time. */
async function inGroups<T>(tasks: (() => Promise<T>)[], size = 6): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < tasks.length; i += size) out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))))
  return out
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema
  for (let i = 0; i < 10; i++) {
    if (s instanceof z.ZodPipe) s = s.in as z.ZodType
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType
    else break
  }
  return s
}

/** The member names of an object schema (or of the element of an array-of-objects schema). */
function membersOf(schema: z.ZodType): { kind: 'object' | 'array' | 'scalar'; members: string[] } {
  const s = unwrap(schema)
  if (s instanceof z.ZodObject) return { kind: 'object', members: Object.keys(s.shape) }
  if (s instanceof z.ZodArray) {
    const element = unwrap(s.element as z.ZodType)
    return { kind: 'array', members: element instanceof z.ZodObject ? Object.keys(element.shape) : [] }
  }
  return { kind: 'scalar', members: [] }
}

/** What the route's validation answers for `value`: its 400 title, or null when the schema accepts it. */
function validationTitle(schema: z.ZodType, value: unknown): string | null {
  try {
    parseOrThrow(schema, value)
    return null
  } catch (err) {
    if (err instanceof AppError) return err.title
    throw err
  }
}

/** Whether the route's `name` parameter is a GUID (so that a missing row needs a well-formed GUID to reach the route). */
const isGuidParam = (route: RouteSpec, name: string) => {
  const param = (route.params as z.ZodObject | undefined)?.shape[name] as z.ZodType | undefined
  return param !== undefined && !param.safeParse('2147483000').success && param.safeParse(randomUUID()).success
}

/** Fill path parameters with rows that do not exist (writes) or with the world's rows (reads). */
function pathFor(route: RouteSpec, existing: boolean): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (name === 'hash') return existing ? world.files.main : '0'.repeat(64)
    if (name === 'filename') return existing ? world.capture.fileName : 'none.pcap'
    if (name === 'status') return 'Accepted'
    if (name === 'userid') return existing ? world.users.user.user.id : randomUUID()
    if (route.path.includes('/posts/')) return existing ? world.posts.main : 'ffffffff'
    if (!existing) return isGuidParam(route, name) ? randomUUID() : '2147483000'
    if (name === 'id') return String(route.path.startsWith('/api/team') ? world.teams.a.id : world.game.id)
    if (name === 'challengeId' || name === 'cId') return String(world.challenges.static.id)
    if (name === 'partId') return String(world.participations.a.id)
    if (name === 'noticeId') return String(world.notices.normal)
    if (name === 'submitId') return String(world.submissionId)
    return '1'
  })
}

const isProblem = (res: ApiResponse) => ProblemDetails.safeParse(res.body).success
const isRequestResponse = (res: ApiResponse) => RequestResponse.safeParse(res.body).success && (res.body as { status: number }).status >= 400

/** A 4xx with the contract's error body (ProblemDetails allowed for 404/413/415). */
function clientError(res: ApiResponse): string | null {
  if (res.status < 400 || res.status >= 500) return `status ${res.status}: ${res.text.slice(0, 200)}`
  if ([404, 413, 415].includes(res.status) && isProblem(res)) return null
  if (!isRequestResponse(res)) return `status ${res.status} without {title, status}: ${res.text.slice(0, 200)}`
  return null
}

function expectBadRequest(res: ApiResponse, title: string): string | null {
  if (res.status === 400 && JSON.stringify(res.body) === JSON.stringify({ title, status: 400 })) return null
  return `expected 400 "${title.slice(0, 120)}", got ${res.status} ${res.text.slice(0, 200)}`
}

const jsonRoutes = allRoutes.filter((r) => r.body && r.body !== 'multipart')
const multipartRoutes = allRoutes.filter((r) => r.body === 'multipart')
const queryRoutes = allRoutes.filter((r) => r.query)
const paramRoutes = allRoutes.filter((r) => /:\w+/.test(r.path))

/* ------------------------------------------------------------------------------------------------ */

describe('hostile JSON bodies', () => {
  it('every JSON route has a valid base body that its schema accepts', () => {
    const problems = jsonRoutes.flatMap((r) => {
      const base = VALID_BODIES[specKey(r)]
      if (base === undefined) return [`${specKey(r)}: no base body`]
      const title = validationTitle(r.body as z.ZodType, base)
      return title ? [`${specKey(r)}: base body refused: ${title}`] : []
    })
    expect(problems).toEqual([])
  })

  it.each(jsonRoutes.map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const schema = route.body as z.ZodType
    const base = VALID_BODIES[specKey(route)]
    const { kind, members } = membersOf(schema)
    const hasParams = /:\w+/.test(route.path)
    const target = pathFor(route, false)
    const candidates: [string, unknown][] = []
    const mutate = (member: string, value: unknown, drop = false) => {
      const copy = structuredClone(base) as Record<string, unknown> | Record<string, unknown>[]
      const obj = (kind === 'array' ? (copy as Record<string, unknown>[])[0] : copy) as Record<string, unknown>
      if (drop) delete obj[member]
      else obj[member] = value
      return copy
    }
    if (kind === 'scalar') {
      for (const [label, value] of HOSTILE_VALUES) candidates.push([`body = ${label}`, value])
    } else {
      for (const member of members) {
        candidates.push([`${member} missing`, mutate(member, undefined, true)])
        for (const [label, value] of HOSTILE_VALUES) candidates.push([`${member} = ${label}`, mutate(member, value)])
      }
      candidates.push(['array of the base', [base]], ['empty object', {}], ['bare string', 'text'], ['number', 42])
    }
    const problems = await inGroups(
      candidates.map(([label, body]) => async () => {
        const title = validationTitle(schema, body)
        let caller = admin
        if (title === null && !hasParams) {
          if (!SAFE_WHEN_VALID.has(specKey(route))) return null
          caller = server.client()
        }
        const text = JSON.stringify(body)
        const res = await caller.request(route.method, target, { body: text, headers: { 'content-type': 'application/json' } })
        let problem: string | null
        if (Buffer.byteLength(text) > bodyLimitOf(route)) problem = res.status === 413 && isProblem(res) ? null : `expected 413 over the ${bodyLimitOf(route)}-byte limit, got ${res.status} ${res.text.slice(0, 200)}`
        else problem = title !== null ? expectBadRequest(res, title) : clientError(res)
        return problem ? `${label}: ${problem}` : null
      }),
    )
    expect(problems.filter(Boolean)).toEqual([])
  }, 120_000)

  it.each(jsonRoutes.map((r) => [specKey(r), r] as const))('%s refuses malformed JSON, the wrong shape, the wrong content type and an empty body', async (_, route) => {
    const target = pathFor(route, false)
    const { kind } = membersOf(route.body as z.ZodType)
    const raw = (body: string, type?: string) => admin.request(route.method, target, { body, headers: type ? { 'content-type': type } : {} })
    const results: [string, ApiResponse, (res: ApiResponse) => string | null][] = [
      ['malformed', await raw('{"title": ', 'application/json'), (res) => (res.status === 400 && isRequestResponse(res) ? null : `got ${res.status} ${res.text}`)],
      ['trailing comma', await raw('{"a": 1,}', 'application/json'), (res) => (res.status === 400 && isRequestResponse(res) ? null : `got ${res.status} ${res.text}`)],
      ['wrong shape', await raw(kind === 'array' ? '{}' : '[]', 'application/json'), (res) => (res.status === 400 && isRequestResponse(res) ? null : `got ${res.status} ${res.text}`)],
      ['empty body', await raw('', 'application/json'), (res) => expectBadRequest(res, 'A non-empty request body is required.')],
      ['text/plain', await raw(JSON.stringify(VALID_BODIES[specKey(route)]), 'text/plain'), (res) => (res.status === 415 && isProblem(res) ? null : `got ${res.status} ${res.text}`)],
      ['form content type', await raw('a=1', 'application/x-www-form-urlencoded'), (res) => (res.status === 415 && isProblem(res) ? null : `got ${res.status} ${res.text}`)],
      ['no content type', await raw(JSON.stringify(VALID_BODIES[specKey(route)])), (res) => (res.status === 415 && isProblem(res) ? null : `got ${res.status} ${res.text}`)],
    ]
    expect(results.map(([label, res, check]) => (check(res) ? `${label}: ${check(res)}` : null)).filter(Boolean)).toEqual([])
  })

  it.each(jsonRoutes.map((r) => [specKey(r), r] as const))('%s refuses a body one byte over its limit, announced or chunked', async (_, route) => {
    const body = paddedJson(VALID_BODIES[specKey(route)], bodyLimitOf(route) + 1)
    for (const mode of ['announce', 'chunked'] as const) {
      expectTooLarge(await sendBody(server.url, route.method, pathFor(route, true), { headers: { 'content-type': 'application/json', cookie: admin.cookieHeader }, body, mode }), mode)
    }
  })

  it('refuses a real 31 MB JSON body with 413', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(REQUEST_BODY_MAX_BYTES + 1_000_000) })
    const res = await admin.request('POST', '/api/edit/posts', { body, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(413)
    expect(ProblemDetails.parse(res.body)).toMatchObject({ status: 413 })
  })
})

function expectTooLarge(res: BodyResponse, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(413)
  expect(ProblemDetails.parse(JSON.parse(res.text))).toMatchObject({ status: 413, title: 'Payload Too Large' })
}

describe('body limits of the other routes', () => {
  it.each(multipartRoutes.map((r) => [specKey(r), r] as const))('%s refuses a body one byte over its limit, announced or chunked', async (_, route) => {
    const envelope = multipartOverhead('file', 'big.png', 'image/png')
    const { body, contentType } = multipartFile('file', 'big.png', Buffer.alloc(bodyLimitOf(route) + 1 - envelope), 'image/png')
    for (const mode of ['announce', 'chunked'] as const) {
      expectTooLarge(await sendBody(server.url, route.method, pathFor(route, true), { headers: { 'content-type': contentType, cookie: admin.cookieHeader }, body, mode }), mode)
    }
  })

  it.each(allRoutes.filter((r) => !r.body).map((r) => [specKey(r), r] as const))('%s takes no body: one announced above 64 KiB is refused unread', async (_, route) => {
    expectTooLarge(await sendBody(server.url, route.method, pathFor(route, false), { headers: { cookie: admin.cookieHeader }, body: Buffer.alloc(bodyLimitOf(route) + 1), mode: 'announce' }), 'announce')
  })
})

describe('strings one character longer than their column', () => {
  const columns = boundedColumns()
  /** [column, member] pairs whose member is written by some request schema. */
  const members = Object.entries(COLUMN_GUARDS).flatMap(([column, guard]) => ('members' in guard ? guard.members.map((m) => [column, m] as [string, Member]) : []))
  /** The members a route's body schema (or the element of its array body) carries. */
  const membersOf = (route: RouteSpec) => {
    const schema = unwrap(route.body as z.ZodType)
    const object = schema instanceof z.ZodArray ? unwrap(schema.element as z.ZodType) : schema
    return members.filter(([, [memberSchema]]) => memberSchema === object)
  }

  it.each(jsonRoutes.filter((r) => membersOf(r).length > 0).map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const base = VALID_BODIES[specKey(route)]
    const problems: string[] = []
    for (const [column, [, field, value = (n: number) => 'a'.repeat(n)]] of membersOf(route)) {
      const copy = structuredClone(base) as Record<string, unknown> | Record<string, unknown>[]
      ;(Array.isArray(copy) ? copy[0]! : copy)[field] = value(columns.get(column)! + 1)
      const title = validationTitle(route.body as z.ZodType, copy)
      if (title === null) {
        problems.push(`${field} (${column}): the schema accepts a value longer than the column`)
        continue
      }
      // Real rows where the path names any: nothing may reach them.
      const res = await admin.request(route.method, pathFor(route, true), { json: copy })
      const problem = expectBadRequest(res, title)
      if (problem) problems.push(`${field} (${column}): ${problem}`)
    }
    expect(problems).toEqual([])
  })
})

describe('hostile query strings', () => {
  it.each(queryRoutes.map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const schema = route.query as z.ZodType
    const { members } = membersOf(schema)
    const read = route.method === 'GET' || route.path.endsWith('/search')
    const target = pathFor(route, read)
    const problems = await inGroups(
      members.flatMap((member) =>
        HOSTILE_QUERY_VALUES.map(([label, value]) => async () => {
          const params = new URLSearchParams()
          for (const v of Array.isArray(value) ? value : [value]) params.append(member, v)
          const qs = params.toString()
          const title = validationTitle(schema, querystring.parse(qs))
          const res =
            route.body === 'multipart'
              ? await admin.upload(route.method as 'POST', `${target}?${qs}`, [])
              : await admin.request(route.method, `${target}?${qs}`)
          let problem: string | null
          if (title !== null) problem = expectBadRequest(res, title)
          else problem = res.status >= 500 ? `status ${res.status}: ${res.text.slice(0, 200)}` : res.status >= 400 ? clientError(res) : null
          return problem ? `${member}=${label}: ${problem}` : null
        }),
      ),
    )
    expect(problems.filter(Boolean)).toEqual([])
  })

  it('answers a 1 MB query string with a 4xx, never a 5xx', async () => {
    const res = await admin.get(`/api/game/${world.game.id}/notices?count=${MB1}`)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})

describe('hostile path parameters', () => {
  const VALUES = ['2147483648', '99999999999999999999', '1e3', '0x10', '-0', ' 1', 'abc', '..%2F..%2Fetc%2Fpasswd', '%00', 'NaN', encodeURIComponent('<script>')]
  it.each(paramRoutes.map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
    const base = pathFor(route, false)
    const problems = await inGroups(
      names.flatMap((name) =>
        VALUES.map((value) => async () => {
          const segments = route.path.split('/')
          const baseSegments = base.split('/')
          const target = segments.map((s, i) => (s === `:${name}` ? value : baseSegments[i])).join('/')
          const res = await admin.request(route.method, target, route.body === 'multipart' ? {} : route.body ? { json: VALID_BODIES[specKey(route)] } : {})
          const problem = res.status >= 400 ? clientError(res) : route.method === 'GET' ? null : `status ${res.status} on a write to a row that cannot exist`
          return problem ? `${name}=${value}: ${problem}` : null
        }),
      ),
    )
    expect(problems.filter(Boolean)).toEqual([])
  })
})

describe('hostile uploads', () => {
  const evil = `flagwave-evil-${randomBytes(4).toString('hex')}`

  it.each(multipartRoutes.filter((r) => r.path !== '/api/assets').map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const target = pathFor(route, true)
    const pdf = route.path.endsWith('/writeup')
    const cases: [string, () => Promise<ApiResponse>, (res: ApiResponse) => string | null][] = [
      ['non-image bytes named .png', () => admin.upload(route.method as 'PUT', target, [['file', 'picture.png', 'GIF89a? no, plain text', 'image/png']]), clientError],
      ['a PNG header glued to text', () => admin.upload(route.method as 'PUT', target, [['file', 'picture.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really')]), 'image/png']]), clientError],
      ['path traversal name', () => admin.upload(route.method as 'PUT', target, [['file', `../../../../../../tmp/${evil}.${pdf ? 'pdf' : 'png'}`, pdf ? PDF_BYTES : 'not an image', pdf ? 'application/pdf' : 'image/png']]), clientError],
      ['backslash traversal name', () => admin.upload(route.method as 'PUT', target, [['file', `..\\..\\..\\${evil}.${pdf ? 'pdf' : 'png'}`, pdf ? PDF_BYTES : 'not an image', pdf ? 'application/pdf' : 'image/png']]), clientError],
      ['NUL in the name', () => admin.upload(route.method as 'PUT', target, [['file', `a\u0000.png`, 'x', 'image/png']]), clientError],
      ['10 KB name', () => admin.upload(route.method as 'PUT', target, [['file', `${KB10}.png`, 'x', 'image/png']]), clientError],
      ['empty file', () => admin.upload(route.method as 'PUT', target, [['file', 'empty.png', '', 'image/png']]), clientError],
      ['no file part', () => admin.upload(route.method as 'PUT', target, [['other', 'x.png', 'x', 'image/png']]), clientError],
      ['JSON instead of multipart', () => admin.request(route.method, target, { json: { file: 'x' } }), (res) => (res.status === 415 && isProblem(res) ? null : `got ${res.status} ${res.text}`)],
      ['broken multipart', () => admin.request(route.method, target, { body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc', headers: { 'content-type': 'multipart/form-data; boundary=xyz' } }), clientError],
      [
        '31 MB file',
        () => admin.upload(route.method as 'PUT', target, [['file', 'big.png', Buffer.alloc(REQUEST_BODY_MAX_BYTES + 1_000_000), 'image/png']]),
        // Over the limit of every upload route but the game import's (512 MiB): that one judges the bytes and refuses them.
        bodyLimitOf(route) < REQUEST_BODY_MAX_BYTES + 1_000_000 ? (res) => (res.status === 413 && isProblem(res) ? null : `got ${res.status} ${res.text}`) : clientError,
      ],
    ]
    const problems: string[] = []
    for (const [label, run, check] of cases) {
      const problem = check(await run())
      if (problem) problems.push(`${label}: ${problem}`)
    }
    expect(problems).toEqual([])
    for (const dir of [os.tmpdir(), path.dirname(server.dataDir), server.dataDir]) expect(fs.readdirSync(dir).filter((f) => f.includes(evil)), dir).toEqual([])
  })
})

describe('afterwards', () => {
  it('no table changed (row counts and content checksums, logs and sessions excepted)', async () => {
    const after = await snapshot()
    const changed = [...before].filter(([table, sum]) => after.get(table) !== sum).map(([table, sum]) => `${table}: ${sum} → ${after.get(table)}`)
    expect(changed).toEqual([])
  })

  it('stores an asset uploaded under a path-traversal name by its hash, inside the data directory only', async () => {
    const evil = `flagwave-evil-${randomBytes(4).toString('hex')}`
    const res = await admin.upload('POST', '/api/assets', [['files', `../../../../../../tmp/${evil}.txt`, 'traversal payload', 'text/plain']])
    expect(res.status).toBe(200)
    const [file] = res.body as { hash: string; name: string }[]
    expect(file!.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.includes(evil))).toEqual([])
    expect(fs.readdirSync(path.dirname(server.dataDir)).filter((f) => f.includes(evil))).toEqual([])
    const download = await server.client().get(`/assets/${file!.hash}/${encodeURIComponent(file!.name)}`)
    expect(download.status).toBe(200)
    expect(download.text).toBe('traversal payload')
    // A traversal in the download name does not escape the store either.
    expect((await server.client().get(`/assets/${file!.hash}/..%2F..%2F..%2Fetc%2Fpasswd`)).text).toBe('traversal payload')
    expect((await server.client().get(`/assets/..%2F..%2F..%2Fetc%2Fpasswd/x`)).status).toBe(404)
  })
})
