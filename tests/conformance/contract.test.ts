/**
 * Conformance walk over docs/compatibility.md#routes-by-group (tests/support/contract.ts): every endpoint is called
 * successfully with the fixtures of tests/support/fixtures.ts, as the right caller, and checked for
 *   - the method (another method on the same path matches nothing: 404),
 *   - the path, case-insensitively (GETs in lower, UPPER and mIxEd case; others in mixed case plus
 *     an UPPER-case probe that must reach the route),
 *   - the auth behaviour (anonymous → 401 `请先登录` on role routes),
 *   - status 200 and the body against the route's shared zod `response` schema: JSON parses with
 *     it, empty-body endpoints send `Content-Length: 0`, string endpoints send a JSON string
 *     literal, downloads carry their media type,
 *   - every date in every JSON response in the wire format (`+00:00` offset, docs/compatibility.md#dates).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { allRoutes } from '../../server/src/routes/index.js'
import type { RouteSpec } from '../../server/src/http/route.js'
import type { ContainerProvider, ContainerSpec, CreatedContainer, EngineContainer } from '../../server/src/containers/provider.js'
import { Flag } from '../../server/src/entities/Flag.js'
import { inviteCode } from '../../server/src/domain/teams/inviteCode.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { buildWorld, PDF_BYTES, PNG_2X2, type World } from '../support/fixtures.js'
import { routeKey, send, type MatrixRequest } from '../support/matrix.js'
import { CONTRACT_ENDPOINTS, type ContractEndpoint } from '../support/contract.js'
import type { ApiClient, ApiResponse } from '../support/client.js'
import { createUser, DEFAULT_PASSWORD } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createInstanceContainer } from '../support/factories/play.js'

let server: TestServer
let world: World

/** A container engine stand-in: creates succeed at once, so the container endpoints can answer 200. */
class FakeProvider implements ContainerProvider {
  readonly name = 'docker' as const
  readonly running = new Map<string, string>()
  async create(spec: ContainerSpec): Promise<CreatedContainer> {
    const containerId = randomBytes(16).toString('hex')
    this.running.set(containerId, spec.id)
    return { containerId, status: 'Running', ip: '10.0.0.9', port: spec.port, publicIp: '127.0.0.1', publicPort: 30_000 + this.running.size }
  }
  async destroy(containerId: string): Promise<void> {
    this.running.delete(containerId)
  }
  async list(): Promise<EngineContainer[]> {
    return [...this.running].map(([containerId, guid]) => ({ containerId, guid, running: true, createdAt: new Date() }))
  }
  async alive(containerId: string): Promise<boolean> {
    return this.running.has(containerId)
  }
  dialTarget(container: { ip: string; port: number }) {
    return { host: container.ip, port: container.port }
  }
  async close(): Promise<void> {}
}

beforeAll(async () => {
  server = await startTestServer({ env: { CONTAINER_PORT_MAPPING: 'proxy' } })
  ;(server.services.containers as unknown as { provider: ContainerProvider }).provider = new FakeProvider()
  world = await buildWorld(server)
  // E-mail flows (recovery, verification, e-mail change) need confirmation mails.
  const res = await world.clients.admin.put('/api/admin/config', { accountPolicy: { allowRegister: true, activeOnRegister: false, emailConfirmationRequired: true } })
  expect(res.status).toBe(200)
})
afterAll(async () => {
  await server?.close()
})

/* ------------------------------------------------------------------------------------------------ */

const sql = (text: string, params: unknown[] = []) => server.services.orm.em.fork().getConnection().execute(text, params)
const uniq = () => randomBytes(4).toString('hex')

/** The link of the last account mail to `to` (`/account/{page}?token=…&email=…`). */
function mailLink(to: string, page: 'verify' | 'reset' | 'confirm'): { token: string; email: string } {
  const mail = [...server.services.mailer.recent].reverse().find((m) => m.to === to)
  if (!mail) throw new Error(`no mail to ${to}`)
  const match = new RegExp(`/account/${page}\\?token=([^&\\s]+)&email=([^&\\s]+)`).exec(mail.text)
  if (!match) throw new Error(`no /account/${page} link in ${mail.text}`)
  return { token: match[1]!, email: match[2]! }
}

