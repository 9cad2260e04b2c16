/**
 * Content-addressed assets (docs/compatibility.md#group-assets, #group-admin). A stored file is named by the SHA-256 of
 * its bytes; the name in a URL is only a label (it picks the Content-Type and the download
 * name) and never reaches the file system. The same bytes are kept once, with a reference count.
 */
import { createReadStream } from 'node:fs'
import type { EntityManager } from '@mikro-orm/postgresql'
import { LocalFile } from '../../entities/LocalFile.js'
import { AppError, badRequest, problem } from '../../lib/errors.js'
import type { UploadedFile } from '../../lib/uploads.js'
import { releaseFile, removeBlobs } from '../files/files.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'

export const HASH_PATTERN = /^[0-9a-f]{64}$/
export const HASH_PATTERN_TITLE = "The field hash must match the regular expression '[0-9a-f]{64}'."

/** `files.name` holds 256 characters. */
const NAME_MAX = 256
const IO_ERROR = '遇到IO错误'

/** Serialise writers of one hash (two uploads of new bytes would both insert the row). */
const lockHash = (em: EntityManager, hash: string) => em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`file:${hash}`])

/**
 * `POST /api/assets`: every non-empty part named `files` (any letter case) is stored under its
 * own name, or under `filename` when given; a known hash gets one more reference and the new
 * name, size and upload time. All in one transaction; any storage failure is `遇到IO错误`.
 */
export async function uploadAssets(scope: Scope, actor: Actor, files: UploadedFile[], filename: string | null): Promise<LocalFile[]> {
  const { em, services } = scope
  const store = services.storage
  const parts = files.filter((f) => f.field.toLowerCase() === 'files' && f.size > 0)
  const written: string[] = []
  let stored: LocalFile[]
  try {
    stored = await em.transactional(async (tx) => {
      const stored: LocalFile[] = []
      for (const part of parts) {
        const name = filename ?? part.name
        if (name.length > NAME_MAX) throw badRequest(IO_ERROR)
        const blob = await store.put(createReadStream(part.path))
        written.push(blob.hash)
        await lockHash(tx, blob.hash)
        let file = await tx.findOne(LocalFile, { hash: blob.hash })
        if (file) {
          file.referenceCount += 1
          file.name = name
          file.fileSize = blob.size
          file.uploadTime = new Date()
        } else {
          file = tx.create(LocalFile, { hash: blob.hash, name, fileSize: blob.size, uploadTime: new Date(), referenceCount: 1 })
        }
        await tx.flush()
        stored.push(file)
      }
      return stored
    })
  } catch (err) {
    // Bytes written for a rolled-back upload go unless another record holds them.
    await removeBlobs(em, store, written).catch(() => undefined)
    if (err instanceof AppError) throw err
    throw badRequest(IO_ERROR)
  }
  for (const file of stored) await services.audit.success(actor, `更新文件 [${file.hash.slice(0, 8)}] ${file.name} @ ${file.fileSize} bytes`)
  return stored
}

/**
 * `DELETE /api/assets/{hash}`: unknown hash → 404 ProblemDetails; more than one reference →
 * one reference less; the last reference → record and blob go (404 ProblemDetails, record
 * removed, when the blob was already missing on disk).
 */
export async function deleteAsset(scope: Scope, actor: Actor, hash: string): Promise<LocalFile> {
  const { em, services } = scope
  const store = services.storage
  let released: string | null = null
  const file = await em.transactional(async (tx) => {
    await lockHash(tx, hash)
    const file = await tx.findOne(LocalFile, { hash })
    if (!file) throw problem(404)
    released = await releaseFile(tx, hash)
    await tx.flush()
    return file
  })
  if (released) {
    const existed = await store.has(released)
    await removeBlobs(em, store, [released])
    if (!existed) throw problem(404)
  }
  await services.audit.success(actor, `删除文件 [${file.hash.slice(0, 8)}] ${file.name}`)
  return file
}

/** `GET /api/admin/files`: by name; `total` is the page length (docs/compatibility.md#group-admin). */
export async function listFiles(em: EntityManager, count: number, skip: number): Promise<LocalFile[]> {
  if (count <= 0) return []
  return em.find(LocalFile, {}, { orderBy: { name: 'asc', hash: 'asc' }, limit: count, offset: Math.max(0, skip) })
}
