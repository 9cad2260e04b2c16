/**
 * Shared by the container tests: a test server on the real Docker engine, a game with a
 * container challenge built on the busybox test image, small TCP helpers (always 127.0.0.1:
 * container IPs are never dialled), and clean-up of everything a server's scope created.
 */
import type { ContainerFailureReason } from '@flagwave/shared/enums'
import net from 'node:net'
import { expect } from 'vitest'
import type Docker from 'dockerode'
import type { ChallengeType } from '@flagwave/shared/enums'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame, type ChallengeOverrides, type GameOverrides } from '../support/factories/games.js'
import { createPlayer, isolateIds, type Player } from '../support/factories/play.js'
import { TEST_IMAGE_PORT, ensureTestImage, removeLabelled, testDocker } from '../support/docker.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'
import type { Game } from '../../server/src/entities/Game.js'
import type { Challenge } from '../../server/src/entities/Challenge.js'
import { LABEL_SCOPE } from '../../server/src/containers/provider.js'

export const DOCKER_HOST = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock'

export interface DockerServer {
  server: TestServer
  docker: Docker
  image: string
  close(): Promise<void>
}

export async function startDockerServer(env: Record<string, string> = {}): Promise<DockerServer> {
  const docker = testDocker()
  const image = await ensureTestImage(docker)
  const server = await startTestServer({ env: { CONTAINER_PROVIDER: 'docker', DOCKER_HOST, CONTAINER_ENGINE_TIMEOUT_MS: '20000', ...env } })
  await isolateIds(server)
  return {
    server,
    docker,
    image,
    async close() {
      const scope = server.services.containers.scope
      await server.close()
      await removeLabelled(docker, LABEL_SCOPE, scope)
    },
  }
}

export interface Setup {
  game: Game
  challenge: Challenge
  player: Player
}

/** A running game, a container challenge on the test image and an accepted player with instances. */
export async function setup(
  ds: DockerServer,
  options: { type?: ChallengeType; game?: GameOverrides; challenge?: ChallengeOverrides } = {},
): Promise<Setup> {
  const game = await createGame(ds.server, options.game ?? {})
  const type = options.type ?? 'StaticContainer'
  const challenge = await createChallenge(ds.server, game, {
    type,
    containerImage: ds.image,
    containerExposePort: TEST_IMAGE_PORT,
    flags: type === 'DynamicContainer' ? [] : ['flag{static}'],
    ...options.challenge,
  })
  const player = await createPlayer(ds.server, game)
  await ensureInstances(ds.server.services.orm.em.fork(), player.participation.id, game.id)
  return { game, challenge, player }
}

/** Another container challenge in the same game (instances created for `players`). */
export async function addChallenge(ds: DockerServer, game: Game, players: Player[], overrides: ChallengeOverrides = {}): Promise<Challenge> {
  const challenge = await createChallenge(ds.server, game, {
    type: 'StaticContainer',
    containerImage: ds.image,
    containerExposePort: TEST_IMAGE_PORT,
    flags: ['flag{static}'],
    ...overrides,
  })
  for (const p of players) await ensureInstances(ds.server.services.orm.em.fork(), p.participation.id, game.id)
  return challenge
}

/** Connect to 127.0.0.1:port and resolve with everything received until `until` matches (or close). */
export function talk(port: number, send: string[] = [], until: RegExp = /\n/, timeoutMs = 5000, host = '127.0.0.1'): Promise<string> {
  if (!/^127\.|^::1$|^localhost$/.test(host)) throw new Error(`tests only dial loopback, not ${host}`)
  return new Promise((resolve, reject) => {
    let data = ''
    const socket = net.connect({ host, port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer matching ${until} from ${host}:${port} within ${timeoutMs} ms (got ${JSON.stringify(data)})`))
    }, timeoutMs)
    socket.on('connect', () => {
      for (const line of send) socket.write(line)
    })
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8')
      if (until.test(data)) {
        clearTimeout(timer)
        socket.destroy()
        resolve(data)
      }
    })
    socket.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(data)
    })
  })
}

/** `host:port` of an entry, asserting it is on loopback. */
export function parseEntry(entry: string): { host: string; port: number } {
  const i = entry.lastIndexOf(':')
  const host = entry.slice(0, i)
  const port = Number(entry.slice(i + 1))
  expect(host).toBe('127.0.0.1')
  expect(port).toBeGreaterThan(0)
  return { host, port }
}

/** Retry a service that is starting (the container accepts TCP a moment after `start`). */
export async function banner(port: number, send: string[] = [], until: RegExp = /\n/): Promise<string> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      const text = await talk(port, send, until, 3000)
      if (text) return text
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
    if (Date.now() > deadline) throw new Error(`no banner from 127.0.0.1:${port}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export const expectError = (res: { status: number; body: unknown }, status: number, title: string, bodyStatus = status) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { title, status: bodyStatus } })

/** A container refusal: the contract's title and Flagwave's `reason` member (docs/compatibility.md#container-failure-reasons). */
export const expectRefusal = (res: { status: number; body: unknown }, title: string, reason: ContainerFailureReason) =>
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { title, status: 400, reason } })

export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export const containerPath = (gameId: number, challengeId: number) => `/api/game/${gameId}/container/${challengeId}`
