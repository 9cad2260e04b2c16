import { defineEntity, p } from '@mikro-orm/core'
import { ChallengeTag, ChallengeType } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { Attachment } from './Attachment.js'
import type { CostedHint } from '@flagwave/shared/schemas/challengeRules'

export const ChallengeSchema = defineEntity({
  name: 'Challenge',
  tableName: 'challenges',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade').index(),
    title: p.string().length(128),
    content: p.text().default(''),
    tag: p.enum(ChallengeTag).default('Misc'),
    type: p.enum(ChallengeType).default('StaticAttachment'),
    hints: p.array().default([]),
    flagTemplate: p.string().length(128).nullable(),
    isEnabled: p.boolean().default(false),
    acceptedCount: p.integer().default(0),
    fileName: p.string().length(256).default('attachment'),
    attachment: () => p.manyToOne(Attachment).nullable().deleteRule('set null'),
    containerImage: p.string().length(256).default(''),
    memoryLimit: p.integer().default(64),
    cpuCount: p.integer().default(1),
    storageLimit: p.integer().default(256),
    containerExposePort: p.integer().default(80),
    enableTrafficCapture: p.boolean().default(false),
    originalScore: p.integer().default(500),
    minScoreRate: p.double().default(0.25),
    difficulty: p.double().default(5),
    // Challenge rules (docs/challenge-rules.md): opening time, last submission time, attempts per team (0 = unlimited).
    releaseTimeUtc: p.datetime().nullable(),
    deadlineUtc: p.datetime().nullable(),
    submissionLimit: p.integer().default(0),
    /** Hints that cost points to unlock (docs/challenge-rules.md#costed-hints); ids unique within the challenge. */
    costedHints: p.json<CostedHint[]>().default([]),
    /** Challenges of the same game a team must solve first (docs/challenge-rules.md#prerequisites). */
    prerequisites: p.json<number[]>().default([]),
    /** Whether the board shows a locked challenge's title to the teams it is locked for. */
    lockedTitleVisible: p.boolean().default(true),
  },
})
export class Challenge extends ChallengeSchema.class {}
ChallengeSchema.setClass(Challenge)
