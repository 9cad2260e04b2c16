import { defineEntity, p } from '@mikro-orm/core'
import { Game } from './Game.js'
import { User } from './User.js'
import { Participation } from './Participation.js'

/** A user registered to play a game through one participation ("UserParticipation" in GZ::CTF). */
export const RegistrationSchema = defineEntity({
  name: 'Registration',
  tableName: 'registrations',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    participation: () => p.manyToOne(Participation).deleteRule('cascade').index(),
  },
  uniques: [{ properties: ['user', 'game'] }],
})
export class Registration extends RegistrationSchema.class {}
RegistrationSchema.setClass(Registration)
