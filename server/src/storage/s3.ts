/**
 * Stored files and traffic captures in an S3-compatible bucket (docs/operations.md#object-storage),
 * so that several nodes need no shared `DATA_DIR`.
 *
 * - Checksums only when an operation requires them: S3-compatible servers other than AWS often
 *   reject the SDK's default trailing CRC32 checksums on streamed uploads.
 * - Staging stays local (the hash is known only once the last byte is read); `place()` uploads
 *   the staged file to `files/{hash}` under the hash's advisory lock, so domain/files/files.ts
 *   keeps its guarantees: bytes exist before their row commits, and are deleted only after the
 *   commit that dropped the last row.
 * - Bodies are streamed both ways; a byte range is asked of the bucket, not cut here.
 * - Any failure other than "no such key" is a StorageUnavailableError (503 for a request).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3'
import type { Logger } from 'pino'
import { stageLocally, StorageUnavailableError, type BlobStore, type ByteRange, type StagedBlob } from './blobStore.js'
import { captureOrder, type CaptureFile, type CaptureRef, type CaptureStore } from './captures.js'
import type { S3Location } from './location.js'

/** How long one S3 call may take before the store counts as unavailable. */
const CONNECT_TIMEOUT_MS = 3_000
const REQUEST_TIMEOUT_MS = 30_000
/** How often captures left in the spool by an outage are uploaded again. */
const CAPTURE_RETRY_MS = 30_000

