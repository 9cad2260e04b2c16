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

export interface BlobInfo {
  hash: string
  size: number
}

export interface BlobStore {
  /** Store a stream; returns its SHA-256 and size. Storing known bytes again is a no-op. */
  put(source: Readable): Promise<BlobInfo>
  putBuffer(data: Buffer): Promise<BlobInfo>
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

  async put(source: Readable): Promise<BlobInfo> {
    await fs.mkdir(path.join(this.root, 'tmp'), { recursive: true })
    const temp = path.join(this.root, 'tmp', randomBytes(12).toString('hex'))
    const hasher = createHash('sha256')
    let size = 0
    source.on('data', (chunk: Buffer) => {
      hasher.update(chunk)
      size += chunk.length
    })
    try {
      await pipeline(source, createWriteStream(temp))
      const hash = hasher.digest('hex')
      const target = this.pathOf(hash)
      await fs.mkdir(path.dirname(target), { recursive: true })
      await fs.rename(temp, target)
      return { hash, size }
    } finally {
      await fs.rm(temp, { force: true })
    }
  }

  async putBuffer(data: Buffer): Promise<BlobInfo> {
    const hash = createHash('sha256').update(data).digest('hex')
    const target = this.pathOf(hash)
    await fs.mkdir(path.dirname(target), { recursive: true })
    if (!(await this.has(hash))) {
      const temp = `${target}.${randomBytes(6).toString('hex')}`
      await fs.writeFile(temp, data)
      await fs.rename(temp, target)
    }
    return { hash, size: data.length }
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