/** A fresh team (no game, unlocked) with a captain and one member, both signed in. */
async function freshTeam() {
  const captain = await createUser(server)
  const member = await createUser(server)
  const team = await createTeam(server, captain.user, [member.user], { name: `t${uniq()}` })
  return { captain, member, team }
}

interface Call {
  caller: ApiClient
  params?: Record<string, string | number>
  query?: string
  request?: MatrixRequest
  /** 200 unless told (the proxy answers a plain request with 204). */
  status?: number
  check?: (res: ApiResponse) => void | Promise<void>
}

const CALLS: Record<number, (w: World) => Promise<Call> | Call> = {
  /* ------------------------------------------------------------------ account (1–12) */
  1: () => {
    const userName = `reg${uniq()}`
    return { caller: server.client(), request: { json: { userName, password: DEFAULT_PASSWORD, email: `${userName}@example.com` } }, check: (res) => expect(res.body).toMatchObject({ data: 'EmailConfirmationRequired', status: 200 }) }
  },
  2: async () => {
    const u = await createUser(server)
    return { caller: server.client(), request: { json: { email: u.user.email } }, check: (res) => expect(res.body).toEqual({ title: '邮件发送成功', status: 200 }) }
  },
  3: async () => {
    const u = await createUser(server)
    expect((await server.client().post('/api/account/recovery', { email: u.user.email })).status).toBe(200)
    const link = mailLink(u.user.email, 'reset')
    return { caller: server.client(), request: { json: { password: 'N3w-Passw0rd', email: link.email, rToken: link.token } } }
  },
  4: async () => {
    const userName = `ver${uniq()}`
    const email = `${userName}@example.com`
    expect((await server.client().post('/api/account/register', { userName, password: DEFAULT_PASSWORD, email })).status).toBe(200)
    const link = mailLink(email, 'verify')
    return { caller: server.client(), request: { json: link }, check: (res) => expect(res.headers.getSetCookie().some((c) => c.startsWith('GZCTF_Token='))).toBe(true) }
  },
  5: async () => {
    const u = await createUser(server)
    return { caller: server.client(), request: { json: { userName: u.user.userName, password: u.password } }, check: (res) => expect(res.headers.getSetCookie().some((c) => c.startsWith('GZCTF_Token='))).toBe(true) }
  },
  6: async () => ({ caller: (await createUser(server)).client }),
  7: async () => ({ caller: (await createUser(server)).client, request: { json: { bio: 'conformance' } } }),
  8: async () => ({ caller: (await createUser(server)).client, request: { json: { old: DEFAULT_PASSWORD, new: 'N3w-Passw0rd' } } }),
  9: async () => ({ caller: (await createUser(server)).client, request: { json: { newMail: `m${uniq()}@example.org` } }, check: (res) => expect(res.body).toEqual({ title: '邮箱待验证', data: true, status: 200 }) }),
  10: async () => {
    const u = await createUser(server)
    const newMail = `c${uniq()}@example.org`
    expect((await u.client.put('/api/account/changeemail', { newMail })).status).toBe(200)
    return { caller: u.client, request: { json: mailLink(newMail, 'confirm') } }
  },
  11: (w) => ({ caller: w.clients.user }),
  12: async () => ({ caller: (await createUser(server)).client, request: { upload: [['file', 'avatar.png', PNG_2X2, 'image/png']] } }),

  /* -------------------------------------------------------------------- admin (13–32) */
  13: (w) => ({ caller: w.clients.admin }),
  14: (w) => ({ caller: w.clients.admin, request: { json: { globalConfig: { slogan: 'Conformance' } } } }),
  15: (w) => ({ caller: w.clients.admin, query: '?count=100&skip=0' }),
  16: (w) => {
    const userName = `batch${uniq()}`
    return { caller: w.clients.admin, request: { json: [{ userName, password: DEFAULT_PASSWORD, email: `${userName}@example.com` }] } }
  },
  17: (w) => ({ caller: w.clients.admin, query: '?hint=u' }),
  18: (w) => ({ caller: w.clients.admin, query: '?count=100&skip=0' }),
  19: (w) => ({ caller: w.clients.admin, query: '?hint=Team' }),
  20: (w) => ({ caller: w.clients.admin, params: { id: w.teams.b.id }, request: { json: { bio: 'edited by admin' } } }),
  21: (w) => ({ caller: w.clients.admin, params: { userid: w.users.spareForPassword.user.id }, request: { json: { realName: 'Real' } } }),
  22: (w) => ({ caller: w.clients.admin, params: { userid: w.users.spareForPassword.user.id } }),
  23: (w) => ({ caller: w.clients.admin, params: { userid: w.users.spareForDelete.user.id } }),
  24: (w) => ({ caller: w.clients.admin, params: { id: w.teams.spare.id } }),
  25: (w) => ({ caller: w.clients.admin, params: { userid: w.users.user.user.id } }),
  26: (w) => ({ caller: w.clients.admin, query: '?level=All&count=50&skip=0' }),
  27: (w) => ({ caller: w.clients.admin, params: { id: w.participations.a.id, status: 'Accepted' } }),
  28: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  29: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  30: (w) => ({ caller: w.clients.admin, check: (res) => expect((res.body as { data: { containerGuid: string }[] }).data.map((c) => c.containerGuid)).toContain(w.containerId) }),
  31: (w) => ({ caller: w.clients.admin, params: { id: w.containerId } }),
  32: (w) => ({ caller: w.clients.admin, query: '?count=50&skip=0' }),

  /* ------------------------------------------------------------------- assets (33–35) */
  33: (w) => ({ caller: server.client(), params: { hash: w.files.main, filename: 'download' }, check: (res) => expect(res.text).toBe('world file') }),
  34: (w) => ({ caller: w.clients.admin, request: { upload: [['files', 'conformance.txt', 'conformance upload', 'text/plain']] } }),
  35: (w) => ({ caller: w.clients.admin, params: { hash: w.files.spare } }),

  /* --------------------------------------------------------------------- edit (36–60) */
  36: (w) => ({ caller: w.clients.admin, request: { json: { title: 'Conformance post' } }, check: (res) => expect(res.body).toMatch(/^[0-9a-f]{8}$/) }),
  37: (w) => ({ caller: w.clients.admin, params: { id: w.posts.main }, request: { json: { title: 'Main post', summary: 's', content: 'updated', tags: ['a'] } } }),
  38: (w) => ({ caller: w.clients.admin, params: { id: w.posts.spare } }),
  39: (w) => ({ caller: w.clients.admin, request: { json: { title: 'Created game', start: new Date(Date.now() + 3600_000).toISOString(), end: new Date(Date.now() + 7200_000).toISOString() } } }),
  40: (w) => ({ caller: w.clients.admin, query: '?count=10&skip=0' }),
  41: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  42: (w) => ({ caller: w.clients.admin, params: { id: w.game.id }, check: (res) => expect(res.body).toMatch(/^[0-9a-f]{64}$/) }),
  43: async (w) => {
    const current = await w.clients.admin.get(`/api/edit/games/${w.game.id}`)
    expect(current.status).toBe(200)
    return { caller: w.clients.admin, params: { id: w.game.id }, request: { json: current.body } }
  },
  44: (w) => ({ caller: w.clients.admin, params: { id: w.spareGame.id } }),
  45: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  46: (w) => ({ caller: w.clients.admin, params: { id: w.game.id }, request: { upload: [['file', 'poster.png', PNG_2X2, 'image/png']] } }),
  47: (w) => ({ caller: w.clients.admin, params: { id: w.game.id }, request: { json: { content: 'A notice from the conformance walk' } } }),
  48: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  49: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, noticeId: w.notices.normal }, request: { json: { content: 'Edited notice' } } }),
  50: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, noticeId: w.notices.spare } }),
  51: (w) => ({ caller: w.clients.admin, params: { id: w.game.id }, request: { json: { title: 'Created challenge', tag: 'Web', type: 'StaticAttachment' } } }),
  52: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  53: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.static.id } }),
  54: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.static.id }, request: { json: { hints: ['a hint'] } } }),
  55: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.container.id } }),
  56: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.container.id } }),
  57: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.spare.id } }),
  58: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.static.id }, request: { json: { attachmentType: 'Remote', remoteUrl: 'https://example.com/file.zip' } } }),
  59: (w) => ({ caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.static.id }, request: { json: [{ flag: 'flag{another}' }] } }),
  60: async (w) => {
    const em = server.services.orm.em.fork()
    const flag = em.create(Flag, { challenge: w.challenges.static.id, flag: `flag{doomed_${uniq()}}` })
    await em.flush()
    return { caller: w.clients.admin, params: { id: w.game.id, cId: w.challenges.static.id, fId: flag.id }, check: (res) => expect(res.body).toBe('Success') }
  },

  /* --------------------------------------------------------------------- game (61–86) */
  61: () => ({ caller: server.client() }),
  62: (w) => ({ caller: w.clients.captain, params: { id: w.game.id }, check: (res) => expect(res.body).toMatchObject({ status: 'Accepted', teamName: 'Team A' }) }),
  63: async (w) => {
    const { captain, team } = await freshTeam()
    return { caller: captain.client, params: { id: w.game.id }, request: { json: { teamId: team.id } } }
  },
  64: async (w) => {
    const { captain, team } = await freshTeam()
    expect((await captain.client.post(`/api/game/${w.game.id}`, { teamId: team.id })).status).toBe(200)
    return { caller: captain.client, params: { id: w.game.id } }
  },
  65: (w) => ({ caller: server.client(), params: { id: w.game.id } }),
  66: (w) => ({ caller: server.client(), params: { id: w.game.id } }),
  67: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id }, query: '?hideContainer=false&count=100&skip=0' }),
  68: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id }, query: '?count=100&skip=0' }),
  69: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id }, check: (res) => expect((res.body as unknown[]).length).toBeGreaterThan(0) }),
  70: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id }, check: (res) => expect((res.body as unknown[]).length).toBeGreaterThan(0) }),
  71: (w) => ({ caller: w.clients.monitor, params: { challengeId: w.capture.challengeId } }),
  72: (w) => ({ caller: w.clients.monitor, params: { challengeId: w.capture.challengeId, partId: w.capture.participationId } }),
  73: (w) => ({ caller: w.clients.monitor, params: { challengeId: w.capture.challengeId, partId: w.capture.participationId } }),
  74: (w) => ({ caller: w.clients.monitor, params: { challengeId: w.capture.challengeId, partId: w.capture.participationId, filename: w.capture.fileName } }),
  75: (w) => ({ caller: w.clients.captain, params: { id: w.game.id } }),
  76: (w) => ({ caller: w.clients.admin, params: { id: w.game.id } }),
  77: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id } }),
  78: (w) => ({ caller: w.clients.monitor, params: { id: w.game.id } }),
  79: (w) => ({ caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.static.id } }),
  80: (w) => ({ caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.static.id }, request: { json: { flag: 'flag{static}' } } }),
  81: (w) => ({ caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.static.id, submitId: w.submissionId }, check: (res) => expect(res.body).toBe('Accepted') }),
  82: (w) => ({ caller: w.clients.captain, params: { id: w.game.id } }),
  83: (w) => ({ caller: w.clients.captain, params: { id: w.game.id }, request: { upload: [['file', 'writeup.pdf', PDF_BYTES, 'application/pdf']] } }),
  84: async (w) => {
    await allowContainerOperation(w)
    return { caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.container.id } }
  },
  85: async (w) => {
    await sql(
      `update containers set expect_stop_at = now() + interval '5 minutes' where id = (select container_id from instances where participation_id = ? and challenge_id = ?)`,
      [w.participations.a.id, w.challenges.container.id],
    )
    return { caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.container.id } }
  },
  86: async (w) => {
    await allowContainerOperation(w)
    return { caller: w.clients.captain, params: { id: w.game.id, challengeId: w.challenges.container.id } }
  },

  /* --------------------------------------------------------------------- info (87–91) */
  87: () => ({ caller: server.client() }),
  88: () => ({ caller: server.client() }),
  89: (w) => ({ caller: server.client(), params: { id: w.posts.main } }),
  90: () => ({ caller: server.client() }),
  91: () => ({ caller: server.client() }),

  /* -------------------------------------------------------------------- proxy (92–93) */
  92: async (w) => ({ caller: server.client(), params: { id: (await createInstanceContainer(server, w.participations.c, w.challenges.container, { isProxy: true })).id }, status: 204 }),
  93: async (w) => ({ caller: server.client(), params: { id: (await createInstanceContainer(server, w.participations.c, w.challenges.static, { isProxy: true })).id }, status: 204 }),

  /* -------------------------------------------------------------------- team (94–105) */
  94: (w) => ({ caller: server.client(), params: { id: w.teams.a.id } }),
  95: (w) => ({ caller: w.clients.captain }),
  96: async () => ({ caller: (await createUser(server)).client, request: { json: { name: 'New team', bio: 'hello' } } }),
  97: (w) => ({ caller: w.clients.captain, params: { id: w.teams.a.id }, request: { json: { name: 'Team A', bio: 'the best' } } }),
  98: async () => {
    const { captain, member, team } = await freshTeam()
    return { caller: captain.client, params: { id: team.id }, request: { json: { newCaptainId: member.user.id } } }
  },
  99: (w) => ({ caller: w.clients.captain, params: { id: w.teams.a.id }, check: (res) => expect(res.body).toMatch(/^Team A:\d+:[0-9a-f]{32}$/) }),
  100: (w) => ({ caller: w.clients.captain, params: { id: w.teams.a.id } }),
  101: async () => {
    const { captain, member, team } = await freshTeam()
    return { caller: captain.client, params: { id: team.id, userid: member.user.id } }
  },
  102: async () => {
    const { team } = await freshTeam()
    return { caller: (await createUser(server)).client, request: { json: inviteCode(team) } }
  },
  103: async () => {
    const { member, team } = await freshTeam()
    return { caller: member.client, params: { id: team.id } }
  },
  104: (w) => ({ caller: w.clients.captain, params: { id: w.teams.a.id }, request: { upload: [['file', 'team.png', PNG_2X2, 'image/png']] } }),
  105: async () => {
    const { captain, team } = await freshTeam()
    return { caller: captain.client, params: { id: team.id } }
  },
}

