/**
 * Stored files with reference counts (docs/compatibility.md#group-assets): the same bytes are kept once, every use
 * holds a reference, and the blob goes when the last reference is released.
 */
import { createReadStream } from 'node:fs'
import type { EntityManager } from '@mikro-orm/postgresql'
import { LocalFile } from '../../entities/LocalFile.js'
import type { BlobStore } from '../../storage/blobStore.js'

/** Store bytes (a temp file path or a buffer) under `name`, adding one reference. */
export async function storeFile(em: EntityManager, store: BlobStore, source: string | Buffer, name: string): Promise<LocalFile> {
  const blob = typeof source === 'string' ? await store.put(createReadStream(source)) : await store.putBuffer(source)
  const existing = await em.findOne(LocalFile, { hash: blob.hash })
  if (existing) {
    existing.referenceCount += 1
    existing.name = name
    existing.fileSize = blob.size
    existing.uploadTime = new Date()
    return existing
  }
  return em.create(LocalFile, { hash: blob.hash, name, fileSize: blob.size, uploadTime: new Date(), referenceCount: 1 })
}

/**
 * Drop one reference; the row goes with the last one. Returns the hash whose blob is now
 * unreferenced, for `removeBlobs()` to delete once the caller's transaction has committed
 * (deleting earlier would lose bytes on a rollback). Unknown hashes are ignored.
 */
export async function releaseFile(em: EntityManager, hash: string | null | undefined): Promise<string | null> {
  if (!hash) return null
  const file = await em.findOne(LocalFile, { hash })
  if (!file) return null
  if (file.referenceCount > 1) {
    file.referenceCount -= 1
    return null
  }
  em.remove(file)
  return hash
}

/** Delete blobs released by `releaseFile()`, after commit; a blob re-added meanwhile is kept. */
export async function removeBlobs(em: EntityManager, store: BlobStore, hashes: (string | null)[]): Promise<void> {
  for (const hash of hashes) {
    if (!hash) continue
    const again = await em.fork().findOne(LocalFile, { hash })
    if (!again) await store.remove(hash)
  }
}

