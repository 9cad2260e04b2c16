/** Participations (docs/compatibility.md#team-shapes): ParticipationInfoModel for the review list, ParticipationModel for cheat info. */
import type { ParticipationInfoModel, ParticipationModel } from '@flagwave/shared/schemas/teams'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import type { Division } from '../entities/Division.js'
import { presentTeamModel, presentTeamWithDetails } from './teams.js'

/** v0.17.6's organization of a participation: its division's name (`division` must be loaded). */
const organizationOf = (participation: Participation): string | null => (participation.division as Division | null)?.name ?? null

/** `team` must be loaded with its members, `division` loaded; `registeredMembers` are user ids. */
export function presentParticipationInfo(participation: Participation, registeredMembers: string[]): ParticipationInfoModel {
  return {
    id: participation.id,
    team: presentTeamWithDetails(participation.team as Team),
    registeredMembers,
    organization: organizationOf(participation),
    status: participation.status,
    division: organizationOf(participation),
    divisionId: (participation.division as Division | null)?.id ?? null,
  }
}

/** `team` and `division` must be loaded. */
export function presentParticipation(participation: Participation): ParticipationModel {
  return {
    id: participation.id,
    team: presentTeamModel(participation.team as Team),
    status: participation.status,
    organization: organizationOf(participation),
  }
}
