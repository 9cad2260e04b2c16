/** Local edits of the cached team list (GET /api/team), consistent with the live pushes. */
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { getCachedData, setCachedData } from '../../api/cache'
import { TEAMS_KEY } from '../../api/teams'

/** Insert or replace a team (a push may have added it already). */
export function upsertTeam(team: TeamInfoModel): void {
  const current = getCachedData<TeamInfoModel[]>(TEAMS_KEY)
  if (!current) return
  const exists = current.some((t) => t.id === team.id)
  setCachedData<TeamInfoModel[]>(TEAMS_KEY, exists ? current.map((t) => (t.id === team.id ? team : t)) : [...current, team])
}

export function removeTeam(teamId: number): void {
  const current = getCachedData<TeamInfoModel[]>(TEAMS_KEY)
  if (!current) return
  setCachedData<TeamInfoModel[]>(TEAMS_KEY, current.filter((t) => t.id !== teamId))
}
