/**
 * Write-ups (docs/compatibility.md#group-game-write-ups, #group-admin): a team uploads one PDF before the
 * deadline (a new upload replaces and releases the previous one); admins list them and download
 * them all as one zip, built while it is sent.
 */
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { LockMode } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { ZipArchive } from 'archiver'
import type { Services } from '../../services.js'
import { Game } from '../../entities/Game.js'
import { LocalFile } from '../../entities/LocalFile.js'
import { Participation } from '../../entities/Participation.js'
import type { Team } from '../../entities/Team.js'
import type { User } from '../../entities/User.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { notFound } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { fileTransaction } from '../files/files.js'
import { gameContext } from '../play/gate.js'
import { GAME_NOT_FOUND } from '../play/games.js'
import { assertBeforeDeadline, assertWriteupFile } from './policy.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `yyyyMMdd-HH.mm.ss` of `date`, in the server's local time or in UTC. */
export function fileTimestamp(date: Date, utc: boolean): string {
  const [y, mo, d, h, mi, s] = utc
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds()]
  return `${pad(y, 4)}${pad(mo)}${pad(d)}-${pad(h)}.${pad(mi)}.${pad(s)}`
}

/** The stored name of a write-up: `Writeup-{gameId}-{teamId}-{yyyyMMdd-HH.mm.ss}Z.pdf` (server local time, as the reference). */
const writeupFileName = (gameId: number, teamId: number, at: Date): string => `Writeup-${gameId}-${teamId}-${fileTimestamp(at, false)}Z.pdf`

/**
 * The caller's team's write-up of a game: the game and the uploaded file under the team's own
 * name, if any (gate steps 1–4: works after the end).
 */
export async function teamWriteup(em: EntityManager, user: User, gameId: number): Promise<{ game: Game; file: Pick<LocalFile, 'name' | 'fileSize'> | null }> {
  const { game, participation } = await gameContext(em, gameId, user, { refuseEnded: false })
  const file = participation.writeup ? await em.findOne(LocalFile, { hash: (participation.writeup as LocalFile).hash }) : null
  return { game, file: file && { name: participation.writeupName ?? file.name, fileSize: file.fileSize } }
}

/** `POST /api/game/{id}/writeup`: validate, gate 1–4, deadline, then store and replace. */
export async function uploadWriteup(scope: Scope, actor: Actor, gameId: number, file: UploadedFile): Promise<void> {
  const { em, services } = scope
  assertWriteupFile(file)
  const { game, participation } = await gameContext(em, gameId, actor.user, { refuseEnded: false })
  const now = new Date()
  assertBeforeDeadline(game, now)
  const team = participation.team as Team

  const name = writeupFileName(game.id, team.id, now)
  await fileTransaction(em, services.storage, async (tx, files) => {
    // The participation is locked before its previous write-up is read: two uploads never release the same one.
    const part = await tx.findOneOrFail(Participation, { id: participation.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    const previous = (part.writeup as LocalFile | null)?.hash ?? null
    const blob = await files.stage(file.path)
    await files.lock([blob.hash, previous])
    const stored = await files.store(blob, name)
    await files.release(previous)
    part.writeup = tx.getReference(LocalFile, stored.hash)
    part.writeupTime = now
    part.writeupName = name
  })
  await services.audit.success(actor, `[${team.name}] 成功提交了比赛 [${game.title}] 的 Writeup`)
}

/** An uploaded write-up: the participation (its team loaded) and the file. */
export interface UploadedWriteup {
  participation: Participation
  file: LocalFile
}

/** Participations of a game with an uploaded write-up, newest upload first (404 `比赛未找到`). */
export async function uploadedWriteups(em: EntityManager, gameId: number): Promise<{ game: Game; rows: UploadedWriteup[] }> {
  const game = await em.findOne(Game, { id: gameId })
  if (!game) throw notFound(GAME_NOT_FOUND)
  const participations = await em.find(
    Participation,
    { game: gameId, writeup: { $ne: null } },
    { populate: ['team', 'writeup'], orderBy: { writeupTime: 'desc', id: 'desc' } },
  )
  const rows = participations.flatMap((participation) => {
    const file = participation.writeup as LocalFile | null
    return file ? [{ participation, file }] : []
  })
  return { game, rows }
}

/** A name usable in an archive on every system: path separators and reserved characters replaced. */
const safeEntryName = (name: string): string =>
  [...name]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .replace(/^\.+/, '_')
    .trim() || '_'

/**
 * `GET /api/admin/writeups/{id}/all`: the download name and a zip stream that is filled while it
 * is read. Entries are named by team: `{teamName}-{teamId}.pdf`.
 */
export async function writeupArchive(em: EntityManager, services: Services, gameId: number): Promise<{ fileName: string; stream: Readable }> {
  const { game, rows } = await uploadedWriteups(em, gameId)
  const fileName = `Writeups-${game.title}-${fileTimestamp(new Date(), true)}Z.zip`
  const zip = new ZipArchive({ zlib: { level: 6 } })
  zip.on('warning', (err) => services.log.warn({ err, gameId }, 'write-up archive warning'))
  zip.on('error', (err) => services.log.error({ err, gameId }, 'write-up archive failed'))
  void (async () => {
    for (const { participation, file } of rows) {
      const team = participation.team as Team
      if (!(await services.storage.has(file.hash))) continue
      // One open download at a time: the next file is opened once the archive has taken this one.
      zip.append(await services.storage.open(file.hash), { name: `${safeEntryName(team.name)}-${team.id}.pdf`, date: participation.writeupTime ?? file.uploadTime })
      await once(zip, 'entry')
    }
    await zip.finalize()
  })().catch((err) => {
    services.log.error({ err, gameId }, 'write-up archive failed')
    zip.destroy(err as Error)
  })
  return { fileName, stream: zip }
}
