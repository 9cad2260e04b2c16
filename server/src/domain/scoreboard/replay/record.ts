/**
 * The record of score-changing edits a replay honours (docs/scoring.md#replay): before an edit that
 * changes a challenge's scoring fields or the game's blood bonus commits, the values in force until
 * then are written to `score_edits`, in the edit's own transaction (so a rolled-back edit leaves no row).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { ScoringFields } from '../../challenges/scores.js'

/** A challenge's scoring fields as they stood before an edit at `at`. */
export async function recordChallengeEdit(tx: EntityManager, gameId: number, challengeId: number, before: ScoringFields, at: Date): Promise<void> {
  await tx.execute(
    `insert into score_edits (game_id, challenge_id, edited_at, original_score, min_score_rate, difficulty, is_enabled) values (?, ?, ?, ?, ?, ?, ?)`,
    [gameId, challengeId, at, before.originalScore, Number(before.minScoreRate), Number(before.difficulty), before.isEnabled],
    'run',
  )
}

/** The game's blood bonus as it stood before an edit at `at`. */
export async function recordBloodBonusEdit(tx: EntityManager, gameId: number, before: number, at: Date): Promise<void> {
  await tx.execute(`insert into score_edits (game_id, challenge_id, edited_at, blood_bonus) values (?, null, ?, ?)`, [gameId, at, before], 'run')
}
