/**
 * Where stored files and traffic captures live, from STORAGE_URL (docs/operations.md#object-storage):
 * a directory (the default, `DATA_DIR`), or an S3-compatible bucket
 * `s3://ACCESS:SECRET@host[:port]/bucket[/prefix]?region=…&pathStyle=true&tls=false`.
 * Parsed without the SDK so that the configuration can check it at boot.
 */
import path from 'node:path'

export interface S3Location {
  kind: 's3'
  /** `http(s)://host:port` of the S3 API. */
  endpoint: string
  bucket: string
  /** Key prefix inside the bucket, empty or ending in `/`. */
  prefix: string
  region: string
  /** Bucket in the path (`host/bucket/key`), which most self-hosted servers need, rather than in the host name. */
  forcePathStyle: boolean
  accessKeyId: string
  secretAccessKey: string
}

export type StorageLocation = { kind: 'directory'; root: string } | S3Location

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const KNOWN_PARAMETERS = new Set(['region', 'pathStyle', 'tls'])

const flag = (value: string | null, fallback: boolean): boolean | null => {
  if (value === null || value === '') return fallback
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  return null
}

/** Parse STORAGE_URL (absent: `dataDir`); `problems` lists everything wrong, without the secret. */
export function parseStorageUrl(value: string | undefined, dataDir: string): { location: StorageLocation | null; problems: string[] } {
  if (!value || !/^s3:\/\//i.test(value)) return { location: { kind: 'directory', root: path.resolve(value || dataDir) }, problems: [] }
  const problems: string[] = []
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { location: null, problems: ['not a valid s3:// URL'] }
  }
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/')
  const prefix = rest.filter(Boolean).join('/')
  if (!url.hostname) problems.push('the S3 host is missing')
  if (!BUCKET.test(bucket)) problems.push('the bucket (first path segment) is missing or not a valid bucket name')
  if (!url.username || !url.password) problems.push('the access key and secret (s3://ACCESS:SECRET@host/bucket) are missing')
  for (const key of url.searchParams.keys()) if (!KNOWN_PARAMETERS.has(key)) problems.push(`unknown parameter "${key}" (known: region, pathStyle, tls)`)
  const pathStyle = flag(url.searchParams.get('pathStyle'), false)
  const tls = flag(url.searchParams.get('tls'), true)
  if (pathStyle === null) problems.push('pathStyle must be true or false')
  if (tls === null) problems.push('tls must be true or false')
  if (problems.length > 0) return { location: null, problems }
  return {
    location: {
      kind: 's3',
      endpoint: `${tls ? 'https' : 'http'}://${url.host}`,
      bucket,
      prefix: prefix ? `${prefix}/` : '',
      region: url.searchParams.get('region') || 'us-east-1',
      forcePathStyle: pathStyle!,
      accessKeyId: decodeURIComponent(url.username),
      secretAccessKey: decodeURIComponent(url.password),
    },
    problems: [],
  }
}