/** Forget the 10-second container throttle of team A's container instance (docs/compatibility.md#group-game-containers). */
async function allowContainerOperation(w: World) {
  await sql(`update instances set last_container_operation = now() - interval '1 hour' where participation_id = ? and challenge_id = ?`, [w.participations.a.id, w.challenges.container.id])
}

/* ------------------------------------------------------------------------------------------------ */

type Casing = 'lower' | 'upper' | 'mixed'
const mixed = (s: string) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('')

/** The contract path with parameters filled in; only the literal segments change case. */
function buildPath(template: string, params: Record<string, string | number> = {}, casing: Casing = 'lower'): string {
  return template
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment)
      if (param) {
        const value = params[param[1]!]
        if (value === undefined) throw new Error(`no value for {${param[1]}} in ${template}`)
        return encodeURIComponent(String(value))
      }
      return casing === 'upper' ? segment.toUpperCase() : casing === 'mixed' ? mixed(segment) : segment
    })
    .join('/')
}

export const WIRE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?\+00:00$/
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

/** Every date-like string anywhere in `value`, with its JSON path, that is not in the wire format. */
export function badDates(value: unknown, at = '$'): string[] {
  if (typeof value === 'string') return DATE_LIKE.test(value) && !WIRE_DATE.test(value) ? [`${at} = ${value}`] : []
  if (Array.isArray(value)) return value.flatMap((v, i) => badDates(v, `${at}[${i}]`))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => badDates(v, `${at}.${k}`))
  return []
}

