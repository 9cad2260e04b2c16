/**
 * Container endpoints without a working engine (no Docker needed): CONTAINER_PROVIDER=none
 * answers each endpoint's contract title, and a Docker provider whose engine is missing or hangs
 * answers the same 400 within the engine timeout — never a hung request, never a half-created
 * instance. Also the proxy outside proxy mode and the anonymous/role checks.
 */
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import type { ApiClient } from '../support/client.js'
import { containerPath, expectError, expectRefusal, waitFor } from './helpers.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import { Container } from '../../server/src/entities/Container.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'

interface World {
  server: TestServer
  admin: ApiClient
  game: Game
  challenge: Challenge
  player: Player
}

async function world(env: Record<string, string>): Promise<World> {
  const server = await startTestServer({ env })
  await isolateIds(server)
  const game = await createGame(server)
  const challenge = await createChallenge(server, game, { type: 'DynamicContainer', containerImage: 'busybox:latest', containerExposePort: 8080, flags: [] })
  const player = await createPlayer(server, game)
  await ensureInstances(server.services.orm.em.fork(), player.participation.id, game.id)
  return { server, admin: await server.admin(), game, challenge, player }
}

async function nothingCreated(w: World): Promise<void> {
  const em = w.server.services.orm.em.fork()
  expect(await em.count(Container, {})).toBe(0)
  const instance = await em.findOneOrFail(GameInstance, { participation: w.player.participation.id, challenge: w.challenge.id })
  expect(instance.container).toBeNull()
  expect(instance.lastContainerOperation).toBeNull()
}

describe('CONTAINER_PROVIDER=none', () => {
  let w: World
  let banned: TestUser
  beforeAll(async () => {
    w = await world({})
    banned = await createUser(w.server, { role: 'Banned' })
  })
  afterAll(async () => {
    await w?.server.close()
  })

  it('answers 400 题目创建容器失败 to a player and 400 容器创建失败 to an editor', async () => {
    expect(w.server.services.containers.provider.name).toBe('none')
    expectRefusal(await w.player.client.post(containerPath(w.game.id, w.challenge.id)), '题目创建容器失败', 'noProvider')
    expectRefusal(await w.admin.post(`/api/edit/games/${w.game.id}/challenges/${w.challenge.id}/container`), '容器创建失败', 'noProvider')
    // The admin log says why, for the player's attempt and the editor's.
    await waitFor('the failures in the admin log', async () => {
      const logs = (await w.admin.get('/api/admin/logs?count=20&level=Warning')).body as { msg: string; status: string; name: string }[]
      const mine = logs.filter((l) => l.msg.includes('（平台未配置容器后端；') && l.status === 'Failed')
      return mine.some((l) => l.msg.startsWith('题目创建容器失败') && l.name === w.player.user.userName) && mine.some((l) => l.msg.startsWith('容器创建失败') && l.name === 'Admin')
    })
    // The editor can tell that no engine is configured.
    expect((await w.admin.get('/api/edit/containers/provider')).body).toEqual({ provider: 'none' })
    expect((await w.admin.delete(`/api/edit/games/${w.game.id}/challenges/${w.challenge.id}/container`)).status).toBe(200)
    await nothingCreated(w)
  })

  it('has nothing to prolong, destroy or list', async () => {
    expectError(await w.player.client.post(`${containerPath(w.game.id, w.challenge.id)}/prolong`), 400, '题目未创建容器')
    expectError(await w.player.client.delete(containerPath(w.game.id, w.challenge.id)), 400, '题目未创建容器')
    const list = await w.admin.get('/api/admin/instances')
    expect(list.status).toBe(200)
    expect(list.body).toEqual({ data: [], length: 0, total: 0 })
  })

  it('answers the proxy with 400 TCP 代理已禁用', async () => {
    expectError(await w.server.client().get('/api/proxy/00000000-0000-4000-8000-000000000000'), 400, 'TCP 代理已禁用')
    expect(await rawUpgrade(`${w.server.url}/api/proxy/00000000-0000-4000-8000-000000000000`)).toEqual({ status: 400, body: { title: 'TCP 代理已禁用', status: 400 } })
    expect(await rawUpgrade(`${w.server.url}/API/Proxy/noinst/00000000-0000-4000-8000-000000000000`)).toEqual({ status: 400, body: { title: 'TCP 代理已禁用', status: 400 } })
  })

  it('checks roles before anything else on every container endpoint', async () => {
    const anon = w.server.client()
    const user = await createUser(w.server)
    const monitor = await createUser(w.server, { role: 'Monitor' })
    const gameId = w.game.id
    const cid = w.challenge.id
    const player: [string, string][] = [
      ['POST', containerPath(gameId, cid)],
      ['POST', `${containerPath(gameId, cid)}/prolong`],
      ['DELETE', containerPath(gameId, cid)],
    ]
    for (const [method, p] of player) {
      expectError(await anon.request(method, p), 401, '请先登录')
      expectError(await banned.client.request(method, p), 403, '无权访问')
      expectError(await user.client.request(method, p.replace(`/game/${gameId}/`, '/game/999999999/')), 404, '比赛未找到')
    }
    const adminOnly: [string, string][] = [
      ['POST', `/api/edit/games/${gameId}/challenges/${cid}/container`],
      ['DELETE', `/api/edit/games/${gameId}/challenges/${cid}/container`],
      ['GET', '/api/admin/instances'],
      ['DELETE', '/api/admin/instances/00000000-0000-4000-8000-000000000000'],
    ]
    for (const [method, p] of adminOnly) {
      expectError(await anon.request(method, p), 401, '请先登录')
      expectError(await user.client.request(method, p), 403, '无权访问')
      expectError(await monitor.client.request(method, p), 403, '无权访问')
    }
    expectError(await w.admin.delete('/api/admin/instances/00000000-0000-4000-8000-000000000000'), 404, '容器实例未找到')
  })
})

