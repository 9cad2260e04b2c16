/**
 * Webhooks (docs/webhooks.md) against local receivers that speak the Discord, Slack, Telegram and
 * generic formats (tests/support/webhookReceivers.ts: the chat services themselves cannot be
 * reached from here, so the server's WEBHOOK_*_URL bases point at the receivers): CRUD and its
 * errors, SSRF refusals at save and at delivery, bloods, solves and notices delivered in each
 * format, the generic signature, retries with backoff, give-up on a client error, game start and
 * end exactly once with two nodes, the delivery log and "send test".
 */
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebhookDeliveryModel, WebhookModel } from '@flagwave/shared/schemas/webhooks'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { forbiddenAddress } from '../../server/src/lib/ssrf.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ApiClient } from '../support/client.js'
import { countRows, createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, settled, startNode, submit, type Player } from '../support/factories/play.js'
import { startReceiver, type Receiver } from '../support/webhookReceivers.js'

let server: TestServer
let admin: ApiClient
let discord: Receiver
let slack: Receiver
let telegram: Receiver
let generic: Receiver

const hooks = (gameId: number) => `/api/edit/games/${gameId}/webhooks`
const query = async <T = any>(sql: string, params: unknown[] = []) => (await server.services.orm.em.fork().getConnection().execute(sql, params)) as T[]

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function deliveries(gameId: number, webhookId: number): Promise<WebhookDeliveryModel[]> {
  const res = await admin.get(`${hooks(gameId)}/${webhookId}/deliveries?count=100`)
  expect(res.status).toBe(200)
  return res.body.data
}

/** Wait until every delivery of the webhook is finished (Delivered or Failed) and there are at least `n`. */
async function finished(gameId: number, webhookId: number, n: number): Promise<WebhookDeliveryModel[]> {
  return until(`${n} finished deliveries of webhook ${webhookId}`, async () => {
    const list = await deliveries(gameId, webhookId)
    return list.length >= n && list.every((d) => d.status === 'Delivered' || d.status === 'Failed') && list
  })
}

async function create(gameId: number, body: Record<string, unknown>): Promise<WebhookModel> {
  const res = await admin.post(hooks(gameId), body)
  expect(res.status, res.text).toBe(200)
  return res.body
}

beforeAll(async () => {
  ;[discord, slack, telegram, generic] = await Promise.all([startReceiver('discord'), startReceiver('slack'), startReceiver('telegram'), startReceiver('generic')])
  server = await startTestServer({
    env: {
      WEBHOOK_DISCORD_URL: `${discord.url}/api/webhooks/`,
      WEBHOOK_SLACK_URL: `${slack.url}/services/`,
      WEBHOOK_TELEGRAM_URL: telegram.url,
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_MAX_ATTEMPTS: '3',
    },
  })
  admin = await server.admin()
})
afterAll(async () => {
  await server?.close()
  await Promise.all([discord, slack, telegram, generic].map((r) => r?.close()))
})

