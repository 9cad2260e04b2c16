/**
 * Stored files shared by content hash (docs/architecture.md#stored-files): the same bytes are kept
 * once, every owner — a user or team avatar, a poster, a write-up, an attachment, an upload through
 * `POST /api/assets` — holds one reference, and the blob goes when the last reference is released.
 *
 * Every change runs in one transaction through `fileTransaction`:
 * - the hash's advisory lock (`file:{hash}`) is held from the first touch until the commit, and
 *   several hashes are locked in sorted order up front (`lock`), so no two transactions deadlock;
 * - counts change in single statements (`insert … on conflict … + 1`, `update … - 1 returning`,
 *   delete only at zero), never read, changed and written back;
 * - a staged blob is moved into place under the lock, and a blob is deleted only under the lock
 *   after the commit and only while its hash has no row — so a release never deletes bytes a
 *   concurrent store just re-added, and no blob stays on disk without a row.
 * The owner row is locked (or read `for update`) before its hash is read, so two commands never
 * release the same reference.
 */
import { createReadStream } from 'node:fs'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { BlobStore, StagedBlob } from '../../storage/blobStore.js'
import { detectContentType } from './contentType.js'

/** A `files` row as a command sees it. */
export interface StoredFile {
  hash: string
  /** The name the bytes were first stored under; owners keep their own. */
  name: string
  fileSize: number
  contentType: string
  referenceCount: number
}

interface FileRow {
  hash: string
  name: string
  file_size: string | number
  content_type: string
  reference_count: number
}

const RETURNING = 'returning hash, name, file_size, content_type, reference_count'
const toStored = (r: FileRow): StoredFile => ({ hash: r.hash, name: r.name, fileSize: Number(r.file_size), contentType: r.content_type, referenceCount: r.reference_count })
const HASH = /^[0-9a-f]{64}$/

/** Take the advisory locks of `hashes`, in sorted order, until the transaction ends (re-entrant). */
async function lockHashes(tx: EntityManager, hashes: Iterable<string | null | undefined>): Promise<void> {
  const unique = [...new Set([...hashes].filter((h): h is string => !!h && HASH.test(h)))].sort()
  for (const hash of unique) await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`file:${hash}`])
}

/** What a transaction of `fileTransaction` can do to stored files. */
export interface FileWork {
  /** Lock every hash the transaction will touch, before touching any (a second call may only repeat them). */
  lock(hashes: (string | null | undefined)[]): Promise<void>
  /** Write bytes (a temp file path or a buffer) aside and hash them; removed again unless stored. */
  stage(source: string | Buffer): Promise<StagedBlob>
  /** One reference more on the staged bytes: a new row named `name`, or one more on the existing row (its name kept). */
  store(blob: StagedBlob, name: string): Promise<StoredFile>
  /** One reference more on a known hash; null (nothing changed) for an unknown one. */
  reference(hash: string | null | undefined): Promise<StoredFile | null>
  /** One reference less; the row goes with the last one and its blob after the commit. Unknown hashes are ignored. */
  release(hash: string | null | undefined): Promise<void>
  /** References held by no owner row (uploads through `POST /api/assets`), or null for an unknown hash. */
  unownedReferences(hash: string): Promise<number | null>
}

/**
 * Run `work` in one transaction with the file operations of `FileWork`. After the commit, the
 * blobs whose last reference went are deleted; after a failure, bytes placed for the rolled-back
 * rows are. Staged copies never outlive the call.
 */
export async function fileTransaction<T>(em: EntityManager, store: BlobStore, work: (tx: EntityManager, files: FileWork) => Promise<T>): Promise<T> {
  const staged: StagedBlob[] = []
  const placed = new Set<string>()
  const released = new Set<string>()
  let result: T
  try {
    result = await em.transactional((tx) => {
      const files: FileWork = {
        lock: (hashes) => lockHashes(tx, hashes),
        stage: async (source) => {
          const blob = await store.stage(typeof source === 'string' ? createReadStream(source) : source)
          staged.push(blob)
          return blob
        },
        store: async (blob, name) => {
          await lockHashes(tx, [blob.hash])
          await store.place(blob)
          placed.add(blob.hash)
          const [row] = await tx.execute<FileRow[]>(
            `insert into files (hash, name, file_size, upload_time, reference_count, content_type) values (?, ?, ?, now(), 1, ?)
             on conflict (hash) do update set reference_count = files.reference_count + 1 ${RETURNING}`,
            [blob.hash, name, blob.size, detectContentType(blob.head, name)],
          )
          return toStored(row!)
        },
        reference: async (hash) => {
          if (!hash) return null
          await lockHashes(tx, [hash])
          const [row] = await tx.execute<FileRow[]>(`update files set reference_count = reference_count + 1 where hash = ? ${RETURNING}`, [hash])
          return row ? toStored(row) : null
        },
        release: async (hash) => {
          if (!hash) return
          await lockHashes(tx, [hash])
          const [row] = await tx.execute<FileRow[]>(`update files set reference_count = reference_count - 1 where hash = ? ${RETURNING}`, [hash])
          if (!row || row.reference_count > 0) return
          await tx.execute('delete from files where hash = ? and reference_count <= 0', [hash])
          released.add(hash)
        },
        unownedReferences: async (hash) => {
          await lockHashes(tx, [hash])
          const [row] = await tx.execute<{ unowned: number }[]>(`select reference_count - (${OWNERS}) as unowned from files f where hash = ?`, [hash])
          return row ? Number(row.unowned) : null
        },
      }
      return work(tx, files)
    })
  } catch (err) {
    await removeBlobs(em, store, placed).catch(() => undefined)
    throw err
  } finally {
    await Promise.all(staged.map((blob) => store.discard(blob)))
  }
  await removeBlobs(em, store, released)
  return result
}

/** The rows that hold a reference on `files f` (docs/architecture.md#stored-files). */
const OWNERS = `(select count(*) from users where avatar_hash = f.hash)
  + (select count(*) from teams where avatar_hash = f.hash)
  + (select count(*) from games where poster_hash = f.hash)
  + (select count(*) from participations where writeup_hash = f.hash)
  + (select count(*) from attachments where type = 'Local' and file_hash = f.hash)`

/**
 * Delete the blobs of `hashes` that have no row, each under its hash's lock: a store of the same
 * bytes either committed its row before (the blob stays) or places the blob again after.
 */
async function removeBlobs(em: EntityManager, store: BlobStore, hashes: Iterable<string>): Promise<void> {
  for (const hash of hashes) {
    await em.transactional(async (tx) => {
      await lockHashes(tx, [hash])
      const rows = await tx.execute<unknown[]>('select 1 from files where hash = ?', [hash])
      if (rows.length === 0) await store.remove(hash)
    })
  }
}
