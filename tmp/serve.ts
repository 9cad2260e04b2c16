import pino from 'pino'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import fs from 'node:fs/promises'
import path from 'node:path'
import { loadConfig } from '../server/src/config.js'
import { startServer } from '../server/src/server.js'
import { createDatabaseOn } from '../server/src/db/scratch.js'
import { nativePool } from '../server/src/db/pg.js'
import { smallDataSet } from '../tests/bench/data.js'
const name = `flagwave_s_${randomBytes(4).toString('hex')}`
const url = await createDatabaseOn(process.env.DATABASE_URL!, name)
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fs-'))
const config = loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '4999', DATA_DIR: dataDir, DATABASE_URL: url, ADMIN_PASSWORD: 'Bench#Passw0rd', LOG_LEVEL: 'silent', DISABLE_RATE_LIMIT: 'true' })
const server = await startServer(config, pino({ level: 'silent' }))
const pool = await nativePool(server.services.orm)
const game = await smallDataSet(pool)
await server.services.scoreboard.rebuild(game.gameId)
await fs.writeFile('/tmp/serve.json', JSON.stringify({ url: server.url, game: game.gameId, token: game.teams[0]!.token, db: name }))
console.log('ready')
