/**
 * A Flagwave node in a child process — for tests that must kill a node for real (kill -9,
 * SIGTERM) or run several nodes side by side on one database and one Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../server/src/db/embedded.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface NodeProcess {
  url: string
  port: number
  child: ChildProcess
  output: () => string
  /** SIGKILL, no cleanup at all. */
  kill9(): Promise<void>
  /** SIGTERM and wait for a graceful exit; resolves with the exit code. */
  terminate(): Promise<number | null>
}

export async function startNodeProcess(env: Record<string, string>): Promise<NodeProcess> {
  const port = await freePort()
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), DISABLE_RATE_LIMIT: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node exited early (${child.exitCode}):\n${output}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`node did not come up:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    port,
    child,
    output: () => output,
    async kill9() {
      child.kill('SIGKILL')
      await exited
    },
    async terminate() {
      child.kill('SIGTERM')
      return exited
    },
  }
}
