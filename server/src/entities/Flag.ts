import { defineEntity, p } from '@mikro-orm/core'
import { Challenge } from './Challenge.js'
import { Attachment } from './Attachment.js'

/** A static flag, or one dynamic-attachment flag with its own attachment ("FlagContext" in GZ::CTF). */
export const FlagSchema = defineEntity({
  name: 'Flag',
  tableName: 'flags',
  properties: {
    id: p.integer().primary(),
    challenge: () => p.manyToOne(Challenge).deleteRule('cascade').index(),
    flag: p.string().length(128),
    attachment: () => p.manyToOne(Attachment).nullable().deleteRule('set null'),
    /** A dynamic-attachment flag handed to a team is never handed to another. */
    isOccupied: p.boolean().default(false),
  },
})
export class Flag extends FlagSchema.class {}
FlagSchema.setClass(Flag)