describe('webhook CRUD', () => {
  it('creates, lists, updates (secret kept or rotated) and deletes; secrets only on the edit routes', async () => {
    const game = await createGame(server)
    const created = await create(game.id, { name: 'Ops', kind: 'Generic', url: `${generic.url}/hook`, events: ['solve', 'solve', 'notice'], allowPrivate: true })
    expect(created).toMatchObject({ name: 'Ops', kind: 'Generic', url: `${generic.url}/hook`, events: ['solve', 'notice'], enabled: true, allowPrivate: true, chatId: '' })
    expect(created.secret).toMatch(/^whsec_[\w-]{43}$/)
    expect((await admin.get(hooks(game.id))).body).toEqual([created])

    const kept = await admin.put(`${hooks(game.id)}/${created.id}`, { name: 'Ops 2', kind: 'Generic', url: `${generic.url}/hook2`, events: ['blood'], enabled: false, allowPrivate: true })
    expect(kept.status).toBe(200)
    expect(kept.body).toMatchObject({ name: 'Ops 2', url: `${generic.url}/hook2`, events: ['blood'], enabled: false, secret: created.secret })
    const rotated = await admin.put(`${hooks(game.id)}/${created.id}`, { name: 'Ops 2', kind: 'Generic', url: `${generic.url}/hook2`, allowPrivate: true, rotateSecret: true })
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(created.secret)

    // Players never see a webhook: the public game routes carry none of it.
    const player = await createPlayer(server, game)
    for (const path of [`/api/game/${game.id}`, `/api/game/${game.id}/notices`]) expect((await player.client.get(path)).text).not.toContain(rotated.body.secret)

    expect((await admin.delete(`${hooks(game.id)}/${created.id}`)).status).toBe(200)
    expect((await admin.get(hooks(game.id))).body).toEqual([])
    expect(await admin.delete(`${hooks(game.id)}/${created.id}`)).toMatchObject({ status: 404, body: { title: 'Webhook 未找到', status: 404 } })
  })

  it('refuses bad input with clear 400s and changes nothing', async () => {
    const game = await createGame(server)
    const other = await createGame(server)
    const foreign = await create(other.id, { name: 'x', kind: 'Slack', url: `${slack.url}/services/T1/B1/X1` })
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'Generic', url: 'https://example.org' }, '名称是必需的'],
      [{ name: 'a'.repeat(65), kind: 'Generic', url: 'https://example.org' }, '名称过长'],
      [{ name: 'n', kind: 'Email', url: 'https://example.org' }, '未知的 Webhook 类型'],
      [{ name: 'n', kind: 'Generic', url: 'https://example.org', events: ['everything'] }, '未知的事件'],
      [{ name: 'n', kind: 'Generic' }, 'URL 是必需的'],
      [{ name: 'n', kind: 'Generic', url: `https://x.org/${'a'.repeat(2048)}` }, 'URL 过长'],
      [{ name: 'n', kind: 'Discord', url: 'https://evil.example/api/webhooks/1/abc' }, `目标地址不被允许：a Discord webhook URL starts with ${discord.url}/api/webhooks/`],
      [{ name: 'n', kind: 'Slack', url: `${slack.url}/services/` }, `目标地址不被允许：a Slack webhook URL starts with ${slack.url}/services/`],
      [{ name: 'n', kind: 'Telegram', secret: 'not a token', chatId: '42' }, 'Telegram bot token 格式不正确'],
      [{ name: 'n', kind: 'Telegram', secret: '123456:ABCDEFGHIJKLMNOP', chatId: 'chat; drop' }, 'Telegram chat ID 格式不正确'],
      [{ name: 'n', kind: 'Generic', url: 'ftp://example.org/x' }, '目标地址不被允许：only http and https targets are allowed'],
      [{ name: 'n', kind: 'Generic', url: 'https://user:pw@example.org/x' }, '目标地址不被允许：credentials in the URL are not allowed'],
      [{ name: 'n', kind: 'Generic', url: 'not a url' }, '目标地址不被允许：not a URL'],
      [{ name: 'n', kind: 'Generic', url: 'https://no-such-host.invalid/x' }, '目标地址不被允许：no-such-host.invalid does not resolve (ENOTFOUND)'],
    ]
    for (const [body, title] of cases) expect(await admin.post(hooks(game.id), body), JSON.stringify(body)).toMatchObject({ status: 400, body: { title, status: 400 } })
    expect(await admin.post(hooks(999_999), { name: 'n', kind: 'Slack', url: `${slack.url}/services/T/B/X` })).toMatchObject({ status: 404, body: { title: '比赛未找到', status: 404 } })
    // Another game's webhook is not found through this game.
    expect(await admin.put(`${hooks(game.id)}/${foreign.id}`, { name: 'n', kind: 'Slack', url: `${slack.url}/services/T/B/X` })).toMatchObject({ status: 404, body: { title: 'Webhook 未找到' } })
    expect(await admin.post(`${hooks(game.id)}/${foreign.id}/test`)).toMatchObject({ status: 404 })
    expect(await admin.get(`${hooks(game.id)}/${foreign.id}/deliveries`)).toMatchObject({ status: 404 })
    expect(await countRows(server, 'webhooks', 'game_id = ?', [game.id])).toBe(0)
    expect(await countRows(server, 'webhook_deliveries')).toBe(0)
  })
})

