/**
 * Brute force: password guessing, flag guessing and invite-code guessing are rate limited
 * (server/src/http/rateLimit.ts: `Login` and `InviteCode` are Flagwave additions, `Submit` is the
 * contract's policy partitioned per caller). Sign-in attempts are counted per client IP, flag
 * submissions and invite codes per user; one partition running out leaves the others alone.
 *
 * Client addresses come from X-Forwarded-For (TRUST_PROXY) and are random per run, so counters in
 * a Redis shared with other test files (and earlier runs) never meet these.
 */
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'
import { createChallenge, createGame, createParticipation } from '../support/factories/games.js'
import { isolateIds, submitPath } from '../support/factories/play.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import type { ApiResponse } from '../support/client.js'

let server: TestServer
let victim: TestUser
let game: Game
let challenge: Challenge

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`

beforeAll(async () => {
  server = await startTestServer({ rateLimit: true, env: { TRUST_PROXY: 'true' } })
  await isolateIds(server)
  victim = await createUser(server)
  game = await createGame(server)
  challenge = await createChallenge(server, game, { flags: ['flag{secret}'] })
})
afterAll(async () => {
  await server?.close()
})

function expectLimited(res: ApiResponse) {
  expect(res.status).toBe(429)
  const seconds = Number(res.headers.get('retry-after'))
  expect(seconds).toBeGreaterThan(0)
  expect(res.body).toEqual({ title: `Too many requests, retry after ${seconds} seconds.`, status: 429 })
}

const tally = (responses: ApiResponse[]) => responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {})

async function player(): Promise<TestUser> {
  const u = await createUser(server)
  const team = await createTeam(server, u.user)
  await createParticipation(server, game, team, [u.user])
  return u
}

describe('password guessing', () => {
  it('allows 30 sign-in attempts a minute per client IP, then 429 — even for the right password', async () => {
    const ip = randomIp()
    const guess = (password: string, from = ip) => server.client().post('/api/account/login', { userName: victim.user.userName, password }, { 'x-forwarded-for': from })
    const responses = await Promise.all(Array.from({ length: 31 }, (_, i) => guess(`Wrong-${i}-Passw0rd`)))
    expect(tally(responses)).toEqual({ 401: 30, 429: 1 })
    expectLimited(responses.find((r) => r.status === 429)!)
    expectLimited(await guess(victim.password))
    // Another address is counted on its own.
    const other = await guess(victim.password, randomIp())
    expect(other.status).toBe(200)
  })
})

describe('flag guessing', () => {
  it('allows 60 submissions per window per user, then 429; other users keep submitting', async () => {
    const [greedy, patient] = await Promise.all([player(), player()])
    const ip = randomIp()
    const responses = await Promise.all(Array.from({ length: 70 }, (_, i) => greedy.client.post(submitPath(game.id, challenge.id), { flag: `flag{guess${i}}` }, { 'x-forwarded-for': ip })))
    expect(tally(responses)).toEqual({ 200: 60, 429: 10 })
    expectLimited(responses.find((r) => r.status === 429)!)
    const [{ n }] = await server.services.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from submissions where user_id = ?', [greedy.user.id])
    expect(Number(n)).toBe(60)
    // Same address, another user: not limited.
    const ok = await patient.client.post(submitPath(game.id, challenge.id), { flag: 'flag{secret}' }, { 'x-forwarded-for': ip })
    expect(ok.status).toBe(200)
  })
})

describe('invite-code guessing', () => {
  it('allows 30 invite codes a minute per user, then 429; other users are not affected', async () => {
    const [guesser, bystander] = await Promise.all([createUser(server), createUser(server)])
    const target = await createTeam(server, victim.user, [], { name: 'Target' })
    const ip = randomIp()
    const code = (i: number) => `Target:${target.id}:${i.toString(16).padStart(32, '0')}`
    const responses = await Promise.all(Array.from({ length: 31 }, (_, i) => guesser.client.post('/api/team/accept', code(i), { 'x-forwarded-for': ip })))
    expect(tally(responses)).toEqual({ 400: 30, 429: 1 })
    expectLimited(responses.find((r) => r.status === 429)!)
    // Even the right code is refused while the guesser is limited.
    expectLimited(await guesser.client.post('/api/team/accept', `Target:${target.id}:${target.inviteToken}`, { 'x-forwarded-for': ip }))
    const other = await bystander.client.post('/api/team/accept', code(99), { 'x-forwarded-for': ip })
    expect(other.body).toEqual({ title: 'Target 邀请无效', status: 400 })
  })
})
