/**
 * Content-addressed blob storage. The interface is what the platform needs from a store, so
 * an object store can replace the local disk later without touching the domain code.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs'
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
  temp: string
}

/** How many leading bytes a staged blob keeps for type detection. */
const HEAD_BYTES = 512

export interface BlobStore {
  /** Write a stream or buffer aside and hash it. */
  stage(source: Readable | Buffer): Promise<StagedBlob>
  /** Make a staged blob the blob of its hash; bytes already there are kept as they are. */
  place(blob: StagedBlob): Promise<void>
  /** Drop a staged blob's temporary copy (nothing to do after `place`). */
  discard(blob: StagedBlob): Promise<void>
  has(hash: string): Promise<boolean>
  stat(hash: string): Promise<{ size: number; mtime: Date } | null>
  /** A byte range is inclusive at both ends, as in HTTP. */
  open(hash: string, range?: { start: number; end: number }): ReadStream
  remove(hash: string): Promise<boolean>
  /** A local path for tools that need one (zip archives); null when the store is remote. */
  localPath(hash: string): string | null
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash)
  }

  localPath(hash: string): string {
    return this.pathOf(hash)
  }

  async stage(source: Readable | Buffer): Promise<StagedBlob> {
    await fs.mkdir(path.join(this.root, 'tmp'), { recursive: true })
    const temp = path.join(this.root, 'tmp', randomBytes(12).toString('hex'))
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

  open(hash: string, range?: { start: number; end: number }): ReadStream {
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
}
