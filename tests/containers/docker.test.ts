/**
 * Team containers on the real Docker engine (docs/compatibility.md#group-game-containers, #group-admin, #group-edit; docs/architecture.md#containers): start a container and reach it on its published 127.0.0.1 port,
 * prolong, destroy, the team limit, the cooldown, the dynamic flag in GZCTF_FLAG, editors' test
 * containers, the admin instance list, and the reaper / reconciliation.
 *
 * Needs DOCKER_HOST (CI: unix:///run/flagwave-ci/docker.sock) and /bin/busybox. Without an
 * engine the suite fails on CI and is skipped locally with a message.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import pino from 'pino'
import { z } from 'zod'
import type { Socket } from 'socket.io-client'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { ContainerInstanceModel } from '@flagwave/shared/schemas/admin'
import { rooms } from '@flagwave/shared/events'
import { TEST_FLAG } from '@flagwave/shared/flags'
import { requireDocker } from '../support/docker.js'
import { createUser, type TestUser } from '../support/factories/users.js'
import { createGame } from '../support/factories/games.js'
import { createPlayer, settled, submit } from '../support/factories/play.js'
import { closeAllSockets, connect, joined, nextEvent, noEvent } from '../support/sockets.js'
import type { ApiClient } from '../support/client.js'
import { DOCKER_HOST, addChallenge, banner, talk, containerPath, expectError, expectRefusal, parseEntry, setup, startDockerServer, waitFor, type DockerServer } from './helpers.js'
import { Container } from '../../server/src/entities/Container.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { GameEvent } from '../../server/src/entities/GameEvent.js'
import { Game } from '../../server/src/entities/Game.js'
import { Challenge } from '../../server/src/entities/Challenge.js'
import { reconcileContainers } from '../../server/src/containers/reaper.js'
import { LABEL_MANAGED, LABEL_SCOPE, LABEL_CONTAINER } from '../../server/src/containers/provider.js'
import { destroyInstanceContainer } from '../../server/src/domain/containers/lifecycle.js'
import { DockerProvider } from '../../server/src/containers/docker.js'
import { loadConfig } from '../../server/src/config.js'

const available = await requireDocker()
const HOUR = 3600_000

let ds: DockerServer
let admin: ApiClient
let monitor: TestUser
let banned: TestUser

const em = () => ds.server.services.orm.em.fork()
/** The next ReceivedContainerUpdate with this reason (others are skipped). */
function updateWith(socket: Socket, reason: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('ReceivedContainerUpdate', handler)
      reject(new Error(`no ${reason} update within ${timeoutMs} ms`))
    }, timeoutMs)
    const handler = (update: Record<string, unknown>) => {
      if (update.reason !== reason) return
      clearTimeout(timer)
      socket.off('ReceivedContainerUpdate', handler)
      resolve(update)
    }
    socket.on('ReceivedContainerUpdate', handler)
  })
}
const engineIds = async () => (await ds.docker.listContainers({ all: true, filters: { label: [`${LABEL_SCOPE}=${ds.server.services.containers.scope}`] } })).map((c) => c.Id)
const instanceOf = (participationId: number, challengeId: number) => em().findOneOrFail(GameInstance, { participation: participationId, challenge: challengeId }, { populate: ['container'] })
/** Pretend the last container operation was long ago (the 10 s cooldown). */
const coolDown = (participationId: number, challengeId: number) =>
  em().nativeUpdate(GameInstance, { participation: participationId, challenge: challengeId }, { lastContainerOperation: new Date(Date.now() - 60_000) })
/** A player starts a team container through the API and listens in the team's /hub/user room. */
async function startWatched() {
  const { game, challenge, player } = await setup(ds)
  expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
  const row = (await instanceOf(player.participation.id, challenge.id)).container as Container
  const socket = await connect(ds.server, '/hub/user', { game: game.id, client: player.client })
  await joined(ds.server, '/hub/user', socket, rooms.team(game.id, player.participation.id))
  return { game, challenge, player, row, socket }
}

