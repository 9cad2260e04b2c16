/**
 * `npm run db:migrate`: apply the pending migrations to `DATABASE_URL` and exit. Nodes also
 * migrate at boot; running this first lets an upgrade of several nodes start them all at once
 * (docs/operations.md#upgrades-and-migrations).
 */
import pino from 'pino'
import { migrate, openDatabase } from '../db/orm.js'

const log = pino({ level: 'info' })
const url = process.env.DATABASE_URL
if (!url) {
  log.error('DATABASE_URL is not set: the embedded PostgreSQL migrates when `npm start` boots it')
  process.exit(2)
}
const orm = await openDatabase(url, log)
try {
  await migrate(orm)
  log.info('migrations applied')
} finally {
  await orm.close()
}
