/**
 * Traffic captures for monitors (docs/compatibility.md#group-game-monitors). The proxy writes one pcap per
 * connection as `{challengeId}/{participationId}/{name}.pcap` in the capture store
 * (`services.captures`: under `DATA_DIR/captures/`, or in the bucket of STORAGE_URL); these
 * functions list and serve it. Only the last path component of a requested file name is used, and
 * it must end in `.pcap`, so nothing outside the tree can be reached.
 */
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import type { EntityManager } from '@mikro-orm/postgresql'
import { ZipArchive } from 'archiver'
import type { Services } from '../../services.js'
import type { Actor } from '../actor.js'
import type { Scope } from '../scope.js'
import { Challenge } from '../../entities/Challenge.js'
import { Participation } from '../../entities/Participation.js'
import { notFound } from '../../lib/errors.js'
import type { CaptureFile, CaptureRef } from '../../storage/captures.js'
import { fileTimestamp } from '../writeups/writeups.js'

const NO_CAPTURE = '未找到相关捕获信息'

/** `GET /api/game/games/{id}/captures`: challenges with capture on, each with its number of teams with captures; no game lookup. */
export async function gameCaptures(em: EntityManager, services: Services, gameId: number): Promise<{ challenge: Challenge; count: number }[]> {
  const challenges = await em.find(Challenge, { game: gameId, enableTrafficCapture: true }, { orderBy: { id: 'asc' } })
  return Promise.all(challenges.map(async (challenge) => ({ challenge, count: (await services.captures.teams(challenge.id)).length })))
}

/** `GET /api/game/captures/{challengeId}`: one entry per participation (team loaded) with captures, with its file count. */
export async function challengeCaptures(em: EntityManager, services: Services, challengeId: number): Promise<{ participation: Participation; count: number }[]> {
  const ids = (await services.captures.teams(challengeId)).sort((a, b) => a - b)
  if (ids.length === 0) throw notFound(NO_CAPTURE)
  const participations = await em.find(Participation, { id: { $in: ids } }, { populate: ['team', 'division'] })
  const byId = new Map(participations.map((p) => [p.id, p]))
  const out: { participation: Participation; count: number }[] = []
  for (const id of ids) {
    const participation = byId.get(id)
    if (!participation) continue
    const count = (await services.captures.files(challengeId, id))?.length ?? 0
    out.push({ participation, count })
  }
  return out
}

/** `GET /api/game/captures/{challengeId}/{partId}`. */
export async function teamCaptures(services: Services, challengeId: number, participationId: number): Promise<CaptureFile[]> {
  const files = await services.captures.files(challengeId, participationId)
  if (files === null) throw notFound(NO_CAPTURE)
  return files
}

/** `GET /api/game/captures/{challengeId}/{partId}/{filename}`: HTTP 404 with body status 400 on every failure. */
export async function captureFile(services: Services, challengeId: number, participationId: number, fileName: string): Promise<{ ref: CaptureRef; file: CaptureFile }> {
  const missing = () => notFound(NO_CAPTURE, 400)
  const name = fileName.split(/[\\/]/).pop() ?? ''
  if (!name.endsWith('.pcap') || name === '.pcap' || name.startsWith('.') || name.includes('\0')) throw missing()
  const ref = { challengeId, participationId, name }
  const file = await services.captures.stat(ref)
  if (!file) throw missing()
  return { ref, file }
}

/**
 * `DELETE /api/game/captures/{challengeId}/{partId}/{filename}` (GZ::CTF 1.0): one capture file,
 * found as the download finds it (so nothing outside the team's captures can be named).
 */
export async function deleteCapture(scope: Scope, actor: Actor, challengeId: number, participationId: number, fileName: string): Promise<void> {
  const { ref } = await captureFile(scope.services, challengeId, participationId, fileName)
  if (!(await scope.services.captures.remove(ref))) throw notFound(NO_CAPTURE, 400)
  await scope.services.audit.success(actor, `删除了题目 #${challengeId} 队伍 #${participationId} 的流量捕获 ${ref.name}`)
}

/** `DELETE /api/game/captures/{challengeId}/{partId}/all` (GZ::CTF 1.0): every capture file of the team for the challenge. */
export async function deleteAllCaptures(scope: Scope, actor: Actor, challengeId: number, participationId: number): Promise<void> {
  const files = await scope.services.captures.files(challengeId, participationId)
  if (!files || files.length === 0) throw notFound(NO_CAPTURE)
  for (const f of files) await scope.services.captures.remove({ challengeId, participationId, name: f.name })
  await scope.services.audit.success(actor, `删除了题目 #${challengeId} 队伍 #${participationId} 的全部流量捕获（${files.length} 个）`)
}

/**
 * `GET /api/game/captures/{challengeId}/{partId}/all`: a zip built while it streams. Files are
 * opened one after the other as the archive reaches them, so a bucket holds one download open at a time.
 */
export async function captureArchive(services: Services, challengeId: number, participationId: number): Promise<{ fileName: string; stream: Readable }> {
  const files = await services.captures.files(challengeId, participationId)
  if (!files || files.length === 0) throw notFound(NO_CAPTURE)
  const where = { challengeId, participationId }
  const zip = new ZipArchive({ zlib: { level: 6 } })
  zip.on('warning', (err) => services.log.warn({ err, ...where }, 'capture archive warning'))
  zip.on('error', (err) => services.log.error({ err, ...where }, 'capture archive failed'))
  void (async () => {
    for (const f of files) {
      zip.append(await services.captures.open({ ...where, name: f.name }), { name: f.name, date: f.modified })
      await once(zip, 'entry')
    }
    await zip.finalize()
  })().catch((err: unknown) => {
    services.log.error({ err, ...where }, 'capture archive failed')
    zip.destroy(err as Error)
  })
  return { fileName: `Capture-${challengeId}-${participationId}-${fileTimestamp(new Date(), true)}Z.zip`, stream: zip }
}
