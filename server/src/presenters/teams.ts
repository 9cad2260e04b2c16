/** Team entities → contract shapes (docs/compatibility.md#team-shapes). */
import type { TeamInfoModel, TeamModel, TeamUserInfoModel, TeamWithDetailedUserInfo } from '@flagwave/shared/schemas/teams'
import type { Team } from '../entities/Team.js'
import type { User } from '../entities/User.js'
import { avatarUrl } from '../lib/assetUrls.js'
import { presentProfile } from './users.js'

const captainId = (team: Team): string => team.captain.id

/** Members in a stable order: the captain first, then by user name. */
function sortedMembers(team: Team): User[] {
  const captain = captainId(team)
  return [...team.members.getItems()].sort((a, b) => (a.id === captain ? -1 : b.id === captain ? 1 : a.userName.localeCompare(b.userName) || a.id.localeCompare(b.id)))
}

function presentTeamMember(user: User, team: Team): TeamUserInfoModel {
  return { id: user.id, userName: user.userName, bio: user.bio ?? '', avatar: avatarUrl(user.avatarHash), captain: user.id === captainId(team) }
}

/** TeamInfoModel with `members`; the team's `members` collection must be loaded. */
export function presentTeamInfo(team: Team): TeamInfoModel {
  return {
    id: team.id,
    name: team.name,
    bio: team.bio ?? null,
    avatar: avatarUrl(team.avatarHash),
    locked: team.locked,
    members: sortedMembers(team).map((m) => presentTeamMember(m, team)),
  }
}

export function presentTeamModel(team: Team): TeamModel {
  return { id: team.id, name: team.name, avatar: avatarUrl(team.avatarHash) }
}

/** TeamWithDetailedUserInfo (participation reviews); the team's `members` collection must be loaded. */
export function presentTeamWithDetails(team: Team): TeamWithDetailedUserInfo {
  return {
    id: team.id,
    name: team.name,
    bio: team.bio ?? null,
    avatar: avatarUrl(team.avatarHash),
    locked: team.locked,
    captainId: captainId(team),
    members: sortedMembers(team).map(presentProfile),
  }
}
