/**
 * wrk, the HTTP load generator of every throughput figure (docs/operations.md#benchmarks): one run,
 * parsed into requests per second, latency percentiles and error counts.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const WRK = '/usr/bin/wrk'
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits

export interface WrkResult {
  rps: number
  requests: number
  errors: number
  transferPerSec: string
  p50ms: number
  p99ms: number
  /**
   * CPU time the server under test spent per answered request (user + system, µs), when the run was
   * given a `cpu` reader. Unlike requests per second it hardly moves with what else the machine is
   * doing, so it compares two servers fairly on a busy machine.
   */
  cpuUsPerRequest?: number
}

/** Cumulative CPU time (µs) of this process: for a server running inside the bench. */
export const ownCpu = (): number => {
  const usage = process.cpuUsage()
  return usage.user + usage.system
}

/** Cumulative CPU time (µs) of another process, from /proc (clock ticks of 10 ms). */
export function processCpu(pid: number): () => number {
  return () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  }
}

const toMs = (value: string, unit: string) => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1)

export async function wrk(
  url: string,
  opts: { headers?: Record<string, string>; script?: string; seconds?: number; connections?: number; cpu?: () => number } = {},
): Promise<WrkResult> {
  const connections = opts.connections ?? 50
  const args = [`-t${Math.min(2, connections)}`, `-c${connections}`, `-d${opts.seconds ?? 10}s`, '--latency']
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (opts.script) args.push('-s', opts.script)
  args.push(url)
  const cpuBefore = opts.cpu?.()
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, args)
    let text = ''
    child.stdout.on('data', (d) => (text += d))
    child.stderr.on('data', (d) => (text += d))
    child.on('error', reject)
    child.on('close', () => resolve(text))
  })
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN)
  const lat = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(out)
    return m ? round(toMs(m[1]!, m[2]!), 2) : NaN
  }
  const errors = num(/Non-2xx or 3xx responses: (\d+)/) || 0
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const requests = num(/(\d+) requests in/)
  const cpu = opts.cpu && cpuBefore !== undefined ? { cpuUsPerRequest: round((opts.cpu() - cpuBefore) / requests, 1) } : {}
  return {
    rps: Math.round(num(/Requests\/sec:\s+([\d.]+)/)),
    requests,
    errors: errors + (socketErrors ? socketErrors.slice(1).map(Number).reduce((a, b) => a + b, 0) : 0),
    transferPerSec: /Transfer\/sec:\s+(\S+)/.exec(out)?.[1] ?? '?',
    p50ms: lat('50'),
    p99ms: lat('99'),
    ...cpu,
  }
}

/** One request of a rotation: each player's own cookie and path, in turn. */
export interface ScriptedRequest {
  token: string
  path: string
  method?: 'GET' | 'POST'
  body?: string
}

/**
 * A wrk Lua script that sends `requests` round-robin (signed in with each one's session cookie,
 * gzip accepted like a browser), written to a temporary file; `remove()` deletes it.
 */
export async function rotationScript(requests: ScriptedRequest[]): Promise<{ file: string; remove: () => Promise<void> }> {
  const file = path.join(os.tmpdir(), `flagwave-bench-${randomBytes(4).toString('hex')}.lua`)
  const lua = (s: string) => JSON.stringify(s)
  const rows = requests.map((r) => `{${lua(r.method ?? 'GET')},${lua(r.path)},${lua(r.token)},${r.body === undefined ? 'nil' : lua(r.body)}}`)
  await fs.writeFile(
    file,
    `local rows = {${rows.join(',\n')}}
local n = 0
request = function()
  n = n + 1
  local r = rows[(n % #rows) + 1]
  local headers = { ["Cookie"] = "GZCTF_Token=" .. r[3], ["Accept-Encoding"] = "gzip" }
  if r[4] then headers["Content-Type"] = "application/json" end
  return wrk.format(r[1], r[2], headers, r[4])
end
`,
  )
  return { file, remove: () => fs.rm(file, { force: true }) }
}

/** Start the bare Koa baseline process (tests/bench/bareKoa.ts), optionally serving `bytes`. */
export async function startBareKoa(bytes: { json?: string; gzip?: Buffer } = {}): Promise<{ url: string; cpu: () => number; stop: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-bare-'))
  const env: Record<string, string> = { ...(process.env as Record<string, string>) }
  if (bytes.json !== undefined) await fs.writeFile((env.BARE_JSON = path.join(dir, 'body.json')), bytes.json)
  if (bytes.gzip) await fs.writeFile((env.BARE_GZIP = path.join(dir, 'body.gz')), bytes.gzip)
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'bareKoa.ts')], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).trim()))
    child.once('exit', (code) => reject(new Error(`bare Koa exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/`,
    cpu: processCpu(child.pid!),
    stop: async () => {
      child.kill()
      await fs.rm(dir, { recursive: true, force: true })
    },
  }
}
