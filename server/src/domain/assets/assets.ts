/**
 * Content-addressed assets (docs/compatibility.md#group-assets, #group-admin). A stored file is named by the SHA-256 of
 * its bytes; the name in a URL is only a label (the download name) and never reaches the file
 * system. The same bytes are kept once, with a reference count (docs/architecture.md#stored-files).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LocalFile } from '../../entities/LocalFile.js'
import { AppError, badRequest, problem } from '../../lib/errors.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { fileTransaction, type StoredFile } from '../files/files.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

export const HASH_PATTERN = /^[0-9a-f]{64}$/
export const HASH_PATTERN_TITLE = "The field hash must match the regular expression '[0-9a-f]{64}'."

/** `files.name` holds 256 characters. */
const NAME_MAX = 256
const IO_ERROR = '遇到IO错误'
const STILL_REFERENCED = '文件仍被引用'

/**
 * `POST /api/assets`: every non-empty part named `files` (any letter case) is stored under its
 * own name, or under `filename` when given; a known hash gets one more reference and keeps the
 * name it was first stored under (docs/compatibility.md#deliberate-departures). All in one
 * transaction; any storage failure is `遇到IO错误`.
 */
export async function uploadAssets(scope: Scope, actor: Actor, files: UploadedFile[], filename: string | null): Promise<StoredFile[]> {
  const { em, services } = scope
  const parts = files.filter((f) => f.field.toLowerCase() === 'files' && f.size > 0)
  const names = parts.map((part) => filename ?? part.name)
  if (names.some((name) => name.length > NAME_MAX)) throw badRequest(IO_ERROR)
  let stored: StoredFile[]
  try {
    stored = await fileTransaction(em, services.storage, async (_tx, work) => {
      const blobs = []
      for (const part of parts) blobs.push(await work.stage(part.path))
      await work.lock(blobs.map((b) => b.hash))
      const stored: StoredFile[] = []
      for (const [i, blob] of blobs.entries()) stored.push(await work.store(blob, names[i]!))
      return stored
    })
  } catch (err) {
    if (err instanceof AppError) throw err
    scope.log.error({ err }, 'asset upload failed')
    throw badRequest(IO_ERROR)
  }
  for (const file of stored) await services.audit.success(actor, `更新文件 [${file.hash.slice(0, 8)}] ${file.name} @ ${file.fileSize} bytes`)
  return stored
}

/**
 * `DELETE /api/assets/{hash}`: unknown hash → 404 ProblemDetails; otherwise one reference of an
 * upload less — the last one takes record and blob (404 ProblemDetails, record removed, when the
 * blob was already missing on disk). A reference that an owner row holds (an attachment, a
 * write-up, an avatar, a poster) is not the admin's to drop: 400 `文件仍被引用`.
 */
export async function deleteAsset(scope: Scope, actor: Actor, hash: string): Promise<void> {
  const { em, services } = scope
  const store = services.storage
  const file = await fileTransaction(em, store, async (tx, work) => {
    const unowned = await work.unownedReferences(hash)
    if (unowned === null) throw problem(404)
    if (unowned <= 0) throw badRequest(STILL_REFERENCED)
    const [row] = await tx.execute<{ name: string; reference_count: number }[]>('select name, reference_count from files where hash = ?', [hash])
    const existed = await store.has(hash)
    await work.release(hash)
    return { hash, name: row!.name, last: row!.reference_count <= 1, existed }
  })
  if (file.last && !file.existed) throw problem(404)
  await services.audit.success(actor, `删除文件 [${file.hash.slice(0, 8)}] ${file.name}`)
}

/** `GET /api/admin/files`: by name; `total` is the page length (docs/compatibility.md#group-admin). */
export async function listFiles(em: EntityManager, count: number, skip: number): Promise<LocalFile[]> {
  if (count <= 0) return []
  return em.find(LocalFile, {}, { orderBy: { name: 'asc', hash: 'asc' }, limit: count, offset: Math.max(0, skip) })
}
