import { defineEntity, p } from '@mikro-orm/core'
import { NoticeType } from '@flagwave/shared/enums'
import { Game } from './Game.js'

export const GameNoticeSchema = defineEntity({
  name: 'GameNotice',
  tableName: 'notices',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade').index(),
    type: p.enum(NoticeType).default('Normal'),
    content: p.text(),
    publishTime: p.datetime(),
  },
})
export class GameNotice extends GameNoticeSchema.class {}
GameNoticeSchema.setClass(GameNotice)
