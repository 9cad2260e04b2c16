import { defineEntity, p } from '@mikro-orm/core'
import { ChallengeTag, ChallengeType } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { Attachment } from './Attachment.js'

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
  },
})
export class Challenge extends ChallengeSchema.class {}
ChallengeSchema.setClass(Challenge)
