/**
 * Playing a game in tests, written straight to the database: settled submissions, events, cheat
 * reports, dynamic-attachment flags and instance containers (monitor and play-endpoint tests);
 * instances, a ready-made player (user + team + accepted participation), flag submission with
 * status polling and a second node on the same database (submission and scoreboard tests).
 *
 * Rows written here bypass the checkers and the scoreboard engine: a test that changes what the
 * board shows this way asks for a rebuild (`createSubmission` does it for Accepted rows).
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import pino from 'pino'
import type { AnswerResult, EventType, ParticipationStatus } from '@flagwave/shared/enums'
import type { Division } from '../../../server/src/entities/Division.js'
import { Submission } from '../../../server/src/entities/Submission.js'
import { GameEvent } from '../../../server/src/entities/GameEvent.js'
import { CheatInfo } from '../../../server/src/entities/CheatInfo.js'
import { Flag } from '../../../server/src/entities/Flag.js'
import { Attachment } from '../../../server/src/entities/Attachment.js'
import { Container } from '../../../server/src/entities/Container.js'
import { GameInstance } from '../../../server/src/entities/GameInstance.js'
import type { Game } from '../../../server/src/entities/Game.js'
import type { Challenge } from '../../../server/src/entities/Challenge.js'
import type { Participation } from '../../../server/src/entities/Participation.js'
import type { Team } from '../../../server/src/entities/Team.js'
import type { User } from '../../../server/src/entities/User.js'
import { loadConfig } from '../../../server/src/config.js'
import { startServer, type RunningServer } from '../../../server/src/server.js'
import { nativePool } from '../../../server/src/db/pg.js'
import { ADMIN_PASSWORD, type TestServer } from '../server.js'
import { ApiClient } from '../client.js'
import { createUser, type TestUser } from './users.js'
import { createTeam } from './teams.js'
import { createParticipation, createStoredFile } from './games.js'

const idOf = (x: { id: number } | number): number => (typeof x === 'number' ? x : x.id)
const userIdOf = (u: User | string | null | undefined): string | null => (u === null || u === undefined ? null : typeof u === 'string' ? u : u.id)

/**
 * A submission with its final status (no checker involved). An Accepted one is folded into the
 * scoreboard by a rebuild of the game's engine; a `FlagSubmitted` one is a queue entry that the
 * node's checkers will settle (start the server with `CHECKER_CONCURRENCY=0` to keep it queued).
 */
export async function createSubmission(
  server: TestServer,
  game: Game | number,
  challenge: Challenge | number,
  participation: Participation | number,
  user: User | string | null,
  overrides: { answer?: string; status?: AnswerResult; submitTime?: Date } = {},
): Promise<Submission> {
  const em = server.services.orm.em.fork()
  const status = overrides.status ?? 'Accepted'
  const submitTime = overrides.submitTime ?? new Date()
  const submission = em.create(Submission, {
    game: idOf(game),
    challenge: idOf(challenge),
    participation: idOf(participation),
    user: userIdOf(user),
    answer: overrides.answer ?? 'flag{test}',
    status,
    submitTime,
    settledAt: status === 'FlagSubmitted' ? null : submitTime,
  })
  await em.flush()
  if (status === 'Accepted') await server.services.scoreboard.rebuild(idOf(game))
  return submission
}

export async function createEvent(
  server: TestServer,
  game: Game | number,
  overrides: { type?: EventType; content?: string; publishTime?: Date; user?: User | string | null; teamId?: number | null } = {},
): Promise<GameEvent> {
  const em = server.services.orm.em.fork()
  const event = em.create(GameEvent, {
    game: idOf(game),
    type: overrides.type ?? 'Normal',
    content: overrides.content ?? `event ${randomBytes(3).toString('hex')}`,
    publishTime: overrides.publishTime ?? new Date(),
    user: userIdOf(overrides.user),
    team: overrides.teamId ?? null,
  })
  await em.flush()
  return event
}

export async function createCheatInfo(
  server: TestServer,
  game: Game | number,
  submission: Submission | number,
  submitTeam: Participation | number,
  sourceTeam: Participation | number,
): Promise<CheatInfo> {
  const em = server.services.orm.em.fork()
  const cheat = em.create(CheatInfo, { game: idOf(game), submission: idOf(submission), submitTeam: idOf(submitTeam), sourceTeam: idOf(sourceTeam) })
  await em.flush()
  return cheat
}

/** Flags of a `DynamicAttachment` challenge, each with its own stored attachment (bytes = `attachment of {flag}`). */
export async function createAttachmentFlags(server: TestServer, challenge: Challenge | number, flags: string[]): Promise<Flag[]> {
  const created: Flag[] = []
  for (const flag of flags) {
    const file = await createStoredFile(server, Buffer.from(`attachment of ${flag}`), 'attachment.bin')
    const em = server.services.orm.em.fork()
    const attachment = em.create(Attachment, { type: 'Local', fileHash: file.hash, remoteUrl: null })
    created.push(em.create(Flag, { challenge: idOf(challenge), flag, attachment, isOccupied: false }))
    await em.flush()
  }
  return created
}

/** A running container attached to a team's instance of a challenge. */
export async function createInstanceContainer(
  server: TestServer,
  participation: Participation | number,
  challenge: Challenge | number,
  overrides: Partial<Pick<Container, 'ip' | 'port' | 'publicIp' | 'publicPort' | 'isProxy' | 'status'>> = {},
): Promise<Container> {
  const em = server.services.orm.em.fork()
  const now = Date.now()
  const container = em.create(Container, {
    id: randomUUID(),
    containerId: randomBytes(16).toString('hex'),
    image: 'test/image:latest',
    status: 'Running',
    startedAt: new Date(now),
    expectStopAt: new Date(now + 2 * 3600_000),
    ip: '10.0.0.2',
    port: 80,
    publicIp: null,
    publicPort: null,
    isProxy: false,
    testChallengeId: null,
    flag: null,
    ...overrides,
  })
  const instance =
    (await em.findOne(GameInstance, { participation: idOf(participation), challenge: idOf(challenge) })) ??
    em.create(GameInstance, { participation: idOf(participation), challenge: idOf(challenge), isLoaded: false })
  instance.container = container
  instance.lastContainerOperation = new Date(now)
  await em.flush()
  return container
}