function createS3Client(location: S3Location): S3Client {
  return new S3Client({
    endpoint: location.endpoint,
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // One retry: a bucket that is down should fail the request in seconds, not hang it.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  })
}

const statusOf = (err: unknown): number | undefined => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode

const isMissing = (err: unknown): boolean => {
  const name = (err as { name?: string }).name
  return statusOf(err) === 404 || name === 'NotFound' || name === 'NoSuchKey'
}

/** Run an S3 call; "no such key" → null, anything else → StorageUnavailableError. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn()
  } catch (err) {
    if (isMissing(err)) return null
    throw new StorageUnavailableError(what, err)
  }
}

const rangeHeader = (range?: ByteRange) => (range ? `bytes=${range.start}-${range.end}` : undefined)

class Bucket {
  constructor(
    readonly client: S3Client,
    readonly location: S3Location,
  ) {}

  key(relative: string): string {
    return `${this.location.prefix}${relative}`
  }

  async head(key: string): Promise<{ size: number; mtime: Date } | null> {
    const head = await call(`HEAD ${key}`, () => this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key })))
    return head ? { size: head.ContentLength ?? 0, mtime: head.LastModified ?? new Date(0) } : null
  }

  async upload(key: string, file: string, size: number): Promise<void> {
    await call(`PUT ${key}`, () =>
      this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size })),
    )
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const object = await call(`GET ${key}`, () => this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key, Range: rangeHeader(range) })))
    if (!object?.Body) throw new StorageUnavailableError(`GET ${key}: no such object`)
    return object.Body as Readable
  }

  async list(prefix: string, delimiter?: string): Promise<{ prefixes: string[]; objects: { key: string; size: number; modified: Date }[] }> {
    const prefixes: string[] = []
    const objects: { key: string; size: number; modified: Date }[] = []
    let token: string | undefined
    do {
      const page: ListObjectsV2CommandOutput | null = await call(`LIST ${prefix}`, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token })),
      )
      for (const p of page?.CommonPrefixes ?? []) if (p.Prefix) prefixes.push(p.Prefix)
      for (const o of page?.Contents ?? []) if (o.Key) objects.push({ key: o.Key, size: o.Size ?? 0, modified: o.LastModified ?? new Date(0) })
      token = page?.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return { prefixes, objects }
  }

  async ready(): Promise<void> {
    const found = await call('HEAD bucket', () => this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket })))
    if (found === null) throw new StorageUnavailableError(`bucket ${this.location.bucket} does not exist`)
  }
}

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly bucket: Bucket,
    private readonly stagingDir: string,
  ) {}

  private keyOf(hash: string): string {
    return this.bucket.key(`files/${hash}`)
  }

  stage(source: Readable | Buffer): Promise<StagedBlob> {
    return stageLocally(this.stagingDir, source)
  }

  async place(blob: StagedBlob): Promise<void> {
    if (!(await this.has(blob.hash))) await this.bucket.upload(this.keyOf(blob.hash), blob.temp, blob.size)
    await this.discard(blob)
  }

  async discard(blob: StagedBlob): Promise<void> {
    await fs.promises.rm(blob.temp, { force: true })
  }

  async has(hash: string): Promise<boolean> {
    return (await this.stat(hash)) !== null
  }

  stat(hash: string): Promise<{ size: number; mtime: Date } | null> {
    return this.bucket.head(this.keyOf(hash))
  }

  open(hash: string, range?: ByteRange): Promise<Readable> {
    return this.bucket.open(this.keyOf(hash), range)
  }

  /**
   * Runs after the commit that dropped the last row: a bucket that is down then leaves the bytes
   * behind, unreferenced (a later upload of the same bytes finds them), rather than failing a
   * change that already happened.
   */
  async remove(hash: string): Promise<boolean> {
    try {
      await this.bucket.client.send(new DeleteObjectCommand({ Bucket: this.bucket.location.bucket, Key: this.keyOf(hash) }))
      return true
    } catch {
      return false
    }
  }

  ready(): Promise<void> {
    return this.bucket.ready()
  }
}

export class S3CaptureStore implements CaptureStore {
  private retry: NodeJS.Timeout | null = null
  /** Spool files the proxy is still writing: never uploaded by a retry. */
  private readonly writing = new Set<string>()

  constructor(
    private readonly bucket: Bucket,
    private readonly spool: string,
    private readonly log: Logger,
    private readonly retryMs: number,
  ) {
    // Captures a previous run could not upload.
    this.scheduleRetry(0)
  }

  private keyOf(ref: CaptureRef): string {
    return this.bucket.key(`captures/${ref.challengeId}/${ref.participationId}/${ref.name}`)
  }

  private fileOf(ref: CaptureRef): string {
    return path.join(this.spool, String(ref.challengeId), String(ref.participationId), ref.name)
  }

  spoolPath(ref: CaptureRef): string {
    const file = this.fileOf(ref)
    this.writing.add(file)
    return file
  }

  async keep(ref: CaptureRef): Promise<void> {
    const file = this.fileOf(ref)
    this.writing.delete(file)
    try {
      const { size } = await fs.promises.stat(file)
      await this.bucket.upload(this.keyOf(ref), file, size)
      await fs.promises.rm(file, { force: true })
    } catch (err) {
      this.log.warn({ err, file }, 'capture upload failed; kept locally and retried')
      this.scheduleRetry(this.retryMs)
    }
  }

  private scheduleRetry(ms: number): void {
    if (this.retry) return
    this.retry = setTimeout(() => {
      this.retry = null
      void this.uploadSpool()
    }, ms)
    this.retry.unref()
  }

  /** Upload every finished capture still in the spool (`{challenge}/{participation}/{name}.pcap`). */
  private async uploadSpool(): Promise<void> {
    const challenges = await fs.promises.readdir(this.spool).catch(() => [] as string[])
    for (const challenge of challenges.filter((c) => /^\d+$/.test(c))) {
      const teams = await fs.promises.readdir(path.join(this.spool, challenge)).catch(() => [] as string[])
      for (const team of teams.filter((t) => /^\d+$/.test(t))) {
        const names = await fs.promises.readdir(path.join(this.spool, challenge, team)).catch(() => [] as string[])
        for (const name of names.filter((n) => n.endsWith('.pcap') && !this.writing.has(path.join(this.spool, challenge, team, n)))) {
          await this.keep({ challengeId: Number(challenge), participationId: Number(team), name })
          if (this.retry) return
        }
      }
    }
  }

  async teams(challengeId: number): Promise<number[]> {
    const prefix = this.bucket.key(`captures/${challengeId}/`)
    const { prefixes } = await this.bucket.list(prefix, '/')
    return prefixes.map((p) => p.slice(prefix.length, -1)).filter((p) => /^\d+$/.test(p)).map(Number)
  }

  async files(challengeId: number, participationId: number): Promise<CaptureFile[] | null> {
    const prefix = this.bucket.key(`captures/${challengeId}/${participationId}/`)
    const { objects } = await this.bucket.list(prefix, '/')
    if (objects.length === 0) return null
    return objects
      .map((o) => ({ name: o.key.slice(prefix.length), size: o.size, modified: o.modified }))
      .filter((f) => f.name.endsWith('.pcap'))
      .sort(captureOrder)
  }

  async stat(ref: CaptureRef): Promise<CaptureFile | null> {
    const head = await this.bucket.head(this.keyOf(ref))
    return head ? { name: ref.name, size: head.size, modified: head.mtime } : null
  }

  open(ref: CaptureRef, range?: ByteRange): Promise<Readable> {
    return this.bucket.open(this.keyOf(ref), range)
  }

  async remove(ref: CaptureRef): Promise<boolean> {
    if (!(await this.stat(ref))) return false
    await this.bucket.client.send(new DeleteObjectCommand({ Bucket: this.bucket.location.bucket, Key: this.keyOf(ref) }))
    return true
  }

  close(): void {
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
  }
}

/** Both stores on one bucket; staging and the capture spool under `dataDir` (or the system's temp directory). */
export function s3Stores(location: S3Location, dataDir: string, log: Logger, captureRetryMs = CAPTURE_RETRY_MS): { blobs: S3BlobStore; captures: S3CaptureStore; close(): void } {
  const client = createS3Client(location)
  const bucket = new Bucket(client, location)
  const local = dataDir || os.tmpdir()
  const captures = new S3CaptureStore(bucket, path.join(local, 'spool', 'captures'), log, captureRetryMs)
  return {
    blobs: new S3BlobStore(bucket, path.join(local, 'spool', 'staging')),
    captures,
    close: () => {
      captures.close()
      client.destroy()
    },
  }
}
