/**
 * `POST /api/edit/games/import` (docs/archive.md#import): one upload — a Flagwave game archive, a
 * CTFd 3.x export, a ctfcli challenge archive or a lone `challenge.yml` — becomes a new game.
 * The upload is unpacked and read whole first (unzip.ts judges it hostile or not), then the game
 * is written in one file transaction: either everything is created or nothing is.
 */
import fs from 'node:fs/promises'
import { GameArchiveManifest } from '@flagwave/shared/schemas/gameArchive'
import type { Game } from '../../entities/Game.js'
import type { UploadedFile } from '../../lib/uploads.js'
import type { StagedBlob } from '../../storage/blobStore.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { createGameFromContent, type FileSource } from './createFromContent.js'
import { contentHashes, type GameContent } from './gameContent.js'
import { FILES_DIR, MANIFEST } from './exportGame.js'
import { parseJson, unzipUpload, type UnpackedArchive } from './unzip.js'
import { readCtfcli, readCtfcliArchive } from './ctfcli.js'
import { readCtfd } from './ctfd.js'
import { invalid, schemaProblem, type ReadImport, type SourceFile } from './read.js'

export interface ImportOutcome extends Omit<ReadImport, 'content' | 'sources'> {
  game: Game
  challenges: number
  files: number
}

async function readFlagwave(archive: UnpackedArchive): Promise<ReadImport> {
  const parsed = GameArchiveManifest.safeParse(parseJson(MANIFEST, await archive.text(MANIFEST)))
  if (!parsed.success) throw schemaProblem(MANIFEST, parsed.error)
  const { game, challenges, notices, files } = parsed.data
  const sources = new Map<string, SourceFile>()
  for (const f of files) {
    const entry = archive.entries.get(`${FILES_DIR}${f.hash}`)
    if (!entry) throw invalid(`${FILES_DIR}${f.hash} is listed in ${MANIFEST} but missing`)
    sources.set(f.hash, { path: entry.path, name: f.name })
  }
  const content: GameContent = { game, challenges, notices }
  const unknown = contentHashes(content).filter((h) => !sources.has(h))
  if (unknown.length) throw invalid(`${MANIFEST} refers to ${unknown[0]}, which is not in its files`)
  const listed = new Set([MANIFEST, ...files.map((f) => `${FILES_DIR}${f.hash}`)])
  const unmapped = [...archive.entries.keys()].filter((name) => !listed.has(name)).map((name) => `entry ${name}: not part of the format, ignored`)
  return { format: 'flagwave', content, sources, mapped: [], unmapped }
}

/**
 * Stage every source file, check that its bytes are the hash it is known by (an archive's
 * `files/<hash>` that was altered is refused), and lock every hash before any is stored.
 */
function stagedSources(sources: Map<string, SourceFile>): FileSource {
  return async (files) => {
    const staged = new Map<string, StagedBlob>()
    for (const [hash, source] of sources) {
      const blob = await files.stage(source.path)
      if (blob.hash !== hash) throw invalid(`the bytes of ${source.name} do not match their hash ${hash}`)
      staged.set(hash, blob)
    }
    await files.lock([...staged.keys()])
    return async (hash) => {
      const blob = staged.get(hash)
      return blob ? files.store(blob, sources.get(hash)!.name) : null
    }
  }
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04])
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06])

async function isZip(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    return bytesRead === 4 && (head.equals(ZIP_MAGIC) || head.equals(EMPTY_ZIP_MAGIC))
  } finally {
    await handle.close()
  }
}

/** Read an upload as whichever format it is. */
async function readUpload(file: UploadedFile, archive: UnpackedArchive | null): Promise<ReadImport> {
  if (!archive) {
    if (!/\.ya?ml$/i.test(file.name)) throw invalid('expected a zip archive or a challenge.yml')
    return readCtfcli(file)
  }
  if (archive.entries.has(MANIFEST)) return readFlagwave(archive)
  if (archive.entries.has('db/challenges.json')) return readCtfd(archive)
  if ([...archive.entries.keys()].some((name) => /(^|\/)challenge\.ya?ml$/.test(name))) return readCtfcliArchive(archive)
  throw invalid(`neither ${MANIFEST} (Flagwave), db/challenges.json (CTFd) nor challenge.yml (ctfcli) found`)
}

export async function importGame(scope: Scope, actor: Actor, file: UploadedFile): Promise<ImportOutcome> {
  if (file.size === 0) throw invalid('empty file')
  const archive = (await isZip(file.path)) ? await unzipUpload(file.path) : null
  try {
    const read = await readUpload(file, archive)
    const game = await createGameFromContent(scope, read.content, stagedSources(read.sources))
    await scope.services.audit.success(actor, `导入了比赛 #${game.id} ${game.title}（${read.format}，${read.content.challenges.length} 道题目）`)
    return {
      game,
      format: read.format,
      challenges: read.content.challenges.length,
      files: read.sources.size,
      mapped: read.mapped,
      unmapped: read.unmapped,
    }
  } finally {
    await archive?.dispose()
  }
}
