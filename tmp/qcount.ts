import pino from 'pino'
import pg from 'pg'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import fs from 'node:fs/promises'
import path from 'node:path'
import { loadConfig } from '../server/src/config.js'
import { startServer } from '../server/src/server.js'
import { createDatabaseOn, dropDatabaseOn } from '../server/src/db/scratch.js'
import { nativePool } from '../server/src/db/pg.js'
import { smallDataSet } from '../tests/bench/data.js'

const name = `flagwave_q_${randomBytes(4).toString('hex')}`
const url = await createDatabaseOn(process.env.DATABASE_URL!, name)
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fq-'))
const config = loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: url, ADMIN_PASSWORD: 'Bench#Passw0rd', LOG_LEVEL: 'silent', DISABLE_RATE_LIMIT: 'true' })
const server = await startServer(config, pino({ level: 'silent' }))
const pool = await nativePool(server.services.orm)
const game = await smallDataSet(pool)
await server.services.scoreboard.rebuild(game.gameId)
let count = 0
const queries: string[] = []
const orig = pg.Client.prototype.query
;(pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
  count++
  queries.push(String(typeof args[0] === 'string' ? args[0] : args[0]?.text).slice(0, 120).replace(/\s+/g, ' '))
  return (orig as any).apply(this, args)
}
const t = game.teams[0]!
const sub = (await pool.query('select id, challenge_id from submissions where user_id = $1 limit 1', [t.userId])).rows[0]
const calls: [string, string, string?][] = [
  ['GET', `/api/game/${game.gameId}/details`], ['GET', `/api/game/${game.gameId}/notices`], ['GET', '/api/game'], ['GET', `/api/game/${game.gameId}`],
  ['GET', '/api/account/profile'], ['GET', '/api/team'], ['GET', `/api/game/${game.gameId}/challenges/${game.challengeIds[0]}`],
  ['GET', `/api/game/${game.gameId}/challenges/${sub.challenge_id}/status/${sub.id}`], ['GET', '/api/posts/latest'],
  ['POST', `/api/game/${game.gameId}/challenges/${game.challengeIds[1]}`, '{"flag":"flag{nope}"}'],
]
for (const [method, p, body] of calls) {
  const go = () => fetch(server.url + p, { method, headers: { cookie: `GZCTF_Token=${t.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body })
  await go(); await go()
  await new Promise((r) => setTimeout(r, 200))
  count = 0; queries.length = 0
  const res = await go()
  await res.text()
  console.log(method, p, res.status, 'queries:', count)
  for (const q of queries) console.log('    ', q)
}
await server.close()
await dropDatabaseOn(process.env.DATABASE_URL!, name)
process.exit(0)
