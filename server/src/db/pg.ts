/**
 * Raw PostgreSQL access beside the ORM, for set-based statements and explicit transactions (the
 * submission queue, the scoreboard's full rebuild): the ORM's own `pg` pool — same connections,
 * same limits — and its connection string.
 */
import type pg from 'pg'
import type { PostgreSqlConnection } from '@mikro-orm/postgresql'
import type { Orm } from './orm.js'

/** The pool behind the ORM (same connections, same limits), from the ORM or one of its connections. */
export function nativePool(source: Orm | PostgreSqlConnection): Promise<pg.Pool> {
  const connection = 'em' in source ? (source.em.getConnection() as unknown as PostgreSqlConnection) : source
  return connection.getNativeClient() as Promise<pg.Pool>
}

export function databaseUrl(orm: Orm): string {
  return orm.config.get('clientUrl') as string
}

/**
 * Run `fn` in one transaction on a pooled client (READ COMMITTED); `begin` may add `set local`
 * statements and a first parameterless statement, sent in the same round trip: `fn` gets the
 * results of every statement of `begin` (one per `;`-separated statement).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient, opened: pg.QueryResult[]) => Promise<T>, begin = 'begin'): Promise<T> {
  const client = await pool.connect()
  try {
    const opened = (await client.query(begin)) as pg.QueryResult | pg.QueryResult[]
    const result = await fn(client, Array.isArray(opened) ? opened : [opened])
    await client.query('commit')
    return result
  } catch (err) {
    await client.query('rollback').catch(() => undefined)
    throw err
  } finally {
    client.release()
  }
}