describe('Docker provider without a usable engine', () => {
  it('answers 400 at once when the engine socket does not exist', async () => {
    const w = await world({ CONTAINER_PROVIDER: 'docker', DOCKER_HOST: 'unix:///nonexistent/flagwave-docker.sock' })
    try {
      const t0 = Date.now()
      expectRefusal(await w.player.client.post(containerPath(w.game.id, w.challenge.id)), '题目创建容器失败', 'engineUnreachable')
      expectRefusal(await w.admin.post(`/api/edit/games/${w.game.id}/challenges/${w.challenge.id}/container`), '容器创建失败', 'engineUnreachable')
      expect(Date.now() - t0).toBeLessThan(5000)
      await nothingCreated(w)
    } finally {
      await w.server.close()
    }
  })

  it('answers 400 after CONTAINER_ENGINE_TIMEOUT_MS when the engine hangs', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-hang-'))
    const socketPath = path.join(dir, 'docker.sock')
    const held: net.Socket[] = []
    const hang = net.createServer((s) => held.push(s)) // accepts, never answers
    await new Promise<void>((r) => hang.listen(socketPath, r))
    const w = await world({ CONTAINER_PROVIDER: 'docker', DOCKER_HOST: `unix://${socketPath}`, CONTAINER_ENGINE_TIMEOUT_MS: '800' })
    try {
      const t0 = Date.now()
      expectRefusal(await w.player.client.post(containerPath(w.game.id, w.challenge.id)), '题目创建容器失败', 'engineUnreachable')
      const elapsed = Date.now() - t0
      expect(elapsed).toBeGreaterThanOrEqual(700)
      expect(elapsed).toBeLessThan(8000)
      await nothingCreated(w)
    } finally {
      await w.server.close()
      for (const s of held) s.destroy()
      await new Promise<void>((r) => hang.close(() => r()))
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})

/** A WebSocket upgrade request by hand; resolves with the HTTP refusal (status and JSON body). */
function rawUpgrade(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, {
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    })
    req.on('upgrade', (_res, socket) => {
      socket.destroy()
      reject(new Error('the upgrade was accepted'))
    })
    req.on('response', (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString('utf8')))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }))
    })
    req.on('error', reject)
  })
}