describe('SSRF', () => {
  const refused = [
    'http://127.0.0.1/x',
    'http://127.1.2.3:8080/x',
    'http://localhost/x',
    'http://0.0.0.0/x',
    'http://10.1.2.3/x',
    'http://172.16.5.4/x',
    'http://192.168.1.1/x',
    'http://100.64.0.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://224.0.0.1/x',
    'http://255.255.255.255/x',
    'http://[::1]/x',
    'http://[::]/x',
    'http://[fe80::1]/x',
    'http://[fc00::1]/x',
    'http://[fd12:3456::1]/x',
    'http://[ff02::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[::ffff:a9fe:a9fe]/x',
    'http://[64:ff9b::a00:1]/x',
    'http://[2002:c0a8:101::1]/x',
    'http://2130706433/x',
    'http://0x7f.1/x',
  ]
  it.each(refused)('refuses %s unless private targets are allowed', async (url) => {
    const game = await createGame(server)
    const res = await admin.post(hooks(game.id), { name: 'n', kind: 'Generic', url })
    expect(res.status).toBe(400)
    expect(res.body.title).toMatch(/^目标地址不被允许：.*(loopback|private|unique-local|link-local|multicast|reserved|carries)/)
    expect(await countRows(server, 'webhooks', 'game_id = ?', [game.id])).toBe(0)
  })

  it('tells public unicast addresses from the others', () => {
    for (const ok of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8']) expect(forbiddenAddress(ok), ok).toBeNull()
    for (const bad of ['127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', 'fe80::1%eth0'.split('%')[0]!, '2001:db8::1']) expect(forbiddenAddress(bad), bad).not.toBeNull()
  })

  it('checks again at delivery time and connects only to the address it checked', async () => {
    const game = await createGame(server)
    const hook = await create(game.id, { name: 'n', kind: 'Generic', url: `${generic.url}/rebind`, events: ['notice'], allowPrivate: true })
    // What a DNS rebinding looks like from here: the target was acceptable when saved, not any more.
    await query('update webhooks set allow_private = false where id = ?', [hook.id])
    const before = generic.received.length
    expect((await admin.post(`${hooks(game.id)}/${hook.id}/test`)).status).toBe(200)
    const [d] = await finished(game.id, hook.id, 1)
    expect(d).toMatchObject({ status: 'Failed', attempts: 1, responseCode: null })
    expect(d!.lastError).toMatch(/^refused: 127\.0\.0\.1 is a loopback/)
    expect(generic.received.slice(before).filter((r) => r.path === '/rebind')).toEqual([])
  })
})

describe('deliveries', () => {
  let game: Game
  let challenge: Challenge
  let players: Player[]
  const ids: Record<string, number> = {}
  let secret = ''

  beforeAll(async () => {
    game = await createGame(server, { title: 'Hooked CTF' })
    challenge = await createChallenge(server, game, { title: 'Warmup', flags: ['flag{warm}'] })
    players = []
    for (let i = 0; i < 4; i++) players.push(await createPlayer(server, game, { teamName: `Team${i} @everyone <b>` }))
    await createInstances(server, players.map((p) => p.participation), [challenge])
    ids.discord = (await create(game.id, { name: 'd', kind: 'Discord', url: `${discord.url}/api/webhooks/123/tok-en`, events: ['blood', 'solve', 'notice'] })).id
    ids.slack = (await create(game.id, { name: 's', kind: 'Slack', url: `${slack.url}/services/T1/B2/X3`, events: ['blood', 'notice'] })).id
    ids.telegram = (await create(game.id, { name: 't', kind: 'Telegram', secret: '123456:ABC-DEF_ghijklmnop', chatId: '-1001234', events: ['blood', 'solve', 'notice'] })).id
    const g = await create(game.id, { name: 'g', kind: 'Generic', url: `${generic.url}/events`, events: ['solve', 'notice'], allowPrivate: true })
    ids.generic = g.id
    secret = g.secret
    // A disabled webhook gets nothing.
    ids.off = (await create(game.id, { name: 'off', kind: 'Generic', url: `${generic.url}/off`, events: ['solve', 'blood', 'notice'], allowPrivate: true, enabled: false })).id
  })

  it('announces a notice, three bloods and a solve in every format, each subscription once', async () => {
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Hints are out' })).status).toBe(200)
    for (const p of players) expect(await settled(p.client, game.id, challenge.id, await submit(p.client, game.id, challenge.id, 'flag{warm}'))).toBe('Accepted')

    // Discord: notice + 3 bloods + 1 solve; Slack: notice + 3 bloods; Telegram like Discord; generic: notice + 4 solves.
    const d = await finished(game.id, ids.discord!, 5)
    const s = await finished(game.id, ids.slack!, 4)
    const t = await finished(game.id, ids.telegram!, 5)
    const g = await finished(game.id, ids.generic!, 5)
    for (const list of [d, s, t, g]) expect(list.every((x) => x.status === 'Delivered' && x.attempts === 1)).toBe(true)
    expect(d.map((x) => x.event).sort()).toEqual(['blood', 'blood', 'blood', 'notice', 'solve'])
    expect(s.map((x) => x.event).sort()).toEqual(['blood', 'blood', 'blood', 'notice'])
    expect(g.map((x) => x.event).sort()).toEqual(['notice', 'solve', 'solve', 'solve', 'solve'])
    expect(d.map((x) => x.responseCode)).toEqual([204, 204, 204, 204, 204])
    expect(await deliveries(game.id, ids.off!)).toEqual([])

    expect(discord.received.every((r) => r.valid && r.path === '/api/webhooks/123/tok-en')).toBe(true)
    const discordTexts = discord.received.map((r) => r.body.content)
    expect(discordTexts).toContain('[Hooked CTF] 📢 Hints are out')
    expect(discordTexts).toContain('[Hooked CTF] 🩸 Team0 @everyone <b> 获得了「Warmup」的一血')
    expect(discordTexts).toContain('[Hooked CTF] 🩸 Team2 @everyone <b> 获得了「Warmup」的三血')
    expect(discordTexts).toContain('[Hooked CTF] ✅ Team3 @everyone <b> 解出了「Warmup」')
    // No mention is ever parsed.
    expect(discord.received.every((r) => JSON.stringify(r.body.allowed_mentions) === '{"parse":[]}')).toBe(true)

    expect(slack.received.every((r) => r.valid && r.path === '/services/T1/B2/X3')).toBe(true)
    expect(slack.received.map((r) => r.body.text)).toContain('[Hooked CTF] 🩸 Team1 @everyone &lt;b&gt; 获得了「Warmup」的二血')

    expect(telegram.received.every((r) => r.valid && r.path === '/bot123456:ABC-DEF_ghijklmnop/sendMessage' && r.body.chat_id === '-1001234')).toBe(true)
    expect(telegram.received.map((r) => r.body.text)).toContain('[Hooked CTF] ✅ Team3 @everyone <b> 解出了「Warmup」')

    // Generic: signed JSON; the signature verifies with the secret over "{timestamp}.{body}".
    const events = generic.received.filter((r) => r.path === '/events')
    expect(events).toHaveLength(5)
    for (const r of events) {
      const timestamp = r.headers['x-flagwave-timestamp'] as string
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60)
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.raw}`).digest('hex')}`
      expect(r.headers['x-flagwave-signature']).toBe(expected)
      expect(r.headers['x-flagwave-delivery']).toBe(r.body.id)
      expect(r.headers['x-flagwave-event']).toBe(r.body.event)
      expect(r.body.timestamp).toBe(Number(timestamp))
      // A signature made with another secret, or over another body, does not match.
      expect(createHmac('sha256', 'whsec_other').update(`${timestamp}.${r.raw}`).digest('hex')).not.toBe(expected.slice(7))
    }
    const solve = events.find((r) => r.body.event === 'solve' && r.body.data.team === 'Team0 @everyone <b>')!
    expect(solve.body.data).toEqual({ game: { id: game.id, title: 'Hooked CTF' }, time: expect.any(String), team: 'Team0 @everyone <b>', challenge: { id: challenge.id, title: 'Warmup' } })
    const notice = events.find((r) => r.body.event === 'notice')!
    expect(notice.body.data).toEqual({ game: { id: game.id, title: 'Hooked CTF' }, time: expect.any(String), content: 'Hints are out' })
    expect(new Set(g.map((x) => x.deliveryId)).size).toBe(5)
    expect(events.map((r) => r.body.id).sort()).toEqual(g.map((x) => x.deliveryId).sort())
  })

  it('writes no delivery for a wrong flag or a repeated solve', async () => {
    const before = await countRows(server, 'webhook_deliveries', 'game_id = ?', [game.id])
    const p = players[0]!
    expect(await settled(p.client, game.id, challenge.id, await submit(p.client, game.id, challenge.id, 'flag{nope}'))).toBe('WrongAnswer')
    expect(await settled(p.client, game.id, challenge.id, await submit(p.client, game.id, challenge.id, 'flag{warm}'))).toBe('Accepted')
    expect(await countRows(server, 'webhook_deliveries', 'game_id = ?', [game.id])).toBe(before)
  })

  it('"send test" goes through the outbox and shows in the log', async () => {
    const res = await admin.post(`${hooks(game.id)}/${ids.slack}/test`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ event: 'test', status: 'Pending', attempts: 0, responseCode: null })
    const log = await until('the test delivered', async () => (await deliveries(game.id, ids.slack!)).find((d) => d.id === res.body.id && d.status === 'Delivered'))
    expect(log).toMatchObject({ deliveryId: res.body.deliveryId, attempts: 1, responseCode: 200, lastError: null })
    expect(slack.received.at(-1)!.body.text).toBe('[Hooked CTF] 这是一条来自 Flagwave 的测试消息')
  })
})

