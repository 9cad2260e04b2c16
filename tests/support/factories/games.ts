/**
 * Games, challenges, flags and participations for tests, written straight to the database.
 * Times default to a game that is running now (started an hour ago, ends in a day).
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { RequiredEntityData } from '@mikro-orm/core'
import type { NoticeType, ParticipationStatus } from '@flagwave/shared/enums'
import { Game } from '../../../server/src/entities/Game.js'
import { Division } from '../../../server/src/entities/Division.js'
import { GamePermission } from '@flagwave/shared/enums'
import { Challenge } from '../../../server/src/entities/Challenge.js'
import { Flag } from '../../../server/src/entities/Flag.js'
import { Team } from '../../../server/src/entities/Team.js'
import { Participation } from '../../../server/src/entities/Participation.js'
import { Registration } from '../../../server/src/entities/Registration.js'
import { User } from '../../../server/src/entities/User.js'
import { GameNotice } from '../../../server/src/entities/GameNotice.js'
import { LocalFile } from '../../../server/src/entities/LocalFile.js'
import { generateGameKeys, teamToken } from '../../../server/src/domain/games/keys.js'
import { fileTransaction, type StoredFile } from '../../../server/src/domain/files/files.js'
import type { TestServer } from '../server.js'

const HOUR = 3600_000

/** Columns of a game to set instead of the made-up ones; `organizations` become divisions with every permission. */
export type GameOverrides = Partial<Omit<RequiredEntityData<Game>, 'id'>> & { organizations?: string[] | null }

/** Columns of a challenge (relations by entity or id) and its static flags (`['flag{test}']` unless given). */
export type ChallengeOverrides = Partial<Omit<RequiredEntityData<Challenge>, 'id' | 'game'>> & { flags?: string[] }

export async function createGame(server: TestServer, gameOverrides: GameOverrides = {}): Promise<Game> {
  const { organizations, ...overrides } = gameOverrides
  const em = server.services.orm.em.fork()
  const keys = generateGameKeys(server.services.config.XOR_KEY)
  const now = Date.now()
  const game = em.create(Game, {
    title: `Game ${randomBytes(3).toString('hex')}`,
    start: new Date(now - HOUR),
    end: new Date(now + 24 * HOUR),
    wpddl: new Date(now + 27 * HOUR),
    practiceMode: true,
    ...keys,
    ...overrides,
  })
  for (const name of organizations ?? []) em.create(Division, { game, name, inviteCode: null, defaultPermissions: GamePermission.All, challengeConfigs: [] })
  await em.flush()
  return game
}

/** A division of a game (every permission unless given). */
export async function createDivision(
  server: TestServer,
  game: Game | number,
  overrides: Partial<Pick<Division, 'name' | 'inviteCode' | 'defaultPermissions' | 'challengeConfigs'>> = {},
): Promise<Division> {
  const em = server.services.orm.em.fork()
  const division = em.create(Division, {
    game: typeof game === 'number' ? game : game.id,
    name: `Division ${randomBytes(3).toString('hex')}`,
    inviteCode: null,
    defaultPermissions: GamePermission.All,
    challengeConfigs: [],
    ...overrides,
  })
  await em.flush()
  return division
}

export async function createChallenge(
  server: TestServer,
  game: Game | number,
  overrides: ChallengeOverrides = {},
): Promise<Challenge> {
  const em = server.services.orm.em.fork()
  const { flags = ['flag{test}'], ...rest } = overrides
  const challenge = em.create(Challenge, {
    game: typeof game === 'number' ? game : game.id,
    title: `Challenge ${randomBytes(3).toString('hex')}`,
    isEnabled: true,
    ...rest,
  })
  for (const flag of flags) em.create(Flag, { challenge, flag })
  await em.flush()
  return challenge
}

