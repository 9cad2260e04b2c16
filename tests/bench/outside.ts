/**
 * The scoreboard read measured from outside, as an organiser would (docs/operations.md#benchmarks):
 * `npm start` in a process tree of its own with a fresh `DATA_DIR` and `NODE_ENV=production` (the
 * embedded PostgreSQL, the access log on, every worker running), the small data set written into
 * its database, then wrk on the anonymous scoreboard (gzip accepted) beside a separate bare Koa
 * process sending the very same gzip bytes, in alternating rounds, each figure the median of its
 * rounds. The in-process section (`readThroughput` in run.ts) shares the bench's process with the
 * server; this one shares nothing with it but the machine.
 *
 * The data set goes into the database with the bench's own writer (tests/bench/data.ts), not
 * through the API: the rows are the ones the API would write, and the read does not depend on how
 * they got there. The client is not built (`SKIP_CLIENT_BUILD=1`): the API does not serve it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { smallDataSet } from './data.js'
import { processCpu, startBareKoa, wrk, type WrkResult } from './wrk.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

interface Started {
  url: string
  dataDir: string
  /** The server process (a child of `scripts/start.mjs`), for its CPU time. */
  serverPid: number
  stop: () => Promise<void>
}

/** `npm start` as a stranger runs it, on a free port; resolves once `/healthz` answers. */
async function startOutside(): Promise<Started> {
  // A directory the server creates itself, as on a fresh machine (the embedded PostgreSQL runs as its own user).
  const dataDir = path.join(os.tmpdir(), `flagwave-outside-${process.pid}-${Date.now()}`)
  const port = 20000 + Math.floor(Math.random() * 20000)
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: 'Outside#Passw0rd', SKIP_CLIENT_BUILD: '1' }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    if (Date.now() > deadline) throw new Error('npm start did not answer /healthz within 120 s')
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 250))
  }
  const serverPid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0])
  return {
    url,
    dataDir,
    serverPid,
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM')
      await new Promise((r) => child.once('exit', r))
      await fs.rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The small data set into the running server's embedded database; its engine rebuilds on the NOTIFY. */
async function seed(server: Started): Promise<number> {
  const pool = new pg.Pool({
    host: '127.0.0.1',
    port: Number(await fs.readFile(path.join(server.dataDir, 'db.port'), 'utf8')),
    user: 'postgres',
    password: (await fs.readFile(path.join(server.dataDir, 'db.password'), 'utf8')).trim(),
    database: 'flagwave',
    max: 4,
  })
  try {
    const game = await smallDataSet(pool)
    await pool.query(`select pg_notify('flagwave_scoreboard', $1)`, [String(game.gameId)])
    return game.gameId
  } finally {
    await pool.end()
  }
}

/** The board's gzip bytes once it holds every team. */
async function boardBytes(url: string, teams: number): Promise<Buffer> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const res = await fetch(url)
    if (res.ok && ((await res.json()) as { items: unknown[] }).items.length === teams) break
    if (Date.now() > deadline) throw new Error('the board never showed the data set')
    await new Promise((r) => setTimeout(r, 200))
  }
  // fetch inflates: ask with node's http for the bytes as sent.
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => (res.headers['content-encoding'] === 'gzip' ? resolve(Buffer.concat(chunks)) : reject(new Error('the board came back without gzip'))))
    })
      .on('error', reject)
      .end()
  })
}

export async function outsideRead(opts: { rounds: number; seconds: number; log: (line: string) => void }) {
  const server = await startOutside()
  try {
    opts.log('outside: seeding the small data set into npm start…')
    const gameId = await seed(server)
    const url = `${server.url}/api/game/${gameId}/scoreboard`
    const gz = await boardBytes(url, 110)
    const bare = await startBareKoa({ gzip: gz })
    const runs: { flagwave: WrkResult[]; bareSameGzip: WrkResult[] } = { flagwave: [], bareSameGzip: [] }
    try {
      const serverCpu = processCpu(server.serverPid)
      for (let round = 1; round <= opts.rounds; round++) {
        opts.log(`outside: round ${round} of ${opts.rounds}…`)
        runs.flagwave.push(await wrk(url, { headers: { 'Accept-Encoding': 'gzip' }, seconds: opts.seconds, cpu: serverCpu }))
        runs.bareSameGzip.push(await wrk(`${bare.url}gzip`, { seconds: opts.seconds, cpu: bare.cpu }))
      }
    } finally {
      await bare.stop()
    }
    const mid = (list: WrkResult[]) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)]!
    const flagwave = mid(runs.flagwave)
    const bareSameGzip = mid(runs.bareSameGzip)
    return {
      gzipBytes: gz.length,
      flagwave,
      bareSameGzip,
      ratio: Math.round((flagwave.rps / bareSameGzip.rps) * 1000) / 1000,
      cpuRatio: Math.round((bareSameGzip.cpuUsPerRequest! / flagwave.cpuUsPerRequest!) * 1000) / 1000,
      rpsByRound: { flagwave: runs.flagwave.map((r) => r.rps), bareSameGzip: runs.bareSameGzip.map((r) => r.rps) },
    }
  } finally {
    await server.stop()
  }
}
