/**
 * The hot reads (docs/performance.md#hot-reads): a player's polled GETs answered from the route's
 * kept answer ahead of Koa. An answer from the fast path carries no `X-Request-Id` (Koa's request
 * context sets one). Each case first reads until the answer comes from the fast path, then checks
 * that it is the route's answer, that every rule of the route still holds there, and that each write
 * that changes what a player may see drops it — on this node and on another node of the database.
 */
import { describe, expect, it, vi } from 'vitest'
import pg from 'pg'
import type { TestServer } from '../support/server.js'
import { withTwoNodes } from '../support/twoNodes.js'
import { ApiClient, type ApiResponse } from '../support/client.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { createTeam } from '../support/factories/teams.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import { createAttachmentFlags, createInstances, createPlayer, createSubmission, sameSessionOn, settled, submit, type Player } from '../support/factories/play.js'
import { createUser } from '../support/factories/users.js'
import type { RunningServer } from '../../server/src/server.js'
import { hotReadLabels } from '../../server/src/http/hotReads.js'
import { allRoutes } from '../../server/src/routes/index.js'
import { routeLabel } from '../../server/src/lib/metrics.js'
import { ConfigEntry } from '../../server/src/entities/ConfigEntry.js'

let server: TestServer
let other: RunningServer
let admin: ApiClient

withTwoNodes((nodes) => ({ server, other, admin } = nodes))

const HOUR = 3600_000
const fromFastPath = (res: ApiResponse) => res.headers.get('x-request-id') === null

/** Read `path` until the fast path answers it (the route keeps its answer from the second read on). */
async function hot(client: ApiClient, path: string, headers: Record<string, string> = {}): Promise<ApiResponse<any>> {
  for (let i = 0; i < 4; i++) {
    const res = await client.get(path, headers)
    expect(res.status, `${path}: ${res.text}`).toBe(200)
    if (fromFastPath(res)) return res
  }
  throw new Error(`${path} never came from the fast path`)
}

/** `fetch` until the fast path answers (a new Accept-Encoding value goes through Koa once). */
async function fastFetch(path: string, headers: Record<string, string>): Promise<Response> {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(server.url + path, { headers })
    if (res.headers.get('x-request-id') === null) return res
    await res.arrayBuffer()
  }
  throw new Error(`${path} never came from the fast path`)
}

/** After a write: `check` holds for `client` here and, within 3 s, on the other node. */
async function onBoth(client: ApiClient, path: string, check: (res: ApiResponse<any>) => void): Promise<void> {
  for (const c of [client, sameSessionOn(other, client)]) {
    await expect
      .poll(
        async () => {
          try {
            check(await c.get(path))
            return true
          } catch {
            return false
          }
        },
        { timeout: 3000, interval: 25 },
      )
      .toBe(true)
  }
}

/** Warm `path` into the fast path on both nodes. */
async function warmBoth(client: ApiClient, path: string): Promise<void> {
  await hot(client, path)
  await hot(sameSessionOn(other, client), path)
}

async function runningGame() {
  const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR), practiceMode: false })
  const challenge = await createChallenge(server, game, { isEnabled: true, title: 'First title' })
  const player = await createPlayer(server, game)
  await createInstances(server, [player.participation], [challenge])
  await server.services.scoreboard.rebuild(game.id)
  return { game, challenge, player }
}

it('answers only paths of the route table, GETs all', () => {
  const table = new Set(allRoutes.filter((r) => r.method === 'GET').map((r) => routeLabel(r.method, r.path)))
  for (const label of hotReadLabels()) expect(table.has(label)).toBe(true)
})

