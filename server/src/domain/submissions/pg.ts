/**
 * The channels of the submission queue. The raw PostgreSQL helpers this file held live in db/
 * (db/pg.ts, db/dedicatedConnection.ts); the ones still imported from here are re-exported
 * until their importers move.
 */
export { inTransaction, nativePool } from '../../db/pg.js'
export { SOLVE_CHANNEL } from '../scoreboard/solveChannel.js'

/** Channels of the queue (CONTRACT-independent; DESIGN §6). */
export const SUBMISSION_CHANNEL = 'flagwave_submissions'
