/**
 * `POST /api/edit/games/{id}/export` (docs/archive.md#game-archive): `manifest.json` and
 * `files/<sha256>` for the poster and every local attachment whose bytes are still stored,
 * written into the response while it is read.
 */
import type { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { GAME_ARCHIVE_FORMAT, GAME_ARCHIVE_VERSION, type GameArchiveManifest } from '@flagwave/shared/schemas/gameArchive'
import type { Services } from '../../services.js'
import { LocalFile } from '../../entities/LocalFile.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { findGame } from '../games/games.js'
import { fileTimestamp } from '../writeups/writeups.js'
import { contentHashes, readGameContent, type GameContent } from './gameContent.js'
import { zipStream, type ZipEntry } from './zipStream.js'

/** Blob entries live under this folder, named by their hash. */
export const FILES_DIR = 'files/'
export const MANIFEST = 'manifest.json'

/** Drop the hashes whose bytes are gone: such an attachment is exported (and imported) without file. */
function withoutMissing(content: GameContent, present: Set<string>): GameContent {
  const keep = <T extends { hash: string | null } | null>(a: T): T => (a && a.hash && !present.has(a.hash) ? { ...a, hash: null } : a)
  return {
    ...content,
    game: { ...content.game, poster: content.game.poster && present.has(content.game.poster) ? content.game.poster : null },
    challenges: content.challenges.map((c) => ({ ...c, attachment: keep(c.attachment), flags: c.flags.map((f) => ({ ...f, attachment: keep(f.attachment) })) })),
  }
}

/** The manifest of a game and the stored files it names (those whose bytes exist). */
async function buildManifest(em: EntityManager, services: Services, gameId: number): Promise<GameArchiveManifest> {
  const game = await findGame(em, gameId)
  const content = await readGameContent(em, game)
  const hashes = contentHashes(content)
  const rows = hashes.length ? await em.find(LocalFile, { hash: { $in: hashes } }, { orderBy: { hash: 'asc' } }) : []
  const files = []
  for (const row of rows) if (await services.storage.has(row.hash)) files.push({ hash: row.hash, name: row.name, size: row.fileSize })
  const present = new Set(files.map((f) => f.hash))
  return {
    format: GAME_ARCHIVE_FORMAT,
    version: GAME_ARCHIVE_VERSION,
    exportedAt: new Date().toISOString(),
    ...withoutMissing(content, present),
    divisions: [],
    files,
  }
}

/** The export's download name and its zip stream. */
export async function exportGame(scope: Scope, actor: Actor, gameId: number): Promise<{ fileName: string; stream: Readable }> {
  const { em, services } = scope
  const manifest = await buildManifest(em, services, gameId)
  const entries: ZipEntry[] = [
    { name: MANIFEST, data: JSON.stringify(manifest, null, 2) },
    ...manifest.files.map((f) => ({ name: `${FILES_DIR}${f.hash}`, data: () => services.storage.open(f.hash) })),
  ]
  await services.audit.success(actor, `导出了比赛 #${gameId} ${manifest.game.title}`)
  return { fileName: `Game-${gameId}-${fileTimestamp(new Date(), true)}Z.zip`, stream: zipStream(services, 'game export', entries) }
}
