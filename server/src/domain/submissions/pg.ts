/**
 * The channels of the submission queue. The raw PostgreSQL helpers this file held live in db/
 * (db/pg.ts, db/dedicatedConnection.ts); they are re-exported here for the importers that have
 * not moved yet.
 */
export { DedicatedConnection, type DedicatedConnectionOptions } from '../../db/dedicatedConnection.js'
export { databaseUrl, inTransaction, nativePool } from '../../db/pg.js'
export { SOLVE_CHANNEL } from '../scoreboard/solveChannel.js'

/** Queued submissions wake the checkers (CONTRACT-independent; DESIGN §6). */
export const SUBMISSION_CHANNEL = 'flagwave_submissions'
