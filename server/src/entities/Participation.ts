import { defineEntity, p } from '@mikro-orm/core'
import { ParticipationStatus } from '@flagwave/shared/enums'
import { Game } from './Game.js'
import { Team } from './Team.js'
import { LocalFile } from './LocalFile.js'
import { Division } from './Division.js'

/** A team's entry in a game (one per team and game). */
export const ParticipationSchema = defineEntity({
  name: 'Participation',
  tableName: 'participations',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    team: () => p.manyToOne(Team).deleteRule('cascade').index(),
    status: p.enum(ParticipationStatus).default('Pending'),
    /** Null in a game without divisions; a division with participations is never deleted (docs/scoring.md#divisions). */
    division: () => p.manyToOne(Division).nullable().deleteRule('restrict').index(),
    /** `{teamId}:{signature}` (docs/compatibility.md#team-token), fixed at creation. */
    token: p.string().length(128),
    writeup: () => p.manyToOne(LocalFile).nullable().deleteRule('set null'),
    writeupTime: p.datetime().nullable(),
    /** The write-up's download name, this team's own (docs/architecture.md#stored-files). */
    writeupName: p.string().length(256).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['game', 'team'] }],
})
export class Participation extends ParticipationSchema.class {}
ParticipationSchema.setClass(Participation)
