/**
 * Flag submission ahead of Koa (docs/performance.md#flag-submission): once the rows a submission is
 * judged on are cached, it is taken from Node's request event; its answer carries no
 * `X-Request-Id` (Koa's request context sets one). Each case checks that the answer is the
 * route's — headers, hostile bodies, the XSRF rules, tokens — and that every write that changes
 * what a player may submit is seen at once, on this node and on another node of the database.
 */
import { describe, expect, it } from 'vitest'
import { GamePermission } from '@flagwave/shared/enums'
import type { TestServer } from '../support/server.js'
import { withTwoNodes } from '../support/twoNodes.js'
import type { ApiClient, ApiResponse } from '../support/client.js'
import { countRows, createChallenge, createDivision, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, sameSessionOn, settled, submitPath } from '../support/factories/play.js'
import type { RunningServer } from '../../server/src/server.js'

let server: TestServer
let other: RunningServer
let admin: ApiClient

withTwoNodes((nodes) => ({ server, other, admin } = nodes))

const HOUR = 3600_000
const fromFastPath = (res: ApiResponse | Response) => res.headers.get('x-request-id') === null
/** The route through Koa: a query string is never taken ahead of it (the router ignores it). */
const viaKoa = (path: string) => `${path}?via=koa`

async function runningGame() {
  const game = await createGame(server, { start: new Date(Date.now() - HOUR), end: new Date(Date.now() + HOUR), practiceMode: false })
  const challenge = await createChallenge(server, game, { title: 'Target', flags: ['flag{right}'] })
  const player = await createPlayer(server, game)
  await createInstances(server, [player.participation], [challenge])
  return { game, challenge, player }
}

/** Submit until the fast path takes it (the first submission warms the rows); returns that answer. */
async function hot(client: ApiClient, path: string, flag = 'flag{nope}'): Promise<ApiResponse> {
  for (let i = 0; i < 3; i++) {
    const res = await client.post(path, { flag })
    expect(res.status, res.text).toBe(200)
    if (fromFastPath(res)) return res
  }
  throw new Error(`${path} never came from the fast path`)
}

/** After a write: within 3 s, `check` holds for a submission by `client` here and on the other node. */
async function onBoth(client: ApiClient, path: string, check: (res: ApiResponse<any>) => void): Promise<void> {
  for (const c of [client, sameSessionOn(other, client)]) {
    await expect
      .poll(
        async () => {
          try {
            check(await c.post(path, { flag: 'flag{nope}' }))
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

const refusal = (status: number, title: string) => (res: ApiResponse<any>) => expect({ status: res.status, title: res.body?.title }).toEqual({ status, title })

describe('the answer is the route’s', () => {
  it('same status, body shape and headers; the XSRF cookie handed out as Koa does; settled once', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    const koa = await player.client.post(viaKoa(path), { flag: 'flag{nope}' })
    expect(fromFastPath(koa)).toBe(false)
    const direct = await hot(player.client, path, 'flag{right}')
    expect(typeof direct.body).toBe('number')
    const perResponse = new Set(['date', 'x-request-id', 'content-length', 'connection', 'keep-alive', 'set-cookie'])
    const kept = (res: ApiResponse) => [...res.headers].filter(([name]) => !perResponse.has(name))
    expect(kept(direct)).toEqual(kept(koa))
    expect(await settled(player.client, game.id, challenge.id, direct.body as number)).toBe('Accepted')
    expect(await countRows(server, 'submissions', 'id = ?', [direct.body])).toBe(1)

    // A client without the XSRF cookie (a script, a bot) gets one, with Koa's attributes.
    const session = `GZCTF_Token=${player.client.cookies.get('GZCTF_Token')}`
    const post = (p: string) => fetch(server.url + p, { method: 'POST', headers: { cookie: session, 'content-type': 'application/json' }, body: '{"flag":"x"}' })
    const [bare, routed] = [await post(path), await post(viaKoa(path))]
    expect([fromFastPath(bare), fromFastPath(routed)]).toEqual([true, false])
    const attributes = (res: Response) => res.headers.getSetCookie().map((c) => c.replace(/=[^;]+/, '=…'))
    expect(attributes(bare)).toEqual(['XSRF-TOKEN=…; path=/; samesite=lax'])
    expect(attributes(routed)).toEqual(attributes(bare))
  })

  it('hostile bodies and content types: the route’s answers, nothing stored', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    const before = await countRows(server, 'submissions', 'participation_id = ?', [player.participation.id])
    const bodies: [string, string][] = [
      ['{', 'application/json'],
      ['[]', 'application/json'],
      ['"flag"', 'application/json'],
      ['{}', 'application/json'],
      ['{"flag":""}', 'application/json'],
      ['{"flag":"   "}', 'application/json'],
      ['{"flag":5}', 'application/json'],
      [JSON.stringify({ flag: 'x'.repeat(5000) }), 'application/json'],
      ['{"flag":"a\\u0000b"}', 'application/json'],
      ['{"__proto__":{"flag":"x"},"flag":"y"}', 'application/json'],
      ['{"flag":"x"}', 'text/plain'],
      ['', 'application/json'],
    ]
    for (const [body, type] of bodies) {
      const [direct, routed] = [await player.client.request('POST', path, { body, headers: { 'content-type': type } }), await player.client.request('POST', viaKoa(path), { body, headers: { 'content-type': type } })]
      expect([body, direct.status, direct.text]).toEqual([body, routed.status, routed.text.replace(/"traceId":"[^"]+"/, direct.text.match(/"traceId":"[^"]+"/)?.[0] ?? '')])
      expect([body, direct.status >= 400]).toEqual([body, true])
    }
    expect(await countRows(server, 'submissions', 'participation_id = ?', [player.participation.id])).toBe(before)
  })

  it('the XSRF rules, tokens and anonymous callers are Koa’s to answer', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    const crossSite = await player.client.post(path, { flag: 'x' }, { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' })
    expect([crossSite.status, fromFastPath(crossSite)]).toEqual([403, false])
    const mismatch = await player.client.post(path, { flag: 'x' }, { 'x-xsrf-token': 'not-the-cookie' })
    expect([mismatch.status, fromFastPath(mismatch)]).toEqual([403, false])
    const echoed = await player.client.post(path, { flag: 'x' }, { 'x-xsrf-token': player.client.cookies.get('XSRF-TOKEN')! })
    expect([echoed.status, fromFastPath(echoed)]).toEqual([200, true])
    const token = await player.client.post(path, { flag: 'x' }, { authorization: 'Bearer not-a-token' })
    expect([token.status, fromFastPath(token)]).toEqual([401, false])
    const anonymous = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"flag":"x"}' })
    expect([anonymous.status, fromFastPath(anonymous)]).toEqual([401, false])
    // The cookie is read as Koa reads it: a value with a trailing space is another (unknown) session.
    const spaced = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `GZCTF_Token=${player.client.cookies.get('GZCTF_Token')} ; XSRF-TOKEN=${player.client.cookies.get('XSRF-TOKEN')}` },
      body: '{"flag":"x"}',
    })
    expect([spaced.status, fromFastPath(spaced)]).toEqual([401, false])
  })
})

