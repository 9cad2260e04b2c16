import { defineEntity, p } from '@mikro-orm/core'
import { Game } from './Game.js'
import { Challenge } from './Challenge.js'

/**
 * One score-changing edit, kept for replays (docs/scoring.md#replay): the values that were in force
 * until `editedAt` — a challenge's scoring fields (`challenge` set) or the game's blood bonus
 * (`challenge` null). Null fields were not part of that edit. Written by domain/scoreboard/replay/record.ts.
 */
export const ScoreEditSchema = defineEntity({
  name: 'ScoreEdit',
  tableName: 'score_edits',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    challenge: () => p.manyToOne(Challenge).deleteRule('cascade').nullable(),
    editedAt: p.datetime(),
    originalScore: p.integer().nullable(),
    minScoreRate: p.double().nullable(),
    difficulty: p.double().nullable(),
    isEnabled: p.boolean().nullable(),
    bloodBonus: p.bigint('number').nullable(),
  },
  indexes: [{ properties: ['game', 'editedAt'] }],
})
class ScoreEdit extends ScoreEditSchema.class {}
ScoreEditSchema.setClass(ScoreEdit)
