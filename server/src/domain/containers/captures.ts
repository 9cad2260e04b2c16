/**
 * Traffic captures for monitors (docs/compatibility.md#group-game-monitors). The proxy writes one pcap per
 * connection under `DATA_DIR/captures/{challengeId}/{participationId}/`; these functions list
 * and serve that tree. Only the last path component of a requested file name is used, and it
 * must end in `.pcap`, so nothing outside the tree can be reached.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { ZipArchive } from 'archiver'
import type { Services } from '../../services.js'
import { Challenge } from '../../entities/Challenge.js'
import { Participation } from '../../entities/Participation.js'
import { notFound } from '../../lib/errors.js'
import { capturesRoot } from '../../containers/pcap.js'
import { fileTimestamp } from '../writeups/writeups.js'

const NO_CAPTURE = '未找到相关捕获信息'

async function subdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true })
    return entries.filter((e) => e.isDirectory() && /^\d+$/.test(e.name)).map((e) => e.name)
  } catch {
    return []
  }
}

/** One capture file of a team. */
interface CaptureFile {
  name: string
  size: number
  modified: Date
}

async function pcapFiles(dir: string): Promise<CaptureFile[]> {
  let entries: fs.Dirent[]
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const files = await Promise.all(
    entries
      .filter((e) => e.isFile() && e.name.endsWith('.pcap'))
      .map(async (e) => {
        const stat = await fs.promises.stat(path.join(dir, e.name)).catch(() => null)
        return stat ? { name: e.name, size: stat.size, modified: stat.mtime } : null
      }),
  )
  return files.filter((f): f is NonNullable<typeof f> => f !== null).sort((a, b) => a.name.localeCompare(b.name))
}

const challengeDir = (services: Services, challengeId: number) => path.join(capturesRoot(services.config.dataDir), String(challengeId))
const teamDir = (services: Services, challengeId: number, participationId: number) => path.join(challengeDir(services, challengeId), String(participationId))

async function existingDir(dir: string): Promise<boolean> {
  return (await fs.promises.stat(dir).catch(() => null))?.isDirectory() ?? false
}

/** `GET /api/game/games/{id}/captures`: challenges with capture on, each with its number of team directories; no game lookup. */
export async function gameCaptures(em: EntityManager, services: Services, gameId: number): Promise<{ challenge: Challenge; count: number }[]> {
  const challenges = await em.find(Challenge, { game: gameId, enableTrafficCapture: true }, { orderBy: { id: 'asc' } })
  return Promise.all(challenges.map(async (challenge) => ({ challenge, count: (await subdirectories(challengeDir(services, challenge.id))).length })))
}

/** `GET /api/game/captures/{challengeId}`: one entry per participation (team loaded) with a capture directory, with its file count. */
export async function challengeCaptures(em: EntityManager, services: Services, challengeId: number): Promise<{ participation: Participation; count: number }[]> {
  const dirs = await subdirectories(challengeDir(services, challengeId))
  if (dirs.length === 0) throw notFound(NO_CAPTURE)
  const participations = await em.find(Participation, { id: { $in: dirs.map(Number) } }, { populate: ['team'] })
  const byId = new Map(participations.map((p) => [p.id, p]))
  const out: { participation: Participation; count: number }[] = []
  for (const dir of dirs.map(Number).sort((a, b) => a - b)) {
    const participation = byId.get(dir)
    if (!participation) continue
    const count = (await pcapFiles(teamDir(services, challengeId, dir))).length
    out.push({ participation, count })
  }
  return out
}

/** `GET /api/game/captures/{challengeId}/{partId}`. */
export async function teamCaptures(services: Services, challengeId: number, participationId: number): Promise<CaptureFile[]> {
  const dir = teamDir(services, challengeId, participationId)
  if (!(await existingDir(dir))) throw notFound(NO_CAPTURE)
  return pcapFiles(dir)
}

/** `GET /api/game/captures/{challengeId}/{partId}/{filename}`: HTTP 404 with body status 400 on every failure. */
export async function captureFile(services: Services, challengeId: number, participationId: number, fileName: string): Promise<{ fileName: string; path: string; size: number }> {
  const missing = () => notFound(NO_CAPTURE, 400)
  const name = fileName.split(/[\\/]/).pop() ?? ''
  if (!name.endsWith('.pcap') || name === '.pcap' || name.startsWith('.') || name.includes('\0')) throw missing()
  const file = path.join(teamDir(services, challengeId, participationId), name)
  const stat = await fs.promises.stat(file).catch(() => null)
  if (!stat?.isFile()) throw missing()
  return { fileName: name, path: file, size: stat.size }
}

/** `GET /api/game/captures/{challengeId}/{partId}/all`: a zip built while it streams. */
export async function captureArchive(services: Services, challengeId: number, participationId: number): Promise<{ fileName: string; stream: Readable }> {
  const dir = teamDir(services, challengeId, participationId)
  if (!(await existingDir(dir))) throw notFound(NO_CAPTURE)
  const files = await pcapFiles(dir)
  if (files.length === 0) throw notFound(NO_CAPTURE)
  const zip = new ZipArchive({ zlib: { level: 6 } })
  zip.on('warning', (err) => services.log.warn({ err, dir }, 'capture archive warning'))
  zip.on('error', (err) => services.log.error({ err, dir }, 'capture archive failed'))
  for (const f of files) zip.file(path.join(dir, f.name), { name: f.name, date: f.modified })
  void zip.finalize().catch((err: unknown) => {
    services.log.error({ err, dir }, 'capture archive failed')
    zip.destroy(err as Error)
  })
  return { fileName: `Capture-${challengeId}-${participationId}-${fileTimestamp(new Date(), true)}Z.zip`, stream: zip }
}
