/**
 * `npm run db:migration:create [name]`: writes a migration with the difference between the
 * entities and the schema that the existing migrations produce, on a scratch database.
 */
import pino from 'pino'
import { migrate, openDatabase } from '../db/orm.js'
import { scratchDatabase } from '../db/scratch.js'

const log = pino({ level: 'info' })
const scratch = await scratchDatabase(log)
try {
  const orm = await openDatabase(scratch.url, log)
  await migrate(orm)
  const result = await orm.migrator.create(undefined, false, false, process.argv[2])
  log.info({ file: result.fileName || '(none: schema is up to date)' }, 'migration created')
  await orm.close()
} finally {
  await scratch.drop()
}
