/** Participations (docs/compatibility.md#team-shapes): ParticipationInfoModel for the review list, ParticipationModel for cheat info. */
import type { ParticipationInfoModel, ParticipationModel } from '@flagwave/shared/schemas/teams'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import { presentTeamModel, presentTeamWithDetails } from './teams.js'

/** `team` must be loaded with its members; `registeredMembers` are user ids. */
export function presentParticipationInfo(participation: Participation, registeredMembers: string[]): ParticipationInfoModel {
  return {
    id: participation.id,
    team: presentTeamWithDetails(participation.team as Team),
    registeredMembers,
    organization: participation.organization ?? null,
    status: participation.status,
    division: participation.organization ?? null,
    divisionId: null,
  }
}

/** `team` must be loaded. */
export function presentParticipation(participation: Participation): ParticipationModel {
  return {
    id: participation.id,
    team: presentTeamModel(participation.team as Team),
    status: participation.status,
    organization: participation.organization ?? null,
  }
}
