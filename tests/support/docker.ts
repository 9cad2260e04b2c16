/**
 * The Docker side of the container tests: the engine from DOCKER_HOST, and the tiny challenge
 * image built without any registry — a root filesystem of Debian's static busybox
 * (`/bin/busybox`, package busybox-static) imported with the Engine API (`docker import`).
 *
 * The image serves TCP on port 8080 with `busybox nc -ll -e /serve.sh`: every connection first
 * reads `flag: $GZCTF_FLAG`, then each line it sends comes back as `echo: <line>`.
 * Building is idempotent: the tag is derived from the content, so a second call (or a
 * parallel test file) finds the image and does nothing.
 */
import fs from 'node:fs'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import Docker from 'dockerode'

const TEST_IMAGE_REPO = 'flagwave-test-challenge'
export const TEST_IMAGE_PORT = 8080
const BUSYBOX = '/bin/busybox'

const SERVE_SCRIPT = `#!/bin/sh
echo "flag: $GZCTF_FLAG"
while read -r line; do
  echo "echo: $line"
done
`
const START_SCRIPT = `#!/bin/sh
exec /bin/busybox nc -ll -p ${TEST_IMAGE_PORT} -e /serve.sh
`
const APPLETS = ['sh', 'nc', 'cat', 'echo', 'sleep', 'env', 'ls']

/** DOCKER_HOST as dockerode options (unix:// or tcp://); the platform parses it the same way. */
function dockerOptions(host = process.env.DOCKER_HOST): Docker.DockerOptions {
  if (!host) return { socketPath: '/var/run/docker.sock' }
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) }
  const url = new URL(host.replace(/^tcp:/, 'http:'))
  return { host: url.hostname, port: Number(url.port || 2375), protocol: 'http' }
}

export function testDocker(): Docker {
  return new Docker({ ...dockerOptions(), timeout: 60_000 })
}

export interface DockerAvailability {
  ok: boolean
  reason?: string
}

/**
 * Whether the engine answers. Container tests call this first: without an engine they fail
 * when CI is set and are skipped (with this reason printed) otherwise.
 */
export async function dockerAvailable(): Promise<DockerAvailability> {
  if (!fs.existsSync(BUSYBOX)) return { ok: false, reason: `${BUSYBOX} is missing (install Debian's busybox-static)` }
  try {
    await Promise.race([testDocker().ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('ping timed out')), 5000))])
    return { ok: true }
  } catch (err) {
    return { ok: false, reason: `Docker engine at ${process.env.DOCKER_HOST ?? '/var/run/docker.sock'} is unreachable: ${(err as Error).message}` }
  }
}

/** Skip (locally) or fail (CI) the calling suite when the engine is missing. */
export async function requireDocker(): Promise<boolean> {
  const availability = await dockerAvailable()
  if (availability.ok) return true
  if (process.env.CI) throw new Error(`container tests need Docker on CI: ${availability.reason}`)
  console.warn(`[containers] skipping container tests: ${availability.reason}`)
  return false
}

// ---- a minimal ustar writer (files and symlinks are all we need) ---------------------------

interface TarEntry {
  name: string
  mode: number
  data?: Buffer
  linkTo?: string
  dir?: boolean
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

function tarHeader(entry: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512, 0)
  h.write(entry.name, 0, 100, 'utf8')
  h.write(octal(entry.mode, 8), 100, 8, 'ascii')
  h.write(octal(0, 8), 108, 8, 'ascii')
  h.write(octal(0, 8), 116, 8, 'ascii')
  h.write(octal(size, 12), 124, 12, 'ascii')
  h.write(octal(Math.floor(Date.UTC(2024, 0, 1) / 1000), 12), 136, 12, 'ascii')
  h.fill(' ', 148, 156)
  h.write(entry.linkTo ? '2' : entry.dir ? '5' : '0', 156, 1, 'ascii')
  if (entry.linkTo) h.write(entry.linkTo, 157, 100, 'utf8')
  h.write('ustar\0', 257, 6, 'ascii')
  h.write('00', 263, 2, 'ascii')
  let sum = 0
  for (const byte of h) sum += byte
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii')
  return h
}

function buildTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = []
  for (const entry of entries) {
    const data = entry.data ?? Buffer.alloc(0)
    parts.push(tarHeader(entry, entry.linkTo || entry.dir ? 0 : data.length))
    if (!entry.linkTo && !entry.dir && data.length) {
      parts.push(data, Buffer.alloc((512 - (data.length % 512)) % 512, 0))
    }
  }
  parts.push(Buffer.alloc(1024, 0))
  return Buffer.concat(parts)
}

function rootfs(): Buffer {
  return buildTar([
    { name: 'bin/', mode: 0o755, dir: true },
    { name: 'tmp/', mode: 0o1777, dir: true },
    { name: 'bin/busybox', mode: 0o755, data: fs.readFileSync(BUSYBOX) },
    ...APPLETS.map((a) => ({ name: `bin/${a}`, mode: 0o777, linkTo: '/bin/busybox' })),
    { name: 'serve.sh', mode: 0o755, data: Buffer.from(SERVE_SCRIPT) },
    { name: 'start.sh', mode: 0o755, data: Buffer.from(START_SCRIPT) },
  ])
}

let built: Promise<string> | null = null

/** Build (once) and return the test image's name, e.g. `flagwave-test-challenge:3f2a9c01b4de`. */
export function ensureTestImage(docker: Docker = testDocker()): Promise<string> {
  built ??= (async () => {
    const tar = rootfs()
    const tag = createHash('sha256').update(tar).update(START_SCRIPT).digest('hex').slice(0, 12)
    const name = `${TEST_IMAGE_REPO}:${tag}`
    try {
      await docker.getImage(name).inspect()
      return name
    } catch {
      // not there yet: import it
    }
    const stream = await docker.importImage(Readable.from([tar]), {
      repo: TEST_IMAGE_REPO,
      tag,
      changes: 'CMD ["/start.sh"]',
    })
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (err: Error | null, output: { error?: string }[]) => {
        const failed = output?.find((o) => o.error)
        if (err || failed) reject(err ?? new Error(failed!.error))
        else resolve()
      })
    })
    await docker.getImage(name).inspect()
    return name
  })()
  built.catch(() => {
    built = null
  })
  return built
}

/** Remove every container carrying this label value (tests clean up what they started). */
export async function removeLabelled(docker: Docker, label: string, value: string): Promise<number> {
  const list = await docker.listContainers({ all: true, filters: { label: [`${label}=${value}`] } })
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)))
  return list.length
}
