import { defineEntity, p } from '@mikro-orm/core'
import { GamePermission } from '@flagwave/shared/enums'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import { Game } from './Game.js'

/**
 * A division of a game (GZ::CTF 1.7; docs/scoring.md#divisions): its own ranking, invite code and
 * permissions. v0.17.6 clients see it as an organization (its name).
 */
export const DivisionSchema = defineEntity({
  name: 'Division',
  tableName: 'divisions',
  properties: {
    id: p.integer().primary(),
    game: () => p.manyToOne(Game).deleteRule('cascade'),
    name: p.string().length(64),
    /** Checked on joining, beside the game's own code; never shown to players. */
    inviteCode: p.string().length(32).nullable(),
    /** `GamePermission` flags for challenges without an override. */
    defaultPermissions: p.integer().default(GamePermission.All),
    /** Per-challenge overrides, ascending challenge id; entries of deleted challenges are ignored. */
    challengeConfigs: p.json<ChallengeConfig[]>(),
  },
  uniques: [{ properties: ['game', 'name'] }],
})
export class Division extends DivisionSchema.class {}
DivisionSchema.setClass(Division)
