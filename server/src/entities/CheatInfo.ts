import { defineEntity, p } from '@mikro-orm/core'
import { Game } from './Game.js'
import { Submission } from './Submission.js'
import { Participation } from './Participation.js'

/** A submitted answer that equals another team's dynamic flag. */
export const CheatInfoSchema = defineEntity({
  name: 'CheatInfo',
  tableName: 'cheat_infos',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade').index(),
    submission: () => p.manyToOne(Submission).deleteRule('cascade'),
    submitTeam: () => p.manyToOne(Participation).deleteRule('cascade'),
    sourceTeam: () => p.manyToOne(Participation).deleteRule('cascade'),
  },
})
export class CheatInfo extends CheatInfoSchema.class {}
CheatInfoSchema.setClass(CheatInfo)
