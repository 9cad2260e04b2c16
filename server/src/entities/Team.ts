import { defineEntity, p } from '@mikro-orm/core'
import { User } from './User.js'

export const TeamSchema = defineEntity({
  name: 'Team',
  tableName: 'teams',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(32),
    bio: p.string().length(64).nullable(),
    avatarHash: p.string().length(64).nullable(),
    locked: p.boolean().default(false),
    /** 32 lowercase hex characters; the secret part of the invite code (docs/compatibility.md#team-invite-code). */
    inviteToken: p.string().length(32),
    captain: () => p.manyToOne(User).deleteRule('restrict').index(),
    members: () => p.manyToMany(User).pivotTable('team_members').joinColumn('team_id').inverseJoinColumn('user_id'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
})
export class Team extends TeamSchema.class {}
TeamSchema.setClass(Team)
