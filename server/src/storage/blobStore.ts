/**
 * Content-addressed blob storage. The interface is what the platform needs from a store: the local
 * disk (`LocalBlobStore`, the default) and any S3-compatible bucket (`S3BlobStore`, storage/s3.ts)
 * implement it, chosen by STORAGE_URL (docs/operations.md#object-storage).
 */
import { createHash, randomBytes } from 'node:crypto'
import { constants, createReadStream, createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Readable } from 'node:stream'

/**
 * Bytes written aside and hashed, not yet addressable: `place()` makes them the blob of their
 * hash, `discard()` drops them. Staging needs no lock; placing happens under the hash's lock, so
 * that a concurrent removal of the same hash cannot delete bytes that a store just re-added
 * (docs/architecture.md#stored-files).
 */
export interface StagedBlob {
  hash: string
  size: number
  /** The first bytes, to tell what the file is. */
  head: Buffer
  /** The staged copy: always a local file, also for a remote store (the hash is known only at the end). */
  temp: string
}

/** How many leading bytes a staged blob keeps for type detection. */
const HEAD_BYTES = 512

/** A byte range, inclusive at both ends as in HTTP. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * The store cannot be reached or refused to work (a bucket down, a full or read-only disk): the
 * request answers 503 in the contract's error shape (http/errorMiddleware.ts) and nothing it
 * committed is lost, since blobs are placed before their rows commit and removed only after.
 */
export class StorageUnavailableError extends Error {
  constructor(what: string, override readonly cause?: unknown) {
    super(`storage unavailable: ${what}`)
  }
}

export interface BlobStore {
  /** Write a stream or buffer aside and hash it. */
  stage(source: Readable | Buffer): Promise<StagedBlob>
  /** Make a staged blob the blob of its hash; bytes already there are kept as they are. */
  place(blob: StagedBlob): Promise<void>
  /** Drop a staged blob's temporary copy (nothing to do after `place`). */
  discard(blob: StagedBlob): Promise<void>
  has(hash: string): Promise<boolean>
  stat(hash: string): Promise<{ size: number; mtime: Date } | null>
  open(hash: string, range?: ByteRange): Promise<Readable>
  /** False when there was nothing to remove or the store refused (the bytes then stay, unreferenced). */
  remove(hash: string): Promise<boolean>
  /** Throws StorageUnavailableError unless the store can be read and written (GET /readyz). */
  ready(): Promise<void>
}

/** Stream or write `source` into a new file under `dir`, hashing it on the way. */
export async function stageLocally(dir: string, source: Readable | Buffer): Promise<StagedBlob> {
  await fs.mkdir(dir, { recursive: true })
  const temp = path.join(dir, randomBytes(12).toString('hex'))
  try {
    if (Buffer.isBuffer(source)) {
      await fs.writeFile(temp, source)
      return { hash: createHash('sha256').update(source).digest('hex'), size: source.length, head: source.subarray(0, HEAD_BYTES), temp }
    }
    const hasher = createHash('sha256')
    const head: Buffer[] = []
    let size = 0
    source.on('data', (chunk: Buffer) => {
      hasher.update(chunk)
      if (size < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - size))
      size += chunk.length
    })
    await pipeline(source, createWriteStream(temp))
    return { hash: hasher.digest('hex'), size, head: Buffer.concat(head), temp }
  } catch (err) {
    await fs.rm(temp, { force: true })
    throw err
  }
}

/** Whether `dir` exists (made if need be) and this process may write into it. */
async function writableDirectory(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true })
    await fs.access(dir, constants.W_OK | constants.R_OK)
  } catch (err) {
    throw new StorageUnavailableError(`${dir} is not a writable directory`, err)
  }
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash)
  }

  stage(source: Readable | Buffer): Promise<StagedBlob> {
    return stageLocally(path.join(this.root, 'tmp'), source)
  }

  async place(blob: StagedBlob): Promise<void> {
    const target = this.pathOf(blob.hash)
    if (await this.has(blob.hash)) return this.discard(blob)
    await fs.mkdir(path.dirname(target), { recursive: true })
    await fs.rename(blob.temp, target)
  }

  async discard(blob: StagedBlob): Promise<void> {
    await fs.rm(blob.temp, { force: true })
  }

  async has(hash: string): Promise<boolean> {
    return (await this.stat(hash)) !== null
  }

  async stat(hash: string): Promise<{ size: number; mtime: Date } | null> {
    try {
      const s = await fs.stat(this.pathOf(hash))
      return { size: s.size, mtime: s.mtime }
    } catch {
      return null
    }
  }

  async open(hash: string, range?: ByteRange): Promise<Readable> {
    return createReadStream(this.pathOf(hash), range)
  }

  async remove(hash: string): Promise<boolean> {
    try {
      await fs.rm(this.pathOf(hash))
      return true
    } catch {
      return false
    }
  }

  ready(): Promise<void> {
    return writableDirectory(this.root)
  }
}
