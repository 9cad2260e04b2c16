import { defineEntity, p } from '@mikro-orm/core'
import { AnswerResult } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { Challenge } from './Challenge.js'
import { Participation } from './Participation.js'
import { User } from './User.js'

/**
 * A flag submission. Rows in status FlagSubmitted are the durable checking queue (docs/scoring.md#submission-queue):
 * checkers claim them with FOR UPDATE SKIP LOCKED, so nothing accepted is ever lost.
 */
export const SubmissionSchema = defineEntity({
  name: 'Submission',
  tableName: 'submissions',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    challenge: () => p.manyToOne(Challenge).deleteRule('cascade'),
    participation: () => p.manyToOne(Participation).deleteRule('cascade'),
    user: () => p.manyToOne(User).nullable().deleteRule('set null'),
    answer: p.string().length(128),
    status: p.enum(AnswerResult).default('FlagSubmitted'),
    submitTime: p.datetime(),
    /** The submitter's client address (lib/clientAddress.ts: validated, forwarded only by a trusted proxy). */
    ip: p.string().length(64).default(''),
    settledAt: p.datetime().nullable(),
  },
  indexes: [
    { properties: ['game', 'submitTime'] },
    { properties: ['challenge', 'participation', 'status'] },
    { name: 'submissions_pending_idx', properties: ['id'], where: { status: 'FlagSubmitted' } },
  ],
})
export class Submission extends SubmissionSchema.class {}
SubmissionSchema.setClass(Submission)
