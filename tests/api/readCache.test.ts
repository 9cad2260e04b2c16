/**
 * The read cache of the hot paths (docs/architecture.md#read-cache): every cached read is dropped
 * by the writes that change what it was built from — at once on the node that wrote, and on
 * another node of the same database as soon as the commit's NOTIFY arrives. Each case warms the
 * cache on both nodes first, then writes on the first and reads on both.
 */
import { describe, expect, it } from 'vitest'
import type { TestServer } from '../support/server.js'
import { withTwoNodes } from '../support/twoNodes.js'
import { ApiClient } from '../support/client.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createInstances, createPlayer, sameSessionOn, submit, settled, submitPath } from '../support/factories/play.js'
import type { RunningServer } from '../../server/src/server.js'
import { createUser } from '../support/factories/users.js'
import { createTeam } from '../support/factories/teams.js'

let server: TestServer
let other: RunningServer
let admin: ApiClient

withTwoNodes((nodes) => ({ server, other, admin } = nodes))

/** The same session, talking to the other node. */
const onOther = (client: ApiClient): ApiClient => sameSessionOn(other, client)

/** Read `path` on both nodes as `client` until `check` holds on each (the other node within 3 s). */
async function onBoth(client: ApiClient, path: string, check: (res: { status: number; body: any }) => void): Promise<void> {
  const here = await client.get(path)
  check(here)
  const there = onOther(client)
  await expect
    .poll(
      async () => {
        try {
          check(await there.get(path))
          return true
        } catch {
          return false
        }
      },
      { timeout: 3000, interval: 25 },
    )
    .toBe(true)
}

/** Warm both nodes' caches with `path`. */
async function warm(client: ApiClient, path: string): Promise<void> {
  expect((await client.get(path)).status).toBe(200)
  expect((await onOther(client).get(path)).status).toBe(200)
}

async function runningGame() {
  const game = await createGame(server, { start: new Date(Date.now() - 3600_000), end: new Date(Date.now() + 3600_000), practiceMode: false })
  const challenge = await createChallenge(server, game, { isEnabled: true })
  const player = await createPlayer(server, game)
  return { game, challenge, player }
}

describe('sessions', () => {
  it('a ban ends the session on every node at once', async () => {
    const { player } = await runningGame()
    await warm(player.client, '/api/account/profile')
    expect((await admin.put(`/api/admin/users/${player.user.id}`, { role: 'Banned' })).status).toBe(200)
    await onBoth(player.client, '/api/account/profile', (res) => expect(res.status).toBe(403))
  })

  it('a password change ends the other sessions; a logout ends its own', async () => {
    const { player } = await runningGame()
    const second = new ApiClient(server.url)
    await second.login(player.user.userName, player.password)
    await warm(second, '/api/account/profile')
    await warm(player.client, '/api/account/profile')
    expect((await player.client.put('/api/account/changepassword', { old: player.password, new: 'An0ther#Passw0rd' })).status).toBe(200)
    await onBoth(second, '/api/account/profile', (res) => expect(res.status).toBe(401))
    await onBoth(player.client, '/api/account/profile', (res) => expect(res.status).toBe(200))
    const stolen = onOther(player.client)
    expect((await player.client.post('/api/account/logout')).status).toBe(200)
    await expect.poll(async () => (await stolen.get('/api/account/profile')).status, { timeout: 3000, interval: 25 }).toBe(401)
  })

  it('a profile change shows on every node', async () => {
    const { player } = await runningGame()
    await warm(player.client, '/api/account/profile')
    expect((await player.client.put('/api/account/update', { bio: 'changed bio' })).status).toBe(200)
    await onBoth(player.client, '/api/account/profile', (res) => expect(res.body.bio).toBe('changed bio'))
  })
})

