/**
 * NOTIFY through the ORM's connection: the way one node tells the others (and itself) that
 * something changed, delivered to every session that LISTENs on the channel (db/dedicatedConnection.ts).
 */
import type { Orm } from './orm.js'

export async function notify(orm: Orm, channel: string, payload: string): Promise<void> {
  await orm.em.fork().getConnection().execute('select pg_notify(?, ?)', [channel, payload])
}
