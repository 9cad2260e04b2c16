/**
 * MikroORM on PostgreSQL. One ORM per process; each request and each worker job
 * runs in its own forked EntityManager (a request context, docs/architecture.md#request-flow).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MikroORM, defineConfig } from '@mikro-orm/postgresql'
import { Migrator } from '@mikro-orm/migrations'
import type { Logger } from 'pino'
import { entities } from '../entities/index.js'

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations')

function ormConfig(clientUrl: string, log?: Logger) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: true },
    pool: { min: 0, max: 20 },
    debug: false,
    logger: (message) => log?.debug({ orm: message }),
    allowGlobalContext: false,
    forceUtcTimezone: true,
    migrations: {
      path: MIGRATIONS_DIR,
      pathTs: MIGRATIONS_DIR,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      // Diffs are computed against the live schema, so parallel branches never fight over a snapshot file.
      snapshot: false,
      emit: 'ts',
      fileName: (timestamp: string, name?: string) => `Migration${timestamp}${name ? `_${name}` : ''}`,
    },
  })
}

export type Orm = MikroORM

export async function openDatabase(clientUrl: string, log?: Logger): Promise<Orm> {
  return MikroORM.init(ormConfig(clientUrl, log))
}

/** Apply every pending migration (boot and tests). */
export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up()
}
