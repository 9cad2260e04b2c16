import { defineEntity, p } from '@mikro-orm/core'
import { NoticeType } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { Challenge } from './Challenge.js'

export const GameNoticeSchema = defineEntity({
  name: 'GameNotice',
  tableName: 'notices',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade').index(),
    type: p.enum(NoticeType).default('Normal'),
    content: p.text(),
    publishTime: p.datetime(),
    /** The challenge a `NewChallenge` notice announces: the notice goes when the challenge is disabled (docs/compatibility.md#group-edit). */
    challenge: () => p.manyToOne(Challenge).nullable().deleteRule('set null').index(),
  },
})
export class GameNotice extends GameNoticeSchema.class {}
GameNoticeSchema.setClass(GameNotice)