describe('the kept answer is the route’s', () => {
  it('same body and headers as the route, gzip when asked, ETag → 304, the XSRF cookie handed out as Koa does', async () => {
    const { game, player } = await runningGame()
    await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'read the rules' })
    const paths = ['/api/account/profile', '/api/team', '/api/game', `/api/game/${game.id}`, `/api/game/${game.id}/details`, `/api/game/${game.id}/notices`, '/api/posts/latest', '/api/posts']
    for (const path of paths) {
      const viaRoute = await player.client.get(path)
      expect(fromFastPath(viaRoute)).toBe(false)
      const direct = await hot(player.client, path)
      expect(direct.text).toBe((await player.client.get(`${path}?via=route`)).text)
      for (const name of ['etag', 'content-type', 'x-content-type-options', 'content-security-policy', 'x-frame-options', 'cache-control']) {
        expect([path, name, direct.headers.get(name)]).toEqual([path, name, viaRoute.headers.get(name) ?? (name === 'etag' ? direct.headers.get(name) : null)])
      }
      expect(direct.headers.get('etag')).toMatch(/^W\/".+"$/)
      const revalidated = await player.client.get(path, { 'if-none-match': direct.headers.get('etag')! })
      expect([path, revalidated.status, revalidated.text]).toEqual([path, 304, ''])
      // An Accept-Encoding value not seen yet goes through Koa once, which learns it.
      const gzipped = await fastFetch(path, { cookie: player.client.cookieHeader, 'accept-encoding': 'gzip' })
      expect([path, gzipped.headers.get('content-encoding')]).toEqual([path, Buffer.byteLength(direct.text) >= 2048 ? 'gzip' : null])
      expect(await gzipped.text()).toBe(direct.text)
      // A client without the XSRF cookie (a script, a bot) gets one, with Koa's attributes.
      const viaKoa = await fetch(server.url + path + '?via=koa', { headers: { cookie: `GZCTF_Token=${player.client.cookies.get('GZCTF_Token')}` } })
      const bare = await fastFetch(path, { cookie: `GZCTF_Token=${player.client.cookies.get('GZCTF_Token')}` })
      const attributes = (res: Response) => res.headers.getSetCookie().map((c) => c.replace(/=[^;]+/, '=…'))
      expect(attributes(bare)).toEqual(['XSRF-TOKEN=…; path=/; samesite=lax'])
      expect(attributes(viaKoa)).toEqual(attributes(bare))
    }
  })

  it('one team’s answer never goes to another: each player gets their own profile, teams, token and row', async () => {
    const { game, player } = await runningGame()
    const rival = await createPlayer(server, game)
    for (const path of ['/api/account/profile', '/api/team', `/api/game/${game.id}`, `/api/game/${game.id}/details`]) {
      const mine = await hot(player.client, path)
      const theirs = await hot(rival.client, path)
      expect([path, mine.text === theirs.text]).toEqual([path, false])
    }
    expect((await hot(rival.client, `/api/game/${game.id}/details`)).body.teamToken).toBe(rival.participation.token)
    expect((await hot(rival.client, '/api/account/profile')).body.userId).toBe(rival.user.id)
  })
})

describe('a herd of misses', () => {
  it('concurrent misses of one answer are built by the route once, each gets the route’s answer, and an edit still drops it', async () => {
    const { game, challenge, player } = await runningGame()
    const details = `/api/game/${game.id}/details`
    const titles = (res: ApiResponse<any>) => Object.values(res.body.challenges as Record<string, { title: string }[]>).flat().map((c) => c.title)
    await hot(player.client, details)
    // The edit drops the kept answer (and moves the board): every read below misses it at once.
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { title: 'Herd title' })).status).toBe(200)
    // The edit's rebuild is requested by NOTIFY: let it land, so the herd reads one board version.
    await server.services.scoreboard.rebuild(game.id)
    const builds = vi.spyOn(server.services.scoreboard, 'snapshot')
    try {
      const herd = await Promise.all(Array.from({ length: 20 }, () => player.client.get(details)))
      expect(builds).toHaveBeenCalledTimes(1)
      for (const res of herd) {
        expect(res.status).toBe(200)
        expect(titles(res)).toEqual(['Herd title'])
        expect(res.text).toBe(herd[0]!.text)
        expect(res.headers.get('etag')).toBe(herd[0]!.headers.get('etag'))
        expect(res.headers.get('content-security-policy')).toBe(herd[0]!.headers.get('content-security-policy'))
      }
      const revalidated = await player.client.get(details, { 'if-none-match': herd[0]!.headers.get('etag')! })
      expect(revalidated.status).toBe(304)
    } finally {
      builds.mockRestore()
    }
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { title: 'After the herd' })).status).toBe(200)
    await onBoth(player.client, details, (res) => expect(titles(res)).toEqual(['After the herd']))
  })
})