describe('freeze', () => {
  it('holds solve and blood deliveries of post-freeze solves (not as attempts) and sends them at the unfreeze', async () => {
    const game = await createGame(server, { title: 'Frozen CTF' })
    const challenge = await createChallenge(server, game, { title: 'Late', flags: ['flag{late}'] })
    const early = await createPlayer(server, game, { teamName: 'Early' })
    const late = await createPlayer(server, game, { teamName: 'Late' })
    await createInstances(server, [early.participation, late.participation], [challenge])
    const hook = await create(game.id, { name: 'g', kind: 'Generic', url: `${generic.url}/frozen`, events: ['blood', 'solve'], allowPrivate: true })
    const received = () => generic.received.filter((r) => r.path === '/frozen')

    expect(await settled(early.client, game.id, challenge.id, await submit(early.client, game.id, challenge.id, 'flag{late}'))).toBe('Accepted')
    await finished(game.id, hook.id, 1)
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    expect(await settled(late.client, game.id, challenge.id, await submit(late.client, game.id, challenge.id, 'flag{late}'))).toBe('Accepted')
    // Claimed and put back: Pending, no attempt counted, due again later; nothing reaches the receiver.
    const held = await until('the held delivery', async () =>
      (await deliveries(game.id, hook.id)).find((d) => d.status === 'Pending' && d.event === 'blood'),
    )
    await new Promise((r) => setTimeout(r, 500))
    expect((await deliveries(game.id, hook.id)).find((d) => d.id === held.id)).toMatchObject({ status: 'Pending', attempts: 0 })
    const [row] = await query<{ next_attempt_at: Date }>('select next_attempt_at from webhook_deliveries where id = ?', [held.id])
    expect(new Date(row!.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000)
    expect(received().map((r) => r.body.data.team)).toEqual(['Early'])

    expect((await admin.post(`/api/edit/games/${game.id}/unfreeze`)).status).toBe(200)
    const done = await finished(game.id, hook.id, 2)
    expect(done.every((d) => d.status === 'Delivered' && d.attempts === 1)).toBe(true)
    expect(received().map((r) => `${r.body.event}:${r.body.data.team}`)).toEqual(['blood:Early', 'blood:Late'])
  })

  it('releases held deliveries when the editor removes the freeze', async () => {
    const game = await createGame(server, { title: 'Thawed CTF' })
    const challenge = await createChallenge(server, game, { title: 'Thaw', flags: ['flag{thaw}'] })
    const p = await createPlayer(server, game, { teamName: 'Thawing' })
    await createInstances(server, [p.participation], [challenge])
    const hook = await create(game.id, { name: 'g', kind: 'Generic', url: `${generic.url}/thawed`, events: ['blood', 'solve'], allowPrivate: true })
    expect((await admin.post(`/api/edit/games/${game.id}/freeze`)).status).toBe(200)
    expect(await settled(p.client, game.id, challenge.id, await submit(p.client, game.id, challenge.id, 'flag{thaw}'))).toBe('Accepted')
    await until('the held delivery', async () => (await deliveries(game.id, hook.id)).find((d) => d.status === 'Pending' && d.attempts === 0 && d.event === 'blood'))
    await new Promise((r) => setTimeout(r, 300))
    expect(generic.received.filter((r) => r.path === '/thawed')).toEqual([])
    const info = (await admin.get(`/api/edit/games/${game.id}`)).body
    expect((await admin.put(`/api/edit/games/${game.id}`, { ...info, freezeTime: null })).status).toBe(200)
    await finished(game.id, hook.id, 1)
    expect(generic.received.filter((r) => r.path === '/thawed').map((r) => r.body.data.team)).toEqual(['Thawing'])
  })
})

describe('retries', () => {
  it('retries a failing target with growing delays, under the same delivery id, until it answers', async () => {
    const flaky = await startReceiver('generic', (_r, i) => (i < 2 ? { status: 503, body: 'down for maintenance' } : null))
    try {
      const game = await createGame(server)
      const hook = await create(game.id, { name: 'flaky', kind: 'Generic', url: `${flaky.url}/x`, allowPrivate: true })
      await admin.post(`${hooks(game.id)}/${hook.id}/test`)
      const [d] = await finished(game.id, hook.id, 1)
      expect(d).toMatchObject({ status: 'Delivered', attempts: 3, responseCode: 200 })
      const got = await flaky.waitFor(3)
      expect(new Set(got.map((r) => r.headers['x-flagwave-delivery']))).toEqual(new Set([d!.deliveryId]))
      // Backoff: base 100 ms, then 200 ms, each 50–100 % of its ceiling.
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(50)
      expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(100)
      // Each attempt is signed afresh.
      expect(got.map((r) => r.headers['x-flagwave-timestamp']).every((t) => /^\d+$/.test(t as string))).toBe(true)
    } finally {
      await flaky.close()
    }
  })

  it('gives up at once on a client error and after WEBHOOK_MAX_ATTEMPTS on server errors and timeouts', async () => {
    const rejecting = await startReceiver('generic', () => ({ status: 400, body: 'bad payload' }))
    const down = await startReceiver('generic', () => ({ status: 500, body: 'boom' }))
    const silent = await startReceiver('generic', () => 'hang')
    try {
      const game = await createGame(server)
      const a = await create(game.id, { name: 'a', kind: 'Generic', url: `${rejecting.url}/x`, allowPrivate: true })
      const b = await create(game.id, { name: 'b', kind: 'Generic', url: `${down.url}/x`, allowPrivate: true })
      const c = await create(game.id, { name: 'c', kind: 'Generic', url: `${silent.url}/x`, allowPrivate: true })
      for (const h of [a, b, c]) await admin.post(`${hooks(game.id)}/${h.id}/test`)
      expect((await finished(game.id, a.id, 1))[0]).toMatchObject({ status: 'Failed', attempts: 1, responseCode: 400, lastError: 'HTTP 400 bad payload' })
      expect((await finished(game.id, b.id, 1))[0]).toMatchObject({ status: 'Failed', attempts: 3, responseCode: 500, lastError: 'HTTP 500 boom' })
      const [timedOut] = await finished(game.id, c.id, 1)
      expect(timedOut).toMatchObject({ status: 'Failed', attempts: 3, responseCode: null })
      expect(timedOut!.lastError).toMatch(/no complete answer within 1500 ms/)
      // A target that is down entirely: connection refused, retried, then failed.
      await down.close()
      await admin.post(`${hooks(game.id)}/${b.id}/test`)
      const list = await finished(game.id, b.id, 2)
      expect(list[0]).toMatchObject({ status: 'Failed', attempts: 3, responseCode: null })
      expect(list[0]!.lastError).toMatch(/ECONNREFUSED/)
    } finally {
      await Promise.all([rejecting.close(), silent.close(), down.close().catch(() => undefined)])
    }
  })
})

describe('game start and end', () => {
  it('are announced exactly once per webhook, whichever of several nodes sees them first', async () => {
    const now = Date.now()
    const game = await createGame(server, { title: 'Timed', start: new Date(now + 2_000), end: new Date(now + 3_500) })
    const hook = await create(game.id, { name: 'timer', kind: 'Discord', url: `${discord.url}/api/webhooks/9/timer`, events: ['gameStart', 'gameEnd'] })
    const late = await createGame(server, { title: 'Already running', start: new Date(now - 60_000) })
    const lateHook = await create(late.id, { name: 'late', kind: 'Discord', url: `${discord.url}/api/webhooks/9/late`, events: ['gameStart'] })
    const other = await startNode(server.databaseUrl, { WEBHOOK_POLL_MS: '50', WEBHOOK_DISCORD_URL: `${discord.url}/api/webhooks/`, CHECKER_CONCURRENCY: '0' })
    try {
      const list = await finished(game.id, hook.id, 2)
      await new Promise((r) => setTimeout(r, 500))
      expect((await deliveries(game.id, hook.id)).map((d) => [d.event, d.status])).toEqual([
        ['gameEnd', 'Delivered'],
        ['gameStart', 'Delivered'],
      ])
      expect(list).toHaveLength(2)
      const texts = discord.received.filter((r) => r.path === '/api/webhooks/9/timer').map((r) => r.body.content)
      expect(texts).toEqual(['[Timed] 🚩 比赛开始了', '[Timed] 🏁 比赛结束了'])
      // A webhook added after the start does not announce it.
      expect(await deliveries(late.id, lateHook.id)).toEqual([])
    } finally {
      await other.close()
    }
  })
})

describe('CTFtime feed', () => {
  it('is 404 until switched on, then serves CTFtime standings, cached per scoreboard version', async () => {
    const game = await createGame(server, { title: 'Feed' })
    const [c1, c2] = [await createChallenge(server, game, { title: 'One', flags: ['flag{1}'] }), await createChallenge(server, game, { title: 'Two', flags: ['flag{2}'] })]
    const p = [await createPlayer(server, game, { teamName: 'Alpha' }), await createPlayer(server, game, { teamName: 'Beta' })]
    await createInstances(server, p.map((x) => x.participation), [c1, c2])
    const anon = server.client()
    const feed = `/api/game/${game.id}/ctftime`
    expect(await anon.get(feed)).toMatchObject({ status: 404, body: { title: '比赛未找到', status: 404 } })
    expect((await admin.get(`/api/edit/games/${game.id}/ctftime`)).body).toEqual({ enabled: false })
    expect((await admin.put(`/api/edit/games/${game.id}/ctftime`, { enabled: 'yes' })).status).toBe(400)
    expect((await admin.put(`/api/edit/games/${game.id}/ctftime`, { enabled: true })).body).toEqual({ enabled: true })
    expect((await admin.get(`/api/edit/games/${game.id}/ctftime`)).body).toEqual({ enabled: true })

    const empty = await anon.get(feed)
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({
      tasks: ['One', 'Two'],
      standings: [
        { pos: 1, team: 'Alpha', score: 0, taskStats: {}, lastAccept: 0 },
        { pos: 2, team: 'Beta', score: 0, taskStats: {}, lastAccept: 0 },
      ],
    })
    const id = await submit(p[1]!.client, game.id, c2.id, 'flag{2}')
    expect(await settled(p[1]!.client, game.id, c2.id, id)).toBe('Accepted')
    const body = await until('the solve in the feed', async () => {
      const res = await anon.get(feed)
      return res.body.standings[0].score > 0 && res.body
    })
    const solvedAt = (await query<{ t: Date }>('select submit_time as t from submissions where id = ?', [id]))[0]!.t
    expect(body).toEqual({
      tasks: ['One', 'Two'],
      standings: [
        { pos: 1, team: 'Beta', score: body.standings[0].score, taskStats: { Two: { points: body.standings[0].score, time: Math.floor(new Date(solvedAt).getTime() / 1000) } }, lastAccept: Math.floor(new Date(solvedAt).getTime() / 1000) },
        { pos: 2, team: 'Alpha', score: 0, taskStats: {}, lastAccept: 0 },
      ],
    })
    expect(body.standings[0].score).toBeGreaterThan(0)
    // One serialisation per version: the same version gives the same object.
    const { ctftimeFeed } = await import('../../server/src/domain/scoreboard/ctftime.js')
    const em = server.services.orm.em.fork()
    expect(await ctftimeFeed(em, server.services, game.id)).toBe(await ctftimeFeed(em, server.services, game.id))

    // Hidden or not started: 404 again.
    await query('update games set hidden = true where id = ?', [game.id])
    server.services.readCache.clear()
    await until('hidden game 404', async () => (await anon.get(feed)).status === 404)
    await query('update games set hidden = false, start = now() + interval \'1 hour\' where id = ?', [game.id])
    server.services.readCache.clear()
    await until('upcoming game 404', async () => (await anon.get(feed)).status === 404)
    await query('update games set start = now() - interval \'1 hour\' where id = ?', [game.id])
    expect((await admin.put(`/api/edit/games/${game.id}/ctftime`, { enabled: false })).status).toBe(200)
    expect(await anon.get(feed)).toMatchObject({ status: 404 })
  })
})