const isJson = (res: ApiResponse) => /^application\/(problem\+)?json/.test(res.headers.get('content-type') ?? '')

function checkSuccess(route: RouteSpec, res: ApiResponse, expectedStatus: number): void {
  const where = `${route.method} ${route.path}`
  expect(res.status, `${where}: ${res.text.slice(0, 300)}`).toBe(expectedStatus)
  const response = route.response
  expect(response, `${where} declares no response`).toBeDefined()
  if (response === 'empty') {
    expect(res.text, where).toBe('')
    if (expectedStatus === 200) expect(res.headers.get('content-length'), where).toBe('0')
    return
  }
  if (typeof response === 'string') {
    const type = response.slice('file:'.length)
    // `*/*`: a stored file is served as the type stored with it (docs/compatibility.md#group-assets).
    if (type !== '*/*') expect(res.headers.get('content-type') ?? '', where).toContain(type)
    expect(res.text.length, `${where}: empty download`).toBeGreaterThan(0)
    return
  }
  expect(isJson(res), `${where}: content-type ${res.headers.get('content-type')}`).toBe(true)
  const parsed = (response as z.ZodType).safeParse(res.body)
  expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), `${where}: body ${res.text.slice(0, 500)}`).toEqual([])
  if (typeof res.body === 'string') expect(res.text.startsWith('"'), `${where}: not a JSON string literal`).toBe(true)
  expect(badDates(res.body), `${where}: dates`).toEqual([])
}

