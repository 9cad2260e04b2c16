/**
 * `npm run archive -- <gameId> <outDir> [--no-challenges] [--attachments]`: write the static
 * archive of a finished game into a folder (docs/archive.md#static-archive), from the database at
 * `DATABASE_URL` and the stored files under `DATA_DIR` — the same site as the editor's button,
 * without a running server. The board is built from the database here, through the same hook.
 */
import path from 'node:path'
import pino from 'pino'
import { openDatabase } from '../db/orm.js'
import { nativePool } from '../db/pg.js'
import { loadConfig } from '../config.js'
import { LocalBlobStore } from '../storage/blobStore.js'
import { buildPublicBoard } from '../domain/scoreboard/service.js'
import { writeStaticSite } from '../domain/archive/staticSite.js'
import { AppError, notFound } from '../lib/errors.js'

const log = pino({ level: 'info' })
const args = process.argv.slice(2)
const positional = args.filter((a) => !a.startsWith('--'))
const flags = new Set(args.filter((a) => a.startsWith('--')))
const gameId = Number(positional[0])
const outDir = positional[1]
const unknown = [...flags].filter((f) => f !== '--no-challenges' && f !== '--attachments')
if (!Number.isInteger(gameId) || gameId <= 0 || !outDir || positional.length !== 2 || unknown.length) {
  console.error('usage: npm run archive -- <gameId> <outDir> [--no-challenges] [--attachments]')
  process.exit(2)
}
const config = loadConfig()
if (!config.DATABASE_URL) {
  log.error('DATABASE_URL is not set: with the embedded PostgreSQL, use the game editor\'s "Static archive" button')
  process.exit(2)
}
const orm = await openDatabase(config.DATABASE_URL, log)
try {
  const pool = await nativePool(orm)
  const scoreboard = {
    async get(id: number) {
      // The public board: frozen while the game is (docs/archive.md#frozen-boards).
      const board = await buildPublicBoard(pool, id)
      if (!board) throw notFound('比赛未找到')
      return board.model
    },
  }
  const storage = new LocalBlobStore(path.join(config.dataDir, 'files'))
  const written = await writeStaticSite(orm.em.fork(), { storage, scoreboard }, gameId, path.resolve(outDir), {
    challenges: !flags.has('--no-challenges'),
    attachments: flags.has('--attachments'),
  })
  log.info({ gameId, outDir: path.resolve(outDir), files: written.length }, 'static archive written: open index.html')
} catch (err) {
  if (!(err instanceof AppError)) throw err
  log.error(err.title)
  process.exitCode = 1
} finally {
  await orm.close()
}
