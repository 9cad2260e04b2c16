import { defineEntity, p } from '@mikro-orm/core'
import { EventType } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { User } from './User.js'
import { Team } from './Team.js'

export const GameEventSchema = defineEntity({
  name: 'GameEvent',
  tableName: 'events',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    type: p.enum(EventType),
    content: p.text(),
    publishTime: p.datetime(),
    user: () => p.manyToOne(User).nullable().deleteRule('set null'),
    team: () => p.manyToOne(Team).nullable().deleteRule('set null'),
  },
  indexes: [{ properties: ['game', 'publishTime'] }],
})
export class GameEvent extends GameEventSchema.class {}
GameEventSchema.setClass(GameEvent)