describe('the writes that change what a player may submit are seen at once on every node', () => {
  it('ban', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
    expect((await admin.put(`/api/admin/users/${player.user.id}`, { role: 'Banned' })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect([401, 403]).toContain(res.status))
  })

  it('team change: suspension of the participation', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
    expect((await admin.put(`/api/admin/participation/${player.participation.id}/Suspended`)).status).toBe(200)
    await onBoth(player.client, path, refusal(400, '您的参赛申请尚未通过或被禁赛'))
  })

  it('challenge edit: a deadline passed, then an opening time ahead', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { deadlineUtc: Date.now() - 1000 })).status).toBe(200)
    await onBoth(player.client, path, refusal(400, '题目已截止提交'))
    expect((await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { deadlineUtc: null, releaseTimeUtc: Date.now() + HOUR })).status).toBe(200)
    await onBoth(player.client, path, refusal(404, '题目未找到'))
  })

  it('game edit: the end moved before now', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
    const info = (await admin.get(`/api/edit/games/${game.id}`)).body as Record<string, unknown>
    expect((await admin.put(`/api/edit/games/${game.id}`, { ...info, end: new Date(Date.now() - 1000).toISOString() })).status).toBe(200)
    await onBoth(player.client, path, refusal(400, '比赛已结束'))
  })

  it('division move: into a division that may view, not submit', async () => {
    const { game, challenge, player } = await runningGame()
    const viewers = await createDivision(server, game, { name: 'Viewers', defaultPermissions: GamePermission.All & ~GamePermission.SubmitFlags })
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
    expect((await admin.put(`/api/admin/participation/${player.participation.id}`, { divisionId: viewers.id })).status).toBe(200)
    await onBoth(player.client, path, refusal(403, '你所在的分组无法提交此题'))
  })

  it('freeze: the board freezes, submissions are still taken ahead of Koa', async () => {
    const { game, challenge, player } = await runningGame()
    const path = submitPath(game.id, challenge.id)
    await hot(player.client, path)
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    await hot(player.client, path)
    await hot(sameSessionOn(other, player.client), path)
  })
})
