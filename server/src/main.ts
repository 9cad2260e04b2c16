/**
 * Boot a Flagwave node: config → database (embedded or URL) → migrations → services →
 * HTTP + Socket.IO → workers. SIGTERM/SIGINT shut down gracefully.
 */
import { ConfigError, loadConfig } from './config.js'
import { createLogger } from './services.js'
import { startServer } from './server.js'

let config
try {
  config = loadConfig()
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(2)
  }
  throw err
}

const log = createLogger(config)
const server = await startServer(config, log)

if (server.adminPassword) {
  const line = '='.repeat(64)
  console.log(`\n${line}\n  Flagwave created the administrator account on first boot.\n  user name: Admin\n  password:  ${server.adminPassword}\n  (shown once; set ADMIN_PASSWORD to choose it yourself)\n${line}\n`)
}
log.info({ url: `http://localhost:${server.port}`, database: config.embeddedDatabase ? 'embedded' : 'external', redis: Boolean(config.REDIS_URL) }, 'Flagwave is listening')

let stopping = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    server
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      })
  })
}