/** Register a team (and the given members) in a game with a participation of the given status. */
export async function createParticipation(
  server: TestServer,
  game: Game,
  team: Team | number,
  members: (User | string)[],
  status: ParticipationStatus = 'Accepted',
  organization: string | Division | null = null,
): Promise<Participation> {
  const em = server.services.orm.em.fork()
  const teamId = typeof team === 'number' ? team : team.id
  // An organization name is the division of that name (created with every permission when missing).
  const division =
    typeof organization === 'string'
      ? ((await em.findOne(Division, { game: game.id, name: organization })) ??
        em.create(Division, { game: game.id, name: organization, inviteCode: null, defaultPermissions: GamePermission.All, challengeConfigs: [] }))
      : organization
        ? em.getReference(Division, organization.id)
        : null
  const participation = em.create(Participation, {
    game: game.id,
    team: teamId,
    status,
    division,
    token: teamToken(game, teamId, server.services.config.XOR_KEY),
  })
  for (const member of members) em.create(Registration, { user: typeof member === 'string' ? member : member.id, game: game.id, participation })
  await em.flush()
  return participation
}

/* ----------------------------------------------------------------------------------------------
 * Notices, stored files, attachments and write-ups (game administration tests).
 * -------------------------------------------------------------------------------------------- */

/** A notice of any type, written directly (system notices cannot be created through the API). */
export async function createNotice(
  server: TestServer,
  game: Game | number,
  overrides: { type?: NoticeType; content?: string; publishTime?: Date } = {},
): Promise<GameNotice> {
  const em = server.services.orm.em.fork()
  const notice = em.create(GameNotice, {
    game: typeof game === 'number' ? game : game.id,
    type: overrides.type ?? 'Normal',
    content: overrides.content ?? `notice ${randomBytes(3).toString('hex')}`,
    publishTime: overrides.publishTime ?? new Date(),
  })
  await em.flush()
  return notice
}

/** Store bytes as a file with one reference (like an upload through `POST /api/assets`). */
export async function createStoredFile(server: TestServer, data: Buffer | string = randomBytes(32), name = 'file.bin'): Promise<StoredFile> {
  return fileTransaction(server.services.orm.em.fork(), server.services.storage, async (_tx, files) =>
    files.store(await files.stage(Buffer.isBuffer(data) ? data : Buffer.from(data)), name),
  )
}

/** A finished traffic capture of a team, handed to the capture store as the proxy does (local directory or bucket). */
export async function storeCapture(server: TestServer, challengeId: number, participationId: number, name: string, data: Buffer): Promise<void> {
  const ref = { challengeId, participationId, name }
  const file = server.services.captures.spoolPath(ref)
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, data)
  await server.services.captures.keep(ref)
}

/** The stored-file row of `hash` (null when gone). */
export async function fileRow(server: TestServer, hash: string): Promise<LocalFile | null> {
  return server.services.orm.em.fork().findOne(LocalFile, { hash })
}

/** Whether the blob of `hash` is still on disk. */
export const blobExists = (server: TestServer, hash: string): Promise<boolean> => server.services.storage.has(hash)

/** Give a participation a write-up file (holding one reference on it) under its own name `name`. */
export async function setWriteup(server: TestServer, participation: Participation | number, data: Buffer | string = randomBytes(64), name = 'writeup.pdf'): Promise<StoredFile> {
  return fileTransaction(server.services.orm.em.fork(), server.services.storage, async (tx, files) => {
    const file = await files.store(await files.stage(Buffer.isBuffer(data) ? data : Buffer.from(data)), name)
    const p = await tx.findOneOrFail(Participation, { id: typeof participation === 'number' ? participation : participation.id })
    p.writeup = tx.getReference(LocalFile, file.hash)
    p.writeupTime = new Date()
    p.writeupName = name
    return file
  })
}

/** Count rows of a table (by SQL) matching an optional condition, for "nothing changed" checks. */
export async function countRows(server: TestServer, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const rows = await server.services.orm.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from "${table}" where ${where}`, params)
  return Number(rows[0]!.n)
}

/** Drop one reference of a stored file, as its uploader giving it up would (the blob goes with the last one). */
export async function dropReference(server: TestServer, hash: string): Promise<void> {
  await fileTransaction(server.services.orm.em.fork(), server.services.storage, (_tx, files) => files.release(hash))
}
