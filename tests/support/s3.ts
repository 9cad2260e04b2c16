/**
 * A real S3-compatible server for the object-storage tests: s3rver (the maintained
 * `@20minutes/s3rver` fork), an in-process Koa server speaking the S3 REST API with signature V4,
 * storing objects under a temporary directory. It accepts the fixed credentials `S3RVER:S3RVER`.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type Koa from 'koa'
import S3rver from '@20minutes/s3rver'

const S3_BUCKET = 'flagwave-test'

export interface TestS3 {
  port: number
  /** STORAGE_URL for this server, keys under `prefix/`. */
  storageUrl(prefix?: string): string
  /** The bytes of an object, or null. */
  object(key: string): Promise<Buffer | null>
  /** Object keys under `prefix` in the bucket. */
  keys(prefix: string): Promise<string[]>
  /** Stop answering (the bucket is unreachable) … */
  stop(): Promise<void>
  /** … and come back on the same port with the same objects. */
  restart(): Promise<void>
  close(): Promise<void>
}

/**
 * s3rver canonicalises a bucket-level request (`HEAD /bucket/`, `GET /bucket/?list-type=2`) as
 * `/bucket`, while current AWS SDKs sign `/bucket/`, so it refuses those signatures. Only for
 * those requests is a signature mismatch tolerated (the access key must still be known); every
 * object request keeps its signature checked.
 */
function tolerateBucketLevelSignatures(server: S3rver): void {
  const app = server as unknown as Koa
  app.middleware.unshift(async (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) ctx.app = Object.create(ctx.app, { allowMismatchedSignatures: { value: true } }) as Koa
    await next()
  })
}

export async function startS3(): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-s3-'))
  const make = (port: number) => {
    const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: S3_BUCKET }] })
    tolerateBucketLevelSignatures(server)
    return server
  }
  let server: S3rver | null = make(0)
  const { port } = await server.run()
  // s3rver keeps an object's bytes in `{bucket}/{key}._S3rver_object`.
  const fileOf = (key: string) => path.join(directory, S3_BUCKET, `${key}._S3rver_object`)
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
    const out: string[] = []
    for (const e of entries) {
      const full = path.join(dir, e.name)
      if (e.isDirectory()) out.push(...(await walk(full)))
      else if (e.name.endsWith('._S3rver_object')) out.push(path.relative(path.join(directory, S3_BUCKET), full).slice(0, -'._S3rver_object'.length))
    }
    return out
  }
  return {
    port,
    storageUrl: (prefix = 'node') => `s3://S3RVER:S3RVER@127.0.0.1:${port}/${S3_BUCKET}/${prefix}?region=us-east-1&pathStyle=true&tls=false`,
    object: (key) => fs.readFile(fileOf(key)).catch(() => null),
    keys: async (prefix) => (await walk(path.join(directory, S3_BUCKET))).filter((k) => k.startsWith(prefix)).sort(),
    stop: async () => {
      await server?.close()
      server = null
    },
    restart: async () => {
      server = make(port)
      await server.run()
    },
    close: async () => {
      await server?.close()
      await fs.rm(directory, { recursive: true, force: true })
    },
  }
}