describe('the game gate', () => {
  it('a suspended participation stops its board and its flags on every node', async () => {
    const { game, challenge, player } = await runningGame()
    await warm(player.client, `/api/game/${game.id}/details`)
    expect((await admin.put(`/api/admin/participation/${player.participation.id}/Suspended`)).status).toBe(200)
    await onBoth(player.client, `/api/game/${game.id}/details`, (res) => expect(res).toMatchObject({ status: 400, body: { title: '您的参赛申请尚未通过或被禁赛' } }))
    const res = await onOther(player.client).post(submitPath(game.id, challenge.id), { flag: 'flag{x}' })
    expect(res).toMatchObject({ status: 400, body: { title: '您的参赛申请尚未通过或被禁赛' } })
  })

  it('a game that ends, or is deleted, is refused on every node', async () => {
    const { game, player } = await runningGame()
    await warm(player.client, `/api/game/${game.id}/details`)
    const ended = { title: game.title, practiceMode: false, start: new Date(Date.now() - 7200_000).toISOString(), end: new Date(Date.now() - 1000).toISOString() }
    expect((await admin.put(`/api/edit/games/${game.id}`, ended)).body).toMatchObject({ end: expect.any(String) })
    expect(Date.parse((await admin.get(`/api/edit/games/${game.id}`)).body.end)).toBeLessThan(Date.now())
    await onBoth(player.client, `/api/game/${game.id}/details`, (res) => expect(res).toMatchObject({ status: 400, body: { title: '比赛已结束' } }))
    await warm(player.client, `/api/game/${game.id}`)
    expect((await admin.delete(`/api/edit/games/${game.id}`)).status).toBe(200)
    await onBoth(player.client, `/api/game/${game.id}`, (res) => expect(res).toMatchObject({ status: 404, body: { title: '比赛未找到' } }))
  })

  it('a deleted challenge takes no more flags on any node', async () => {
    const { game, challenge, player } = await runningGame()
    await submit(onOther(player.client), game.id, challenge.id, 'flag{warm}')
    await submit(player.client, game.id, challenge.id, 'flag{warm}')
    expect((await admin.delete(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).status).toBe(200)
    for (const client of [player.client, onOther(player.client)]) {
      await expect
        .poll(async () => (await client.post(submitPath(game.id, challenge.id), { flag: 'flag{x}' })).body, { timeout: 3000, interval: 25 })
        .toEqual({ title: '题目未找到', status: 404 })
    }
  })

  it("a renamed team shows in the game's caller info on every node", async () => {
    const { game, player } = await runningGame()
    await warm(player.client, `/api/game/${game.id}`)
    expect((await player.client.put(`/api/team/${player.team.id}`, { name: 'Renamed Team' })).status).toBe(200)
    await onBoth(player.client, `/api/game/${game.id}`, (res) => expect(res.body.teamName).toBe('Renamed Team'))
  })
})

describe('my teams', () => {
  it('a member who joins or is kicked, and a member who edits their profile, show on every node', async () => {
    const captain = await createUser(server)
    const team = await createTeam(server, captain.user)
    const member = await createUser(server)
    await warm(captain.client, '/api/team')
    await warm(member.client, '/api/team')
    const code = (await captain.client.get(`/api/team/${team.id}/invite`)).body as string
    expect((await member.client.post('/api/team/accept', code)).status).toBe(200)
    await onBoth(member.client, '/api/team', (res) => expect(res.body.map((t: { id: number }) => t.id)).toEqual([team.id]))
    const memberRow = (res: { body: { members: { id: string; bio: string }[] }[] }) => res.body[0]!.members.find((m) => m.id === member.user.id)
    await onBoth(captain.client, '/api/team', (res) => expect(memberRow(res)).toBeDefined())
    expect((await member.client.put('/api/account/update', { bio: 'member bio' })).status).toBe(200)
    await onBoth(captain.client, '/api/team', (res) => expect(memberRow(res)?.bio).toBe('member bio'))
    expect((await captain.client.post(`/api/team/${team.id}/kick/${member.user.id}`)).status).toBe(200)
    await onBoth(member.client, '/api/team', (res) => expect(res.body).toEqual([]))
    await onBoth(captain.client, '/api/team', (res) => expect(memberRow(res)).toBeUndefined())
  })
})

describe('lists', () => {
  it('notices: an admin notice and a blood show on every node', async () => {
    const { game, challenge, player } = await runningGame()
    const path = `/api/game/${game.id}/notices`
    await warm(player.client, path)
    expect((await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'hello players' })).status).toBe(200)
    await onBoth(player.client, path, (res) => expect(res.body.map((n: { content: string }) => n.content)).toContain('hello players'))
    await createInstances(server, [player.participation], [challenge])
    const id = await submit(player.client, game.id, challenge.id, 'flag{test}')
    expect(await settled(player.client, game.id, challenge.id, id)).toBe('Accepted')
    await onBoth(player.client, path, (res) => expect(res.body.map((n: { type: string }) => n.type)).toContain('FirstBlood'))
  })

  it('the game list: a hidden game leaves it on every node', async () => {
    const { game, player } = await runningGame()
    await warm(player.client, '/api/game')
    expect((await player.client.get('/api/game')).body.map((g: { id: number }) => g.id)).toContain(game.id)
    expect((await admin.put(`/api/edit/games/${game.id}`, { title: game.title, hidden: true })).status).toBe(200)
    await onBoth(player.client, '/api/game', (res) => expect(res.body.map((g: { id: number }) => g.id)).not.toContain(game.id))
  })

  it("posts: a new post and its author's new name show on every node", async () => {
    const { player } = await runningGame()
    await warm(player.client, '/api/posts/latest')
    const id = (await admin.post('/api/edit/posts', { title: 'Cached?', summary: 's', content: 'c', tags: [] })).body as string
    await onBoth(player.client, '/api/posts/latest', (res) => expect(res.body.map((p: { id: string }) => p.id)).toContain(id))
    expect((await admin.put('/api/account/update', { userName: 'RenamedAdmin' })).status).toBe(200)
    await onBoth(player.client, `/api/posts/${id}`, (res) => expect(res.body.authorName).toBe('RenamedAdmin'))
  })
})