/**
 * Move the id sequences of games and participations to a random offset, so that rooms
 * (`Game_{id}`, `Game_{id}_Team_{pid}`) and Redis keys of parallel test files on the shared Redis
 * never collide.
 */
export async function isolateIds(server: TestServer): Promise<void> {
  const conn = server.services.orm.em.fork().getConnection()
  for (const seq of ['games_id_seq', 'participations_id_seq', 'challenges_id_seq']) {
    await conn.execute(`select setval('${seq}', ?)`, [randomInt(1_000_000, 1_000_000_000)])
  }
}

/** A team's instance of a challenge, optionally with its dynamic-container flag or an assigned dynamic-attachment flag. */
export async function createInstance(
  server: TestServer,
  participation: Participation | number,
  challenge: Challenge | number,
  options: { dynamicFlag?: string | null; assignedFlag?: string } = {},
): Promise<GameInstance> {
  const em = server.services.orm.em.fork()
  let flag: Flag | null = null
  if (options.assignedFlag !== undefined) {
    flag = em.create(Flag, { challenge: idOf(challenge), flag: options.assignedFlag, isOccupied: true })
  }
  const instance = em.create(GameInstance, {
    participation: idOf(participation),
    challenge: idOf(challenge),
    dynamicFlag: options.dynamicFlag ?? null,
    flag,
    isLoaded: true,
  })
  await em.flush()
  return instance
}

/** Instances for every participation × challenge pair. */
export async function createInstances(server: TestServer, participations: (Participation | number)[], challenges: (Challenge | number)[]): Promise<void> {
  const pool = await nativePool(server.services.orm)
  const pairs = participations.flatMap((p) => challenges.map((c) => [idOf(p), idOf(c)]))
  if (pairs.length === 0) return
  await pool.query(
    `insert into instances (participation_id, challenge_id, is_loaded) select p, c, true from unnest($1::int[], $2::int[]) as v(p, c) on conflict do nothing`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  )
}

export interface Player extends TestUser {
  team: Team
  participation: Participation
}

/** A signed-in user captaining a team registered in `game` (accepted unless told otherwise). */
export async function createPlayer(
  server: TestServer,
  game: Game,
  options: { status?: ParticipationStatus; organization?: string | Division | null; teamName?: string } = {},
): Promise<Player> {
  const user = await createUser(server)
  const team = await createTeam(server, user.user, [], { name: options.teamName ?? `t${randomBytes(4).toString('hex')}` })
  const participation = await createParticipation(server, game, team, [user.user], options.status ?? 'Accepted', options.organization ?? null)
  return { ...user, team, participation }
}

export const submitPath = (gameId: number, challengeId: number) => `/api/game/${gameId}/challenges/${challengeId}`
export const statusPath = (gameId: number, challengeId: number, id: number) => `/api/game/${gameId}/challenges/${challengeId}/status/${id}`

/** Submit a flag and return the new submission id (fails the test on anything but 200). */
export async function submit(client: ApiClient, gameId: number, challengeId: number, flag: string): Promise<number> {
  const res = await client.post(submitPath(gameId, challengeId), { flag })
  if (res.status !== 200 || typeof res.body !== 'number') throw new Error(`submit failed: ${res.status} ${res.text}`)
  return res.body
}

/** Poll the status call (like the frontend, more often) until it is no longer FlagSubmitted. */
export async function settled(client: ApiClient, gameId: number, challengeId: number, id: number, timeoutMs = 10_000): Promise<AnswerResult> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await client.get(statusPath(gameId, challengeId, id))
    if (res.status !== 200) throw new Error(`status call failed: ${res.status} ${res.text}`)
    if (res.body !== 'FlagSubmitted') return res.body as AnswerResult
    if (Date.now() > deadline) throw new Error(`submission ${id} not settled after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Wait until no submission of the database is queued any more. */
export async function queueDrained(server: { services: TestServer['services'] }, timeoutMs = 15_000): Promise<void> {
  const conn = server.services.orm.em.fork().getConnection()
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = await conn.execute<{ n: string }[]>(`select count(*) as n from submissions where status = 'FlagSubmitted'`)
    if (Number(rows[0]!.n) === 0) return
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} submissions still queued after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Another node on an existing database (the test server's own or a second one), sharing Redis
 * when the test server uses it. `close()` leaves the database in place.
 */
export async function startNode(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningServer & { dataDir: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-node-'))
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DISABLE_RATE_LIMIT: 'true',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  })
  const running = await startServer(config, pino({ level: config.LOG_LEVEL }))
  return {
    ...running,
    dataDir,
    close: async () => {
      await running.close()
      await fs.rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A second node on the test server's own database and Redis prefix, without checkers: what it
 * takes is judged by the first node's checkers.
 */
export function startSecondNode(server: TestServer): Promise<RunningServer & { dataDir: string }> {
  return startNode(server.databaseUrl, { REDIS_PREFIX: server.services.config.REDIS_PREFIX, CHECKER_CONCURRENCY: '0' })
}

/** The same session as `client`, talking to another node. */
export function sameSessionOn(node: { url: string }, client: ApiClient): ApiClient {
  const there = new ApiClient(node.url)
  for (const [k, v] of client.cookies) there.cookies.set(k, v)
  return there
}
