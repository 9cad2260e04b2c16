import { defineEntity, p } from '@mikro-orm/core'
import { Participation } from './Participation.js'
import { Challenge } from './Challenge.js'
import { Flag } from './Flag.js'
import { Container } from './Container.js'

/** A team's copy of a challenge: its dynamic flag, its assigned attachment flag and its container. */
export const GameInstanceSchema = defineEntity({
  name: 'GameInstance',
  tableName: 'instances',
  properties: {
    id: p.integer().primary(),
    participation: () => p.manyToOne(Participation).deleteRule('cascade'),
    challenge: () => p.manyToOne(Challenge).deleteRule('cascade').index(),
    /** DynamicAttachment: the flag assigned on first view. */
    flag: () => p.manyToOne(Flag).nullable().deleteRule('set null'),
    /** DynamicContainer: the flag generated from the template on first view. */
    dynamicFlag: p.string().length(128).nullable().index(),
    isLoaded: p.boolean().default(false),
    lastContainerOperation: p.datetime().nullable(),
    container: () => p.oneToOne(Container).nullable().owner().deleteRule('set null'),
  },
  uniques: [{ properties: ['participation', 'challenge'] }],
})
export class GameInstance extends GameInstanceSchema.class {}
GameInstanceSchema.setClass(GameInstance)