describe('what is kept apart, and what never is', () => {
  it('a page of notices is kept apart from the whole list; a made-up query or compat value is always the route’s', async () => {
    const { game, player } = await runningGame()
    for (const content of ['one', 'two', 'three']) await admin.post(`/api/edit/games/${game.id}/notices`, { content })
    const all = await hot(player.client, `/api/game/${game.id}/notices`)
    const page = await hot(player.client, `/api/game/${game.id}/notices?count=1&skip=1`)
    expect(all.body.map((n: { content: string }) => n.content)).toEqual(['three', 'two', 'one'])
    expect(page.body.map((n: { content: string }) => n.content)).toEqual(['two'])
    for (let i = 0; i < 3; i++) {
      expect(fromFastPath(await player.client.get(`/api/game?made-up=${i}`))).toBe(false)
      expect(fromFastPath(await player.client.get('/api/game', { 'x-gzctf-compat': 'anything' }))).toBe(false)
    }
  })
})

describe('a submission’s status', () => {
  it('is kept only once judged, and only for its submitter', async () => {
    const { game, challenge, player } = await runningGame()
    const path = (id: number) => `/api/game/${game.id}/challenges/${challenge.id}/status/${id}`
    // Held unjudged: a transaction holds the row, which the checkers skip (FOR UPDATE SKIP LOCKED).
    const db = new pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    try {
      let held: number | null = null
      for (let attempt = 0; attempt < 5 && held === null; attempt++) {
        const submission = await createSubmission(server, game, challenge, player.participation, player.user, { answer: 'flag{wrong}', status: 'FlagSubmitted' })
        await db.query('begin')
        const { rows } = await db.query<{ status: string }>('select status from submissions where id = $1 for update', [submission.id])
        if (rows[0]?.status === 'FlagSubmitted') held = submission.id
        else await db.query('rollback')
      }
      expect(held).not.toBeNull()
      for (let i = 0; i < 4; i++) {
        const res = await player.client.get(path(held!))
        expect([res.body, fromFastPath(res)]).toEqual(['FlagSubmitted', false])
      }
      await db.query('rollback')
      await expect.poll(async () => (await player.client.get(path(held!))).body, { timeout: 5000, interval: 50 }).toBe('WrongAnswer')
      expect((await hot(player.client, path(held!))).body).toBe('WrongAnswer')
      // Another player asking for it gets the route's answer: not theirs.
      const rival = await createPlayer(server, game)
      for (let i = 0; i < 3; i++) {
        const res = await rival.client.get(path(held!))
        expect([res.status, res.body, fromFastPath(res)]).toEqual([404, { title: '提交未找到', status: 404 }, false])
      }
      // A deleted challenge takes its submissions with it: the kept answer goes too.
      expect((await admin.delete(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).status).toBe(200)
      expect((await player.client.get(path(held!))).status).toBe(404)
    } finally {
      await db.end()
    }
  })
})

describe('every rule of the route still holds on a warmed path', () => {
  it('signed out, not registered, another game, or a game not started: the route’s refusals', async () => {
    const { game, player } = await runningGame()
    const details = `/api/game/${game.id}/details`
    await hot(player.client, details)
    await hot(player.client, '/api/account/profile')
    expect((await server.client().get(details)).body).toEqual({ title: '请先登录', status: 401 })
    expect((await server.client().get('/api/account/profile')).body).toEqual({ title: '请先登录', status: 401 })
    const outsider = await createUser(server)
    expect((await outsider.client.get(details)).body).toEqual({ title: '您尚未参赛', status: 400 })
    expect((await outsider.client.get(details)).body).toEqual({ title: '您尚未参赛', status: 400 })
    const pending = await createPlayer(server, game, { status: 'Pending' })
    expect((await pending.client.get(details)).body).toEqual({ title: '您的参赛申请尚未通过或被禁赛', status: 400 })
    const future = await createGame(server, { start: new Date(Date.now() + HOUR), end: new Date(Date.now() + 2 * HOUR) })
    await hot(player.client, `/api/game/${future.id}`)
    for (let i = 0; i < 3; i++) expect((await player.client.get(`/api/game/${future.id}/notices`)).body).toEqual({ title: '比赛未开始', status: 400 })
  })

  it('an API token is never answered from a cookie’s kept answer, and a revoked one is refused at once', async () => {
    const { player } = await runningGame()
    await hot(player.client, '/api/account/profile')
    const { id, token } = (await player.client.post('/api/account/tokens', { name: 'bot', scopes: ['read'], expiresInDays: 7 })).body
    const asToken = (url: string) => fetch(url + '/api/account/profile', { headers: { authorization: `Bearer ${token}`, cookie: player.client.cookieHeader } })
    const ok = await asToken(server.url)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-request-id')).not.toBeNull()
    expect((await asToken(other.url)).status).toBe(200)
    expect((await player.client.delete(`/api/account/tokens/${id}`)).status).toBe(200)
    expect((await asToken(server.url)).status).toBe(401)
    await expect.poll(async () => (await asToken(other.url)).status, { timeout: 3000, interval: 25 }).toBe(401)
  })
})

describe('the writes that change a kept answer drop it on every node', () => {
  it('ban and role change', async () => {
    const { player } = await runningGame()
    const member = await createUser(server)
    await warmBoth(player.client, '/api/account/profile')
    await warmBoth(member.client, '/api/account/profile')
    expect((await admin.put(`/api/admin/users/${member.user.id}`, { role: 'Monitor' })).status).toBe(200)
    await onBoth(member.client, '/api/account/profile', (res) => expect(res.body.role).toBe('Monitor'))
    expect((await admin.put(`/api/admin/users/${player.user.id}`, { role: 'Banned' })).status).toBe(200)
    await onBoth(player.client, '/api/account/profile', (res) => expect(res.status).toBe(403))
  })

  it('password change and logout', async () => {
    const { game, player } = await runningGame()
    const details = `/api/game/${game.id}/details`
    const second = new ApiClient(server.url)
    await second.login(player.user.userName, player.password)
    await warmBoth(second, details)
    await warmBoth(player.client, details)
    expect((await player.client.put('/api/account/changepassword', { old: player.password, new: 'An0ther#Passw0rd' })).status).toBe(200)
    await onBoth(second, details, (res) => expect(res.body).toEqual({ title: '请先登录', status: 401 }))
    await onBoth(player.client, details, (res) => expect(res.status).toBe(200))
    await warmBoth(player.client, details)
    const stolen = sameSessionOn(other, player.client)
    expect((await player.client.post('/api/account/logout')).status).toBe(200)
    await expect.poll(async () => (await stolen.get(details)).status, { timeout: 3000, interval: 25 }).toBe(401)
  })

  it('team change: a rename, a member who joins', async () => {
    const { game, player } = await runningGame()
    await warmBoth(player.client, `/api/game/${game.id}`)
    await warmBoth(player.client, '/api/team')
    expect((await player.client.put(`/api/team/${player.team.id}`, { name: 'Renamed Team' })).status).toBe(200)
    await onBoth(player.client, `/api/game/${game.id}`, (res) => expect(res.body.teamName).toBe('Renamed Team'))
    await onBoth(player.client, '/api/team', (res) => expect(res.body[0].name).toBe('Renamed Team'))
    const member = await createUser(server)
    await warmBoth(player.client, '/api/team')
    const code = (await player.client.get(`/api/team/${player.team.id}/invite`)).body as string
    expect((await member.client.post('/api/team/accept', code)).status).toBe(200)
    await onBoth(player.client, '/api/team', (res) => expect(res.body[0].members.map((m: { id: string }) => m.id)).toContain(member.user.id))
  })

  it('suspension of the participation', async () => {
    const { game, player } = await runningGame()
    await warmBoth(player.client, `/api/game/${game.id}/details`)
    expect((await admin.put(`/api/admin/participation/${player.participation.id}/Suspended`)).status).toBe(200)
    await onBoth(player.client, `/api/game/${game.id}/details`, (res) => expect(res.body).toEqual({ title: '您的参赛申请尚未通过或被禁赛', status: 400 }))
  })

  it('challenge edit', async () => {
    const { game, challenge, player } = await runningGame()
    const details = `/api/game/${game.id}/details`
    const titles = (res: ApiResponse<any>) => Object.values(res.body.challenges as Record<string, { title: string }[]>).flat().map((c) => c.title)
    expect(titles(await hot(player.client, details))).toEqual(['First title'])
    await hot(sameSessionOn(other, player.client), details)
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { title: 'Second title' })).status).toBe(200)
    await onBoth(player.client, details, (res) => expect(titles(res)).toEqual(['Second title']))
  })

  it('a hint unlock and a prerequisite solve (docs/challenge-rules.md)', async () => {
    const { game, challenge, player } = await runningGame()
    const next = await createChallenge(server, game, { isEnabled: true, title: 'Next', lockedTitleVisible: false, prerequisites: [challenge.id] })
    await createInstances(server, [player.participation], [next])
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}/hints`, { hints: [{ content: 'c', kind: 'Fixed', amount: 25 }] })).status).toBe(200)
    await server.services.scoreboard.rebuild(game.id)
    const details = `/api/game/${game.id}/details`
    const warm = await hot(player.client, details)
    expect(warm.body.lockedChallenges.map((l: { id: number }) => l.id)).toEqual([next.id])
    await hot(sameSessionOn(other, player.client), details)
    // The unlock moves the board: the kept answer (stamped with the board version) is not sent again.
    expect((await player.client.post(`/api/game/${game.id}/challenges/${challenge.id}/hints/1/unlock`)).status).toBe(200)
    await onBoth(player.client, details, (res) => expect(res.body.rank).toMatchObject({ score: -25, hintPenalty: 25 }))
    // The solve of the prerequisite unlocks the next challenge on both nodes.
    expect(await settled(player.client, game.id, challenge.id, await submit(player.client, game.id, challenge.id, 'flag{test}'))).toBe('Accepted')
    await onBoth(player.client, details, (res) => {
      expect(res.body.lockedChallenges).toEqual([])
      expect(Object.values(res.body.challenges as Record<string, { id: number; title: string }[]>).flat().find((c) => c.id === next.id)!.title).toBe('Next')
    })
  })

  it('game edit: title, hiding, the end', async () => {
    const { game, player } = await runningGame()
    await warmBoth(player.client, `/api/game/${game.id}`)
    await warmBoth(player.client, '/api/game')
    await warmBoth(player.client, `/api/game/${game.id}/details`)
    // The edit replaces the whole game: send back what it is, with the change.
    const edit = async (change: Record<string, unknown>) => {
      const current = (await admin.get(`/api/edit/games/${game.id}`)).body
      expect((await admin.put(`/api/edit/games/${game.id}`, { ...current, ...change })).status).toBe(200)
    }
    await edit({ title: 'New title' })
    await onBoth(player.client, `/api/game/${game.id}`, (res) => expect(res.body.title).toBe('New title'))
    await onBoth(player.client, '/api/game', (res) => expect(res.body.find((g: { id: number }) => g.id === game.id)?.title).toBe('New title'))
    await onBoth(player.client, `/api/game/${game.id}/details`, (res) => expect(res.status).toBe(200))
    await edit({ hidden: true })
    await onBoth(player.client, '/api/game', (res) => expect(res.body.map((g: { id: number }) => g.id)).not.toContain(game.id))
    await edit({ start: new Date(Date.now() - 2 * HOUR).toISOString(), end: new Date(Date.now() - 1000).toISOString() })
    await onBoth(player.client, `/api/game/${game.id}/details`, (res) => expect(res.body).toEqual({ title: '比赛已结束', status: 400 }))
  })

  it('a game that ends while its answer is kept is refused without any write', async () => {
    const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + 2500), practiceMode: false })
    await createChallenge(server, game, { isEnabled: true })
    await server.services.scoreboard.rebuild(game.id)
    const player = await createPlayer(server, game)
    await hot(player.client, `/api/game/${game.id}/details`)
    await expect.poll(async () => (await player.client.get(`/api/game/${game.id}/details`)).body, { timeout: 6000, interval: 100 }).toEqual({ title: '比赛已结束', status: 400 })
  })

  it('notice post', async () => {
    const { game, player } = await runningGame()
    const path = `/api/game/${game.id}/notices`
    await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'first' })
    await warmBoth(player.client, path)
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'second' })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.map((n: { content: string }) => n.content)).toEqual(['second', 'first']))
  })

  it("posts: a new post and its author's new name", async () => {
    const { player } = await runningGame()
    const id = (await admin.post('/api/edit/posts', { title: 'Kept?', summary: 's', content: 'c', tags: [] })).body as string
    await warmBoth(player.client, '/api/posts/latest')
    await warmBoth(player.client, `/api/posts/${id}`)
    const next = (await admin.post('/api/edit/posts', { title: 'Newer', summary: 's', content: 'c', tags: [] })).body as string
    await onBoth(player.client, '/api/posts/latest', (res) => expect(res.body.map((p: { id: string }) => p.id)).toContain(next))
    expect((await admin.put('/api/account/update', { userName: 'HotAdmin' })).status).toBe(200)
    await onBoth(player.client, `/api/posts/${id}`, (res) => expect(res.body.authorName).toBe('HotAdmin'))
  })
})

describe('a team’s challenge detail (docs/performance.md#hot-reads)', () => {
  const detailPath = (gameId: number, challengeId: number) => `/api/game/${gameId}/challenges/${challengeId}`
  const editPath = (gameId: number, challengeId: number) => `/api/edit/games/${gameId}/challenges/${challengeId}`

  it('is the route’s answer, kept per team once its instance is loaded: the first view loads it and is not kept', async () => {
    const { game, challenge, player } = await runningGame()
    const rival = await createPlayer(server, game)
    const dynamic = await createChallenge(server, game, { isEnabled: true, type: 'DynamicAttachment', flags: [] })
    await createAttachmentFlags(server, dynamic, ['flag{one}', 'flag{two}'])
    await createInstances(server, [player.participation, rival.participation], [challenge])
    await ensureInstances(server.services.orm.em.fork(), player.participation.id, game.id)
    await ensureInstances(server.services.orm.em.fork(), rival.participation.id, game.id)
    await server.services.scoreboard.rebuild(game.id)
    // The first view hands the team its flag: that answer comes from the route, later ones from the kept answer.
    const first = await player.client.get(detailPath(game.id, dynamic.id))
    expect([first.status, fromFastPath(first)]).toEqual([200, false])
    const kept = await hot(player.client, detailPath(game.id, dynamic.id))
    expect(kept.text).toBe(first.text)
    expect(kept.text).toBe((await player.client.get(`${detailPath(game.id, dynamic.id)}?via=route`)).text)
    // Each team its own attachment, and its own attempts.
    expect((await hot(rival.client, detailPath(game.id, dynamic.id))).body.context.url).not.toBe(kept.body.context.url)
    await settled(rival.client, game.id, challenge.id, await submit(rival.client, game.id, challenge.id, 'flag{wrong}'))
    expect((await hot(rival.client, detailPath(game.id, challenge.id))).body.attempts).toBe(1)
    expect((await hot(player.client, detailPath(game.id, challenge.id))).body.attempts).toBe(0)
  })

  it('every rule of the route holds on a warmed path: sign-in, registration, division, suspension, ban, the end', async () => {
    // Time enough to warm and check everything else before the end.
    const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + 10_000), practiceMode: false })
    const challenge = await createChallenge(server, game, { isEnabled: true })
    const player = await createPlayer(server, game)
    const suspended = await createPlayer(server, game)
    const banned = await createPlayer(server, game)
    const moved = await createPlayer(server, game)
    await createInstances(server, [player.participation, suspended.participation, banned.participation, moved.participation], [challenge])
    await server.services.scoreboard.rebuild(game.id)
    const path = detailPath(game.id, challenge.id)
    for (const p of [player, suspended, banned, moved]) await warmBoth(p.client, path)
    expect((await server.client().get(path)).body).toEqual({ title: '请先登录', status: 401 })
    const outsider = await createUser(server)
    for (let i = 0; i < 3; i++) expect((await outsider.client.get(path)).body).toEqual({ title: '您尚未参赛', status: 400 })
    // A division move to a division that may not view the challenge: as if it did not exist.
    const blind = (await admin.post(`/api/edit/games/${game.id}/divisions`, { name: 'Blind', challengeConfigs: [{ challengeId: challenge.id, permissions: 0 }] })).body as { id: number }
    expect((await admin.put(`/api/admin/participation/${moved.participation.id}`, { divisionId: blind.id })).status).toBe(200)
    await onBoth(moved.client, path, (res) => expect(res.body).toEqual({ title: '题目未找到', status: 404 }))
    expect((await admin.put(`/api/admin/participation/${suspended.participation.id}/Suspended`)).status).toBe(200)
    await onBoth(suspended.client, path, (res) => expect(res.body).toEqual({ title: '您的参赛申请尚未通过或被禁赛', status: 400 }))
    expect((await admin.put(`/api/admin/users/${banned.user.id}`, { role: 'Banned' })).status).toBe(200)
    await onBoth(banned.client, path, (res) => expect(res.status).toBe(403))
    // The end passes with no write (the division created above dropped every answer of the game: warm it again).
    await hot(player.client, path)
    await expect.poll(async () => (await player.client.get(path)).body, { timeout: 15_000, interval: 100 }).toEqual({ title: '比赛已结束', status: 400 })
  })

  it('a member who leaves the team is refused at once', async () => {
    const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR), practiceMode: false })
    const challenge = await createChallenge(server, game, { isEnabled: true })
    const captain = await createUser(server)
    const member = await createUser(server)
    const team = await createTeam(server, captain.user, [member.user])
    const participation = await createParticipation(server, game, team, [captain.user, member.user])
    await createInstances(server, [participation], [challenge])
    await server.services.scoreboard.rebuild(game.id)
    const path = detailPath(game.id, challenge.id)
    await warmBoth(member.client, path)
    expect((await captain.client.post(`/api/team/${team.id}/kick/${member.user.id}`)).status).toBe(200)
    await onBoth(member.client, path, (res) => expect(res.body).toEqual({ title: '您尚未参赛', status: 400 }))
  })

  it('its writes drop it on every node: a submission, a challenge edit, a hint unlock, a game edit', async () => {
    const { game, challenge, player } = await runningGame()
    const path = detailPath(game.id, challenge.id)
    expect((await admin.put(`${editPath(game.id, challenge.id)}/hints`, { hints: [{ content: 'paid', kind: 'Fixed', amount: 25 }] })).status).toBe(200)
    await warmBoth(player.client, path)
    // Attempts: at once on the node that took the submission, on the other once it is settled.
    await submit(player.client, game.id, challenge.id, 'flag{wrong}')
    expect((await player.client.get(path)).body.attempts).toBe(1)
    await onBoth(player.client, path, (res) => expect(res.body.attempts).toBe(1))
    await warmBoth(player.client, path)
    expect((await admin.put(editPath(game.id, challenge.id), { title: 'Edited title' })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.title).toBe('Edited title'))
    await warmBoth(player.client, path)
    expect((await player.client.post(`${path}/hints/1/unlock`)).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.costedHints[0]).toMatchObject({ unlocked: true, content: 'paid', cost: 25 }))
    await warmBoth(player.client, path)
    const current = (await admin.get(`/api/edit/games/${game.id}`)).body
    expect((await admin.put(`/api/edit/games/${game.id}`, { ...current, start: new Date(Date.now() + HOUR).toISOString(), end: new Date(Date.now() + 2 * HOUR).toISOString() })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body).toEqual({ title: '比赛未开始', status: 400 }))
  })

  it('a costed hint turning free shows at its time, with no write', async () => {
    const { game, challenge, player } = await runningGame()
    const path = detailPath(game.id, challenge.id)
    const freeAt = new Date(Date.now() + 2000).toISOString()
    expect((await admin.put(`${editPath(game.id, challenge.id)}/hints`, { hints: [{ content: 'later free', kind: 'Fixed', amount: 20, freeAt }] })).status).toBe(200)
    expect((await hot(player.client, path)).body.costedHints[0]).toMatchObject({ unlocked: false, content: null })
    await expect.poll(async () => (await player.client.get(path)).body.costedHints[0], { timeout: 5000, interval: 100 }).toMatchObject({ unlocked: true, content: 'later free', cost: 0 })
    expect((await hot(player.client, path)).body.hints).toEqual(['later free'])
  })

  it('its value follows the challenge’s solves, and stands while the board is frozen', async () => {
    const { game, challenge, player } = await runningGame()
    const path = detailPath(game.id, challenge.id)
    const solvers = [await createPlayer(server, game), await createPlayer(server, game), await createPlayer(server, game)]
    await createInstances(server, solvers.map((s) => s.participation), [challenge])
    await server.services.scoreboard.rebuild(game.id)
    const solve = async (s: Player) => expect(await settled(s.client, game.id, challenge.id, await submit(s.client, game.id, challenge.id, 'flag{test}'))).toBe('Accepted')
    await solve(solvers[0]!)
    const full = (await hot(player.client, path)).body.score as number
    await hot(sameSessionOn(other, player.client), path)
    await solve(solvers[1]!)
    await onBoth(player.client, path, (res) => expect(res.body.score).toBeLessThan(full))
    const atFreeze = (await player.client.get(path)).body.score as number
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    await warmBoth(player.client, path)
    await solve(solvers[2]!)
    // Behind the freeze the value stands (docs/scoring.md#freeze), on the fast path and through the route.
    await new Promise((resolve) => setTimeout(resolve, 500))
    for (const c of [player.client, sameSessionOn(other, player.client)]) {
      expect((await c.get(path)).body.score).toBe(atFreeze)
      expect((await c.get(`${path}?via=route`)).body.score).toBe(atFreeze)
    }
    expect((await admin.post(`/api/edit/games/${game.id}/unfreeze`)).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.score).toBeLessThan(atFreeze))
  })

  it('a timed release that opens a prerequisite locks the challenge again on every node', async () => {
    const { game, challenge, player } = await runningGame()
    const first = await createChallenge(server, game, { isEnabled: false, title: 'Opens later' })
    expect((await admin.put(`${editPath(game.id, challenge.id)}/prerequisites`, { prerequisites: [first.id] })).status).toBe(200)
    const path = detailPath(game.id, challenge.id)
    // A disabled prerequisite does not lock (docs/challenge-rules.md#prerequisites).
    await warmBoth(player.client, path)
    expect((await admin.put(editPath(game.id, first.id), { releaseTimeUtc: Date.now() + 1500 })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body).toEqual({ title: '需要先解出前置题目', status: 403 }))
  })

  it('a removed flag takes a team’s dynamic attachment with it', async () => {
    const { game, player } = await runningGame()
    const dynamic = await createChallenge(server, game, { isEnabled: true, type: 'DynamicAttachment', flags: [] })
    const [flag] = await createAttachmentFlags(server, dynamic, ['flag{only}'])
    await ensureInstances(server.services.orm.em.fork(), player.participation.id, game.id)
    await server.services.scoreboard.rebuild(game.id)
    const path = detailPath(game.id, dynamic.id)
    await player.client.get(path)
    await warmBoth(player.client, path)
    expect((await admin.post(`${editPath(game.id, dynamic.id)}/flags`, [{ flag: 'flag{other}', attachmentType: 'Remote', remoteUrl: 'https://example.com/other' }])).status).toBe(200)
    expect((await admin.delete(`${editPath(game.id, dynamic.id)}/flags/${flag!.id}`)).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.context.url).toBeNull())
  })
})

// Last: it changes the platform's settings.
describe('the two-factor policy', () => {
  it('the two-factor policy holds an account at enrolment on a warmed path', async () => {
    const { game, player } = await runningGame()
    await hot(player.client, `/api/game/${game.id}/details`)
    expect((await admin.put('/api/admin/config', { accountPolicy: { twoFactorPolicy: 'Everyone' } })).status).toBe(200)
    try {
      const res = await player.client.get(`/api/game/${game.id}/details`)
      expect(res).toMatchObject({ status: 403, body: { title: '请先启用两步验证', twoFactorEnrolmentRequired: true } })
      // The profile is reachable at enrolment (the route's `enrolment`).
      expect((await player.client.get('/api/account/profile')).status).toBe(200)
    } finally {
      // The policy holds the admin too: put it back behind the API.
      await server.services.orm.em.fork().nativeDelete(ConfigEntry, { key: 'accountPolicy.twoFactorPolicy' })
      server.services.settings.invalidate()
      other.services.settings.invalidate()
    }
  })
})