const routeOf = (e: ContractEndpoint) => allRoutes.find((r) => routeKey(r.method, r.path) === routeKey(e.method, e.path))

describe('every contract endpoint answers as its GZ::CTF v0.17.6 row says', () => {
  it('every route declares its success response', () => {
    expect(allRoutes.filter((r) => r.response === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([])
  })

  it.each(CONTRACT_ENDPOINTS.map((e) => [`#${e.n} ${e.method} ${e.path}`, e] as const))('%s', async (_, endpoint) => {
    const route = routeOf(endpoint)
    expect(route, 'route').toBeDefined()
    const spec = CALLS[endpoint.n]
    expect(spec, 'conformance call').toBeDefined()
    const call = await spec!(world)
    const status = call.status ?? 200
    const query = call.query ?? ''

    // Success, with the path in every casing for reads and in mixed case for writes.
    const casings: Casing[] = endpoint.method === 'GET' ? ['lower', 'upper', 'mixed'] : ['mixed']
    for (const casing of casings) {
      const res = await send(call.caller, endpoint.method, buildPath(endpoint.path, call.params, casing) + query, call.request)
      checkSuccess(route!, res, status)
      await call.check?.(res)
    }

    const upper = buildPath(endpoint.path, call.params, 'upper') + query
    // Auth: anonymous callers of a role route are told to log in (before the body is read).
    if (route!.role) {
      const anonymous = await server.client().request(endpoint.method, upper)
      expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 401, body: { title: '请先登录', status: 401 } })
    } else if (endpoint.method !== 'GET') {
      // An anonymous write reached in UPPER case: the route's own validation answers.
      const probe = await server.client().request(endpoint.method, upper, { json: {} })
      expect(probe.status, probe.text).toBe(400)
      expect(probe.body).toMatchObject({ status: 400 })
    }

    // Method: the same path with a method the contract does not list matches no endpoint.
    const other = await call.caller.request('PATCH', buildPath(endpoint.path, call.params))
    expect(other.status).toBe(404)
    expect(badDates(other.body)).toEqual([])
  })
})
