/**
 * The permission matrix of API tokens (docs/architecture.md#api-tokens): every route of the table ×
 * every token scope, each token held by the Admin of the world (so the role never narrows it), plus
 * the three hubs × every scope. A route answers a token what `tokenScopeOf` says — 403 `API
 * 令牌不能用于此操作` for routes no token may call, 403 `令牌权限不足` without the scope — and
 * otherwise what it answers the Admin's session (tests/support/matrix.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { io, type Socket } from 'socket.io-client'
import { rooms } from '@flagwave/shared/events'
import { TOKEN_SCOPES, type TokenScope } from '@flagwave/shared/schemas/tokens'
import { allRoutes } from '../../server/src/routes/index.js'
import { tokenScopeOf, type RouteSpec } from '../../server/src/http/route.js'
import { scopeAllows } from '../../server/src/domain/accounts/apiTokens.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { buildWorld, type World } from '../support/fixtures.js'
import { contractRowOf, expectedOutcome, MATRIX, outcomeProblem, send, specKey } from '../support/matrix.js'
import { ApiClient, type ApiResponse } from '../support/client.js'
import { joined, type Namespace } from '../support/sockets.js'

let server: TestServer
let world: World
const tokens = {} as Record<TokenScope, string>
const sockets: Socket[] = []

beforeAll(async () => {
  server = await startTestServer()
  world = await buildWorld(server)
  for (const scope of TOKEN_SCOPES) {
    const res = await world.clients.admin.post('/api/account/tokens', { name: scope, scopes: [scope] })
    expect(res.status, res.text).toBe(200)
    tokens[scope] = res.body.token
  }
})
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
afterAll(async () => {
  await server?.close()
})

/** A client that sends only the token: no cookie. */
class TokenClient extends ApiClient {
  constructor(
    base: string,
    private readonly token: string,
  ) {
    super(base)
  }
  override request<T = unknown>(method: string, path: string, options: Parameters<ApiClient['request']>[2] = {}): Promise<ApiResponse<T>> {
    this.cookies.clear()
    return super.request<T>(method, path, { ...options, headers: { ...options.headers, authorization: `Bearer ${this.token}` } })
  }
}

function expected(route: RouteSpec, scope: TokenScope): 'never' | 'scope' | 'forbidden' | 'notJoined' | 'hidden' | 'permitted' {
  const needed = tokenScopeOf(route)
  if (needed === 'never') return 'never'
  if (!scopeAllows([scope], needed)) return 'scope'
  const outcome = expectedOutcome(route, contractRowOf(route)!, 'admin')
  return outcome === 'unauthorized' ? 'forbidden' : outcome
}

function check(outcome: ReturnType<typeof expected>, res: ApiResponse): string | null {
  if (outcome === 'never') {
    return res.status === 403 && JSON.stringify(res.body) === JSON.stringify({ title: 'API 令牌不能用于此操作', status: 403 }) ? null : `expected 403 API 令牌不能用于此操作, got ${res.status} ${res.text.slice(0, 200)}`
  }
  if (outcome === 'scope') return res.status === 403 && (res.body as { title?: string }).title === '令牌权限不足' ? null : `expected 403 令牌权限不足, got ${res.status} ${res.text.slice(0, 200)}`
  return outcomeProblem(outcome, res)
}

const phaseOf = (r: RouteSpec) => MATRIX[specKey(r)]?.phase ?? 0
const ordered = [...allRoutes].sort((a, b) => phaseOf(a) - phaseOf(b))

describe('HTTP × token scope', () => {
  it.each(ordered.map((r) => [specKey(r), r] as const))('%s', async (_, route) => {
    const row = MATRIX[specKey(route)]!
    const path = row.path(world)
    const problems: string[] = []
    // Refused scopes first: a permitted call may delete the fixture the row points at.
    const byOutcome = [...TOKEN_SCOPES].sort((a, b) => Number(expected(route, a) === 'permitted') - Number(expected(route, b) === 'permitted'))
    for (const scope of byOutcome) {
      const outcome = expected(route, scope)
      const res = await send(new TokenClient(server.url, tokens[scope]), route.method, path, row.request?.(world, 'admin'))
      const problem = check(outcome, res)
      if (problem) problems.push(`${scope} (${outcome}): ${problem}`)
    }
    expect(problems, `${route.method} ${path}`).toEqual([])
  })
})

describe('hubs × token scope', () => {
  const ADMITTED: Record<Namespace, TokenScope[]> = {
    '/hub/user': ['read', 'submit', 'monitor', 'admin'],
    '/hub/monitor': ['monitor', 'admin'],
    '/hub/admin': ['admin'],
  }
  it.each(Object.keys(ADMITTED) as Namespace[])('%s admits exactly the scopes that include its own', async (ns) => {
    const problems: string[] = []
    for (const scope of TOKEN_SCOPES) {
      const socket = io(server.url + ns, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, auth: { token: tokens[scope] }, query: { game: String(world.game.id) } })
      sockets.push(socket)
      const ending = new Promise<string>((resolve) => socket.once('disconnect', resolve))
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('connect_error', reject)
      })
      const room = ns === '/hub/admin' ? rooms.admins : ns === '/hub/monitor' ? rooms.game(world.game.id) : rooms.user(world.users.admin.id)
      if (ADMITTED[ns].includes(scope)) await joined(server, ns, socket, room).catch((err: Error) => problems.push(`${scope}: ${err.message}`))
      else if ((await ending) !== 'io server disconnect') problems.push(`${scope}: expected to be refused`)
    }
    expect(problems).toEqual([])
  })
})
