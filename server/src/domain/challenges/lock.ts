/**
 * The challenge row is the lock of everything hanging off it that a count or a reference depends
 * on: its attachment and its flags (with their attachments). `for no key update` serialises the
 * edits of one challenge without blocking the rows that merely reference it (submissions,
 * instances).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { Challenge } from '../../entities/Challenge.js'

/** The challenge, locked for the rest of the transaction and re-read under the lock. */
export async function lockChallenge(tx: EntityManager, id: number): Promise<Challenge> {
  await tx.execute('select id from challenges where id = ? for no key update', [id])
  return tx.findOneOrFail(Challenge, { id }, { refresh: true })
}
