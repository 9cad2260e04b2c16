/**
 * Division permissions (GZ::CTF 1.7's `GamePermission` flags; docs/scoring.md#divisions), shared by
 * the server's engine, the checkers, the join rules and the client's board reducer so that all of
 * them read a division's rules the same way. A team without a division has every permission.
 */
import { GamePermission } from './enums.js'

export type GamePermissionName = Exclude<keyof typeof GamePermission, 'All'>

/** A per-challenge override of a division's default permissions. */
export interface ChallengeConfig {
  challengeId: number
  permissions: number
}

export interface DivisionRules {
  id: number
  defaultPermissions: number
  challengeConfigs: readonly ChallengeConfig[]
}

export const hasPermission = (permissions: number, flag: GamePermissionName): boolean => (permissions & GamePermission[flag]) === GamePermission[flag]

/** Permission lookups of one game's divisions, by division id and challenge id. */
export class DivisionPermissions {
  private readonly byId = new Map<number, { defaults: number; configs: Map<number, number> }>()

  constructor(divisions: readonly DivisionRules[]) {
    for (const d of divisions) this.byId.set(d.id, { defaults: d.defaultPermissions, configs: new Map(d.challengeConfigs.map((c) => [c.challengeId, c.permissions])) })
  }

  /** The flags of a division (null: no division, everything) for a challenge, or its defaults without one. */
  of(divisionId: number | null, challengeId?: number): number {
    if (divisionId === null) return GamePermission.All
    const division = this.byId.get(divisionId)
    if (!division) return GamePermission.All
    if (challengeId === undefined) return division.defaults
    return division.configs.get(challengeId) ?? division.defaults
  }

  may(divisionId: number | null, flag: GamePermissionName, challengeId?: number): boolean {
    return hasPermission(this.of(divisionId, challengeId), flag)
  }

}

/** The permissions of a scoreboard's `divisions` (overrides keyed by challenge id there). */
export const boardPermissions = (divisions: readonly { id: number; defaultPermissions: number; challengeConfigs: Record<string, ChallengeConfig> }[]): DivisionPermissions =>
  new DivisionPermissions(divisions.map((d) => ({ id: d.id, defaultPermissions: d.defaultPermissions, challengeConfigs: Object.values(d.challengeConfigs) })))