describe.skipIf(!available)('containers on Docker', () => {
  beforeAll(async () => {
    ds = await startDockerServer({ CONTAINER_REAPER_INTERVAL_MS: '700' })
    admin = await ds.server.admin()
    monitor = await createUser(ds.server, { role: 'Monitor' })
    banned = await createUser(ds.server, { role: 'Banned' })
  })
  afterAll(async () => {
    await ds?.close()
  })
  afterEach(() => closeAllSockets())

  describe('POST /api/game/{id}/container/{challengeId}', () => {
    it('starts the team container: published on 127.0.0.1, limits and labels, event and pushes', async () => {
      const { game, challenge, player } = await setup(ds, { challenge: { memoryLimit: 96, cpuCount: 5 } })
      const userSocket = await connect(ds.server, '/hub/user', { game: game.id, client: player.client })
      await joined(ds.server, '/hub/user', userSocket, rooms.team(game.id, player.participation.id))
      const monitorSocket = await connect(ds.server, '/hub/monitor', { game: game.id, client: monitor.client })
      await joined(ds.server, '/hub/monitor', monitorSocket, rooms.game(game.id))
      const pushed = nextEvent<Record<string, unknown>>(userSocket, 'ReceivedContainerUpdate', 10_000)
      const event = nextEvent<Record<string, unknown>>(monitorSocket, 'ReceivedGameEvent', 10_000)

      const res = await player.client.post(containerPath(game.id, challenge.id))
      expect(res.status).toBe(200)
      const info = ContainerInfoModel.parse(res.body)
      expect(info.status).toBe('Running')
      expect(new Date(info.expectStopAt).getTime() - new Date(info.startedAt).getTime()).toBe(2 * HOUR)
      const { port } = parseEntry(info.entry)
      expect(await banner(port)).toBe('flag: \n') // static challenge: no GZCTF_FLAG

      const instance = await instanceOf(player.participation.id, challenge.id)
      const row = instance.container as Container
      expect(row).toMatchObject({ status: 'Running', image: ds.image, port: 8080, publicIp: '127.0.0.1', publicPort: port, isProxy: false, testChallengeId: null, flag: null })
      expect(instance.lastContainerOperation).not.toBeNull()

      const inspect = await ds.docker.getContainer(row.containerId).inspect()
      expect(inspect.Config.Env ?? []).not.toContainEqual(expect.stringMatching(/^GZCTF_FLAG=/))
      expect(inspect.Config.Labels).toMatchObject({
        [LABEL_MANAGED]: 'true',
        [LABEL_SCOPE]: ds.server.services.containers.scope,
        [LABEL_CONTAINER]: row.id,
        'flagwave.kind': 'instance',
        'flagwave.game': String(game.id),
        'flagwave.challenge': String(challenge.id),
        'flagwave.team': String(player.team.id),
        'flagwave.participation': String(player.participation.id),
      })
      expect(inspect.HostConfig.Memory).toBe(96 * 1024 * 1024)
      expect(inspect.HostConfig.NanoCpus).toBe(500_000_000)
      expect(inspect.HostConfig.PidsLimit).toBe(1024)
      expect(inspect.HostConfig.PortBindings?.['8080/tcp']).toEqual([{ HostIp: '127.0.0.1', HostPort: '' }])
      expect(inspect.NetworkSettings.Ports['8080/tcp']?.[0]).toMatchObject({ HostIp: '127.0.0.1', HostPort: String(port) })

      expect(await pushed).toEqual({ challengeId: challenge.id, status: 'Running', entry: info.entry, expectStopAt: info.expectStopAt, reason: 'started' })
      const wireEvent = await event
      expect(wireEvent).toMatchObject({ type: 'ContainerStart', content: `${challenge.title}#${challenge.id} 启动容器实例`, user: player.user.userName, team: player.team.name })
      const events = await em().find(GameEvent, { game: game.id, type: 'ContainerStart' })
      expect(events.map((e) => e.content)).toEqual([`${challenge.title}#${challenge.id} 启动容器实例`])
    })

    it('refuses a second start: 429 within 10 s (no Retry-After), then 400 题目已经创建容器', async () => {
      const { game, challenge, player } = await setup(ds)
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      const before = await engineIds()
      const fast = await player.client.post(containerPath(game.id, challenge.id))
      expectError(fast, 429, '容器操作过于频繁')
      expect(fast.headers.get('retry-after')).toBeNull()
      await coolDown(player.participation.id, challenge.id)
      expectError(await player.client.post(containerPath(game.id, challenge.id)), 400, '题目已经创建容器')
      expect(await engineIds()).toEqual(before)
    })

    it('answers the contract errors in order and creates nothing', async () => {
      const { game, challenge, player } = await setup(ds)
      const before = await engineIds()
      const rows = await em().count(Container, {})
      // gate
      expectError(await ds.server.client().post(containerPath(game.id, challenge.id)), 401, '请先登录')
      expectError(await banned.client.post(containerPath(game.id, challenge.id)), 403, '无权访问')
      expectError(await player.client.post(containerPath(999_999_999, challenge.id)), 404, '比赛未找到')
      const outsider = await createUser(ds.server)
      expectError(await outsider.client.post(containerPath(game.id, challenge.id)), 400, '您尚未参赛')
      const ended = await createGame(ds.server, { practiceMode: false, start: new Date(Date.now() - 2 * HOUR), end: new Date(Date.now() - HOUR) })
      const late = await createPlayer(ds.server, ended)
      expectError(await late.client.post(containerPath(ended.id, challenge.id)), 400, '比赛已结束')
      // instance
      expectError(await player.client.post(containerPath(game.id, 999_999_999)), 404, '题目未找到')
      const disabled = await addChallenge(ds, game, [player], { isEnabled: false })
      expectError(await player.client.post(containerPath(game.id, disabled.id)), 404, '题目未找到')
      const attachment = await addChallenge(ds, game, [player], { type: 'StaticAttachment' })
      expectError(await player.client.post(containerPath(game.id, attachment.id)), 400, '题目不可创建容器')
      const noImage = await addChallenge(ds, game, [player], { containerImage: '' })
      expectRefusal(await player.client.post(containerPath(game.id, noImage.id)), '题目创建容器失败', 'misconfigured')
      const missing = await addChallenge(ds, game, [player], { containerImage: 'flagwave-no-such-image:never' })
      const t0 = Date.now()
      expectRefusal(await player.client.post(containerPath(game.id, missing.id)), '题目创建容器失败', 'imageMissing')
      expect(Date.now() - t0).toBeLessThan(15_000)

      expect(await engineIds()).toEqual(before)
      expect(await em().count(Container, {})).toBe(rows)
      const instance = await instanceOf(player.participation.id, missing.id)
      expect(instance.container).toBeNull()
      expect(instance.lastContainerOperation).toBeNull()
    })
  })

  describe('POST .../prolong', () => {
    it('is refused outside the last 10 minutes and adds 2 hours inside them', async () => {
      const { game, challenge, player } = await setup(ds)
      const path = `${containerPath(game.id, challenge.id)}/prolong`
      expectError(await player.client.post(path), 400, '题目未创建容器')
      const started = ContainerInfoModel.parse((await player.client.post(containerPath(game.id, challenge.id))).body)
      expectError(await player.client.post(path), 400, '容器时间尚不可延长')

      const row = (await instanceOf(player.participation.id, challenge.id)).container as Container
      const soon = new Date(Date.now() + 5 * 60_000)
      await em().nativeUpdate(Container, { id: row.id }, { expectStopAt: soon })
      const socket = await connect(ds.server, '/hub/user', { game: game.id, client: player.client })
      await joined(ds.server, '/hub/user', socket, rooms.team(game.id, player.participation.id))
      // (the reaper may push `expiring` first: the window is open)
      const pushed = updateWith(socket, 'prolonged')
      const res = await player.client.post(path) // no 10 s throttle on prolong
      expect(res.status).toBe(200)
      const info = ContainerInfoModel.parse(res.body)
      expect(new Date(info.expectStopAt).getTime()).toBe(soon.getTime() + 2 * HOUR)
      expect(info.startedAt).toBe(started.startedAt)
      expect(info.entry).toBe(started.entry)
      expect(await pushed).toMatchObject({ challengeId: challenge.id, reason: 'prolonged', expectStopAt: info.expectStopAt })
      expect((await em().findOneOrFail(Container, { id: row.id })).expectStopAt.getTime()).toBe(soon.getTime() + 2 * HOUR)
      expectError(await player.client.post(path), 400, '容器时间尚不可延长')
    })
  })

  describe('DELETE /api/game/{id}/container/{challengeId}', () => {
    it('destroys the container: cooldown first, then engine and row gone, event and push', async () => {
      const { game, challenge, player } = await setup(ds)
      expectError(await player.client.delete(containerPath(game.id, challenge.id)), 400, '题目未创建容器')
      const info = ContainerInfoModel.parse((await player.client.post(containerPath(game.id, challenge.id))).body)
      const row = (await instanceOf(player.participation.id, challenge.id)).container as Container
      expectError(await player.client.delete(containerPath(game.id, challenge.id)), 429, '容器操作过于频繁')
      await coolDown(player.participation.id, challenge.id)

      const socket = await connect(ds.server, '/hub/user', { game: game.id, client: player.client })
      await joined(ds.server, '/hub/user', socket, rooms.team(game.id, player.participation.id))
      const monitorSocket = await connect(ds.server, '/hub/monitor', { game: game.id, client: monitor.client })
      await joined(ds.server, '/hub/monitor', monitorSocket, rooms.game(game.id))
      const pushed = nextEvent<Record<string, unknown>>(socket, 'ReceivedContainerUpdate')
      const event = nextEvent<Record<string, unknown>>(monitorSocket, 'ReceivedGameEvent')
      const res = await player.client.delete(containerPath(game.id, challenge.id))
      expect(res.status).toBe(200)
      expect(res.text).toBe('')

      expect(await engineIds()).not.toContain(row.containerId)
      expect(await em().findOne(Container, { id: row.id })).toBeNull()
      expect((await instanceOf(player.participation.id, challenge.id)).container).toBeNull()
      expect(await pushed).toEqual({ challengeId: challenge.id, status: 'Destroyed', entry: null, expectStopAt: null, reason: 'destroyed' })
      expect(await event).toMatchObject({ type: 'ContainerDestroy', content: `${challenge.title}#${challenge.id} 销毁容器实例`, team: player.team.name })
      // the destroy itself restarts the cooldown
      expectError(await player.client.post(containerPath(game.id, challenge.id)), 429, '容器操作过于频繁')
      expectError(await player.client.delete(containerPath(game.id, challenge.id)), 400, '题目未创建容器')
      await expect(talk(parseEntry(info.entry).port)).rejects.toThrow()
    })
  })

  describe('team container limit', () => {
    it('refuses beyond containerCountLimit, or destroys the oldest with autoDestroyOnLimitReached', async () => {
      const { game, challenge, player } = await setup(ds, { game: { containerCountLimit: 1 } })
      const second = await addChallenge(ds, game, [player])
      const first = ContainerInfoModel.parse((await player.client.post(containerPath(game.id, challenge.id))).body)
      const firstRow = (await instanceOf(player.participation.id, challenge.id)).container as Container
      const before = await engineIds()
      expectRefusal(await player.client.post(containerPath(game.id, second.id)), '队伍容器数目不能超过 1', 'limitReached')
      expect(await engineIds()).toEqual(before)

      await ds.server.services.settings.update(em(), { gamePolicy: { autoDestroyOnLimitReached: true } })
      try {
        const socket = await connect(ds.server, '/hub/user', { game: game.id, client: player.client })
        await joined(ds.server, '/hub/user', socket, rooms.team(game.id, player.participation.id))
        const updates: Record<string, unknown>[] = []
        socket.on('ReceivedContainerUpdate', (u) => updates.push(u))
        const res = await player.client.post(containerPath(game.id, second.id))
        expect(res.status).toBe(200)
        expect(await engineIds()).not.toContain(firstRow.containerId)
        expect((await instanceOf(player.participation.id, challenge.id)).container).toBeNull()
        expect((await instanceOf(player.participation.id, second.id)).container).not.toBeNull()
        await expect(talk(parseEntry(first.entry).port)).rejects.toThrow()
        await waitFor('two pushes', async () => updates.length >= 2)
        expect(updates.map((u) => [u.challengeId, u.reason])).toEqual([
          [challenge.id, 'destroyed'],
          [second.id, 'started'],
        ])
        // automatic removal: no ContainerDestroy event
        expect(await em().count(GameEvent, { game: game.id, type: 'ContainerDestroy' })).toBe(0)
      } finally {
        await ds.server.services.settings.update(em(), { gamePolicy: { autoDestroyOnLimitReached: false } })
      }
    })

    it('concurrent starts with autoDestroyOnLimitReached never leave the team above its limit', async () => {
      const { game, challenge, player } = await setup(ds, { game: { containerCountLimit: 1 } })
      const others = [await addChallenge(ds, game, [player]), await addChallenge(ds, game, [player])]
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      await ds.server.services.settings.update(em(), { gamePolicy: { autoDestroyOnLimitReached: true } })
      try {
        // Both see the one running container, both destroy it, both start their own: one of them must lose.
        const results = await Promise.all(others.map((c) => player.client.post(containerPath(game.id, c.id))))
        expect(results.map((r) => r.status).sort()).toEqual([200, 400])
        const refused = results.find((r) => r.status === 400)!
        expect(refused.body).toEqual({ title: '队伍容器数目不能超过 1', status: 400, reason: 'limitReached' })
        const instances = await em().find(GameInstance, { participation: player.participation.id, container: { $ne: null } }, { populate: ['container'] })
        const live = instances.map((i) => i.container as Container).filter((c) => c.status !== 'Destroyed')
        expect(live).toHaveLength(1)
        // The loser's engine container was removed again: the engine runs exactly the live rows of this team.
        const mine = (await engineIds()).filter((id) => live.some((c) => c.containerId === id))
        expect(mine).toHaveLength(1)
      } finally {
        await ds.server.services.settings.update(em(), { gamePolicy: { autoDestroyOnLimitReached: false } })
      }
    })

    it('counts only this team and this game', async () => {
      const { game, challenge, player } = await setup(ds, { game: { containerCountLimit: 1 } })
      const other = await createPlayer(ds.server, game)
      await addChallenge(ds, game, [other])
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      expect((await other.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
    })
  })

  describe('dynamic flags', () => {
    it('hands the instance flag to the container as GZCTF_FLAG, and it solves the challenge', async () => {
      const { game, challenge, player } = await setup(ds, { type: 'DynamicContainer', challenge: { flagTemplate: 'flag{[GUID]}' } })
      const res = await player.client.post(containerPath(game.id, challenge.id))
      expect(res.status).toBe(200)
      const { port } = parseEntry(ContainerInfoModel.parse(res.body).entry)
      const line = await banner(port)
      const flag = line.replace(/^flag: /, '').trim()
      expect(flag).toMatch(/^flag\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/)
      const instance = await instanceOf(player.participation.id, challenge.id)
      expect(instance.isLoaded).toBe(true)
      expect(instance.dynamicFlag).toBe(flag)
      expect((instance.container as Container).flag).toBe(flag)
      // echo round trip through the published port
      expect(await banner(port, ['ping\n'], /echo: ping\n/)).toContain('echo: ping\n')

      const id = await submit(player.client, game.id, challenge.id, flag)
      expect(await settled(player.client, game.id, challenge.id, id)).toBe('Accepted')
    })
  })

  describe('editors: /api/edit/games/{id}/challenges/{cId}/container', () => {
    const path = (gameId: number, cId: number) => `/api/edit/games/${gameId}/challenges/${cId}/container`

    it('starts a test container with the test flag, replaces it on a second start, destroys it', async () => {
      const { game, challenge } = await setup(ds, { type: 'DynamicContainer' })
      const res = await admin.post(path(game.id, challenge.id))
      expect(res.status).toBe(200)
      const info = ContainerInfoModel.parse(res.body)
      expect(info.status).toBe('Running')
      expect(await banner(parseEntry(info.entry).port)).toBe(`flag: ${TEST_FLAG}\n`)
      const first = await em().findOneOrFail(Container, { testChallengeId: challenge.id })
      expect(first).toMatchObject({ flag: TEST_FLAG, isProxy: false })
      const inspect = await ds.docker.getContainer(first.containerId).inspect()
      expect(inspect.Config.Labels['flagwave.kind']).toBe('test')

      // the admin instance list leaves test containers out
      const list = await admin.get('/api/admin/instances')
      expect((list.body as { data: { containerGuid: string }[] }).data.map((d) => d.containerGuid)).not.toContain(first.id)

      const again = ContainerInfoModel.parse((await admin.post(path(game.id, challenge.id))).body)
      expect(again.entry).not.toBe(info.entry)
      expect(await engineIds()).not.toContain(first.containerId)
      const rows = await em().find(Container, { testChallengeId: challenge.id })
      expect(rows).toHaveLength(1)

      const del = await admin.delete(path(game.id, challenge.id))
      expect(del.status).toBe(200)
      expect(del.text).toBe('')
      expect(await engineIds()).not.toContain(rows[0]!.containerId)
      expect(await em().count(Container, { testChallengeId: challenge.id })).toBe(0)
      expect((await admin.delete(path(game.id, challenge.id))).status).toBe(200) // none is not an error
    })

    it('gives static challenges no flag; [LEET] templates are transformed', async () => {
      const { game, challenge } = await setup(ds)
      const info = ContainerInfoModel.parse((await admin.post(path(game.id, challenge.id))).body)
      expect(await banner(parseEntry(info.entry).port)).toBe('flag: \n')
      const leet = await addChallenge(ds, game, [], { type: 'DynamicContainer', flagTemplate: '[LEET]flag{abc}', flags: [] })
      const leetInfo = ContainerInfoModel.parse((await admin.post(path(game.id, leet.id))).body)
      expect(await banner(parseEntry(leetInfo.entry).port)).toMatch(/^flag: flag\{[Aa4][Bb68][Cc]\}\n$/)
    })

    it('answers lookups, type, configuration and creation errors; 401/403', async () => {
      const { game, challenge } = await setup(ds)
      const user = await createUser(ds.server)
      expectError(await ds.server.client().post(path(game.id, challenge.id)), 401, '请先登录')
      expectError(await user.client.post(path(game.id, challenge.id)), 403, '无权访问')
      expectError(await monitor.client.delete(path(game.id, challenge.id)), 403, '无权访问')
      expectError(await admin.post(path(999_999_999, challenge.id)), 404, '比赛未找到')
      expectError(await admin.post(path(game.id, 999_999_999)), 404, '题目未找到')
      expectError(await admin.delete(path(999_999_999, challenge.id)), 404, '比赛未找到')
      expectError(await admin.delete(path(game.id, 999_999_999)), 404, '题目未找到')
      const attachment = await addChallenge(ds, game, [], { type: 'DynamicAttachment' })
      expectError(await admin.post(path(game.id, attachment.id)), 400, '题目类型不可创建容器')
      const noImage = await addChallenge(ds, game, [], { containerImage: '  ' })
      expectRefusal(await admin.post(path(game.id, noImage.id)), '容器配置错误', 'misconfigured')
      const missing = await addChallenge(ds, game, [], { containerImage: 'flagwave-no-such-image:never' })
      expectRefusal(await admin.post(path(game.id, missing.id)), '容器创建失败', 'imageMissing')
      expect(await em().count(Container, { testChallengeId: { $in: [attachment.id, noImage.id, missing.id] } })).toBe(0)
    })
  })

  describe('admin: /api/admin/instances', () => {
    it('lists team containers by start and destroys one without a game event', async () => {
      const { game, challenge, player } = await setup(ds)
      const other = await createPlayer(ds.server, game)
      await addChallenge(ds, game, [other])
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      expect((await other.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      const mine = (await instanceOf(player.participation.id, challenge.id)).container as Container
      const theirs = (await instanceOf(other.participation.id, challenge.id)).container as Container

      const res = await admin.get('/api/admin/instances')
      expect(res.status).toBe(200)
      const body = z.object({ data: z.array(ContainerInstanceModel), length: z.number(), total: z.number() }).parse(res.body)
      expect(body.length).toBe(body.data.length)
      expect(body.total).toBe(body.data.length)
      const starts = body.data.map((d) => new Date(d.startedAt).getTime())
      expect(starts).toEqual([...starts].sort((a, b) => a - b))
      const entry = body.data.find((d) => d.containerGuid === mine.id)
      expect(entry).toEqual({
        team: { id: player.team.id, name: player.team.name, avatar: null },
        challenge: { id: challenge.id, title: challenge.title, tag: challenge.tag, category: challenge.tag },
        image: ds.image,
        containerGuid: mine.id,
        containerId: mine.containerId,
        startedAt: expect.any(String),
        expectStopAt: expect.any(String),
        ip: '127.0.0.1',
        port: mine.publicPort,
      })
      expect(body.data.findIndex((d) => d.containerGuid === mine.id)).toBeLessThan(body.data.findIndex((d) => d.containerGuid === theirs.id))

      expectError(await ds.server.client().get('/api/admin/instances'), 401, '请先登录')
      expectError(await monitor.client.get('/api/admin/instances'), 403, '无权访问')
      expectError(await monitor.client.delete(`/api/admin/instances/${mine.id}`), 403, '无权访问')
      expectError(await admin.delete('/api/admin/instances/00000000-0000-0000-0000-000000000000'), 404, '容器实例未找到')
      expect((await admin.delete('/api/admin/instances/not-a-guid')).status).toBe(404)

      const socket = await connect(ds.server, '/hub/monitor', { game: game.id, client: monitor.client })
      await joined(ds.server, '/hub/monitor', socket, rooms.game(game.id))
      const quiet = noEvent(socket, 'ReceivedGameEvent', 500)
      const del = await admin.delete(`/api/admin/instances/${mine.id.toUpperCase()}`)
      expect(del.status).toBe(200)
      expect(del.text).toBe('')
      await quiet
      expect(await engineIds()).not.toContain(mine.containerId)
      expect(await em().findOne(Container, { id: mine.id })).toBeNull()
      expect((await instanceOf(player.participation.id, challenge.id)).container).toBeNull()
      expect(await em().count(GameEvent, { game: game.id, type: 'ContainerDestroy' })).toBe(0)
      const after = (await admin.get('/api/admin/instances')).body as { data: { containerGuid: string }[] }
      expect(after.data.map((d) => d.containerGuid)).not.toContain(mine.id)
      expect(after.data.map((d) => d.containerGuid)).toContain(theirs.id)
    })
  })

  describe('reaper and reconciliation', () => {
    it('marks a container killed behind the platform\'s back Destroyed and detaches it', async () => {
      const { game, challenge, player, row, socket } = await startWatched()
      const pushed = updateWith(socket, 'destroyed')
      await ds.docker.getContainer(row.containerId).kill()

      const marked = await waitFor('the reaper to notice', async () => {
        const c = await em().findOne(Container, { id: row.id })
        return c?.status === 'Destroyed' ? c : null
      })
      expect(marked.status).toBe('Destroyed')
      expect((await instanceOf(player.participation.id, challenge.id)).container).toBeNull()
      expect(await pushed).toMatchObject({ challengeId: challenge.id, reason: 'destroyed', status: 'Destroyed' })
      await waitFor('the exited leftover to be removed', async () => !(await engineIds()).includes(row.containerId))
      // the team can start again
      await coolDown(player.participation.id, challenge.id)
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
    })

    it('removes managed containers of this deployment that the database does not know', async () => {
      const scope = ds.server.services.containers.scope
      const stray = await ds.docker.createContainer({
        Image: ds.image,
        Labels: { [LABEL_MANAGED]: 'true', [LABEL_SCOPE]: scope, [LABEL_CONTAINER]: '11111111-2222-3333-4444-555555555555' },
      })
      await stray.start()
      const foreign = await ds.docker.createContainer({ Image: ds.image, Labels: { [LABEL_MANAGED]: 'true', [LABEL_SCOPE]: 'another-deployment' } })
      try {
        const result = await reconcileContainers(ds.server.services, { graceMs: 0 })
        expect(result.removed).toContain(stray.id)
        expect(result.removed).not.toContain(foreign.id)
        await expect(stray.inspect()).rejects.toMatchObject({ statusCode: 404 })
        expect((await foreign.inspect()).Id).toBe(foreign.id)
      } finally {
        await foreign.remove({ force: true }).catch(() => undefined)
        await stray.remove({ force: true }).catch(() => undefined)
      }
    })

    it('destroys expired containers and pushes expiring before that', async () => {
      const { game, challenge, row, socket } = await startWatched()

      const expiring = updateWith(socket, 'expiring')
      await em().nativeUpdate(Container, { id: row.id }, { expectStopAt: new Date(Date.now() + 5 * 60_000) })
      expect(await expiring).toMatchObject({ challengeId: challenge.id, reason: 'expiring', status: 'Running' })
      await noEvent(socket, 'ReceivedContainerUpdate', 1600) // once per deadline

      const destroyed = updateWith(socket, 'destroyed')
      await em().nativeUpdate(Container, { id: row.id }, { expectStopAt: new Date(Date.now() - 1000) })
      expect(await destroyed).toMatchObject({ challengeId: challenge.id, reason: 'destroyed' })
      expect(await em().findOne(Container, { id: row.id })).toBeNull()
      expect(await engineIds()).not.toContain(row.containerId)
      expect(await em().count(GameEvent, { game: game.id, type: 'ContainerDestroy' })).toBe(0)
    })

    it('destroyInstanceContainer() removes a team container for other parts of the platform', async () => {
      const { game, challenge, player } = await setup(ds)
      expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
      const instance = await instanceOf(player.participation.id, challenge.id)
      const row = instance.container as Container
      expect(await destroyInstanceContainer(ds.server.services, { participationId: player.participation.id, challengeId: challenge.id })).toBe(true)
      expect(await engineIds()).not.toContain(row.containerId)
      expect(await destroyInstanceContainer(ds.server.services, instance.id)).toBe(false)
    })

    it('removes test containers of a deleted challenge', async () => {
      const { game, challenge } = await setup(ds)
      expect((await admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/container`)).status).toBe(200)
      const row = await em().findOneOrFail(Container, { testChallengeId: challenge.id })
      await em().nativeDelete(Challenge, { id: challenge.id })
      await waitFor('the orphan to be reaped', async () => !(await em().findOne(Container, { id: row.id })))
      expect(await engineIds()).not.toContain(row.containerId)
    })
  })

  describe('the team’s challenge detail, a hot read (docs/performance.md#hot-reads)', () => {
    /** The detail once the fast path answers it (no X-Request-Id), which a container change must drop. */
    async function keptContext(client: ApiClient, path: string): Promise<Record<string, unknown>> {
      for (let i = 0; i < 4; i++) {
        const res = await client.get(path)
        expect(res.status).toBe(200)
        if (res.headers.get('x-request-id') === null) return res.body.context as Record<string, unknown>
      }
      throw new Error(`${path} never came from the fast path`)
    }
    const contextNow = async (client: ApiClient, path: string) => (await client.get(path)).body.context as Record<string, unknown>

    it('follows its container: start, prolong, stop, expiry, a container killed behind the platform’s back, another part’s destroy', async () => {
      const { game, challenge, player } = await setup(ds)
      await ds.server.services.scoreboard.rebuild(game.id)
      const path = `/api/game/${game.id}/challenges/${challenge.id}`
      const start = async () => {
        await coolDown(player.participation.id, challenge.id)
        const info = ContainerInfoModel.parse((await player.client.post(containerPath(game.id, challenge.id))).body)
        expect(await contextNow(player.client, path)).toMatchObject({ instanceEntry: info.entry, closeTime: info.expectStopAt })
        expect(await keptContext(player.client, path)).toMatchObject({ instanceEntry: info.entry })
        return (await instanceOf(player.participation.id, challenge.id)).container as Container
      }
      expect(await keptContext(player.client, path)).toMatchObject({ instanceEntry: null, closeTime: null })

      const row = await start()
      await em().nativeUpdate(Container, { id: row.id }, { expectStopAt: new Date(Date.now() + 5 * 60_000) })
      const prolonged = ContainerInfoModel.parse((await player.client.post(`${containerPath(game.id, challenge.id)}/prolong`)).body)
      expect(await contextNow(player.client, path)).toMatchObject({ closeTime: prolonged.expectStopAt })
      await keptContext(player.client, path)
      await coolDown(player.participation.id, challenge.id)
      expect((await player.client.delete(containerPath(game.id, challenge.id))).status).toBe(200)
      expect(await contextNow(player.client, path)).toMatchObject({ instanceEntry: null, closeTime: null })

      const killed = await start()
      await ds.docker.getContainer(killed.containerId).kill()
      await waitFor('the reconciliation to show it gone', async () => (await contextNow(player.client, path)).instanceEntry === null)

      const expired = await start()
      await em().nativeUpdate(Container, { id: expired.id }, { expectStopAt: new Date(Date.now() - 1000) })
      await waitFor('the reaper to show it gone', async () => (await contextNow(player.client, path)).instanceEntry === null)

      await start()
      expect(await destroyInstanceContainer(ds.server.services, { participationId: player.participation.id, challengeId: challenge.id })).toBe(true)
      expect(await contextNow(player.client, path)).toMatchObject({ instanceEntry: null, closeTime: null })
    })
  })

  it('runs on CONTAINER_NETWORK (created when missing); skips storage limits the driver cannot enforce', async () => {
    const network = `flagwave-test-${randomBytes(4).toString('hex')}`
    const config = loadConfig({ CONTAINER_PROVIDER: 'docker', DOCKER_HOST, CONTAINER_NETWORK: network })
    const provider = new DockerProvider(config, pino({ level: 'silent' }), ds.server.services.containers.scope)
    try {
      const created = await provider.create({
        id: randomUUID(),
        image: ds.image,
        port: 8080,
        memoryLimit: 64,
        cpuCount: 1,
        storageLimit: 256,
        flag: 'flag{net}',
        kind: 'test',
        gameId: 1,
        challengeId: 1,
      })
      const inspect = await ds.docker.getContainer(created.containerId).inspect()
      expect(inspect.HostConfig.NetworkMode).toBe(network)
      expect(Object.keys(inspect.NetworkSettings.Networks)).toEqual([network])
      expect(created.publicIp).toBe('127.0.0.1')
      expect(await banner(created.publicPort!)).toBe('flag: flag{net}\n')
      const info = (await ds.docker.info()) as { Driver: string; DriverStatus?: [string, string][] }
      const backing = info.DriverStatus?.find(([k]) => k === 'Backing Filesystem')?.[1]
      if (info.Driver === 'overlay2' && backing !== 'xfs') expect(inspect.HostConfig.StorageOpt ?? {}).toEqual({})
      await provider.destroy(created.containerId)
      await provider.destroy(created.containerId) // idempotent
      expect(await provider.alive(created.containerId)).toBe(false)
    } finally {
      await ds.docker.getNetwork(network).remove().catch(() => undefined)
    }
  })

  it('answers 400 TCP 代理已禁用 on the proxy outside proxy mode', async () => {
    const { game, challenge, player } = await setup(ds)
    expect((await player.client.post(containerPath(game.id, challenge.id))).status).toBe(200)
    const row = (await instanceOf(player.participation.id, challenge.id)).container as Container
    expectError(await ds.server.client().get(`/api/proxy/${row.id}`), 400, 'TCP 代理已禁用')
    expectError(await ds.server.client().get(`/api/proxy/noinst/${row.id}`), 400, 'TCP 代理已禁用')
  })

  it('serves containers after the end of a game in practice mode', async () => {
    const { challenge, player } = await setup(ds, { game: { practiceMode: true, start: new Date(Date.now() - 2 * HOUR), end: new Date(Date.now() - HOUR) } })
    const gameId = challenge.game.id
    expect((await em().findOneOrFail(Game, { id: gameId })).practiceMode).toBe(true)
    expect((await player.client.post(containerPath(gameId, challenge.id))).status).toBe(200)
  })
})
