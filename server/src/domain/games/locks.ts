/**
 * Reference counts of stored files are read and written inside a transaction that holds the
 * file's advisory lock — the same lock (`file:{hash}`) the asset upload takes — so concurrent
 * uploads, attachments and releases of one hash never lose an update. Locks are taken in hash
 * order, so two transactions cannot deadlock on them; they are released at commit.
 */
import type { EntityManager } from '@mikro-orm/postgresql'

export async function lockFiles(em: EntityManager, hashes: (string | null | undefined)[]): Promise<void> {
  const unique = [...new Set(hashes.filter((h): h is string => !!h && /^[0-9a-f]{64}$/.test(h)))].sort()
  for (const hash of unique) await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`file:${hash}`])
}
