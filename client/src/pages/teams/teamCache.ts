/** Local edits of the cached team list (GET /api/team), consistent with the live pushes. */
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'

/** Insert or replace a team (a push may have added it already). */
export function upsertTeam(team: TeamInfoModel): void {
  queryClient.setQueryData<TeamInfoModel[]>(queryKeys.teams, (current) => {
    if (!current) return current
    const exists = current.some((t) => t.id === team.id)
    return exists ? current.map((t) => (t.id === team.id ? team : t)) : [...current, team]
  })
}

export function removeTeam(teamId: number): void {
  queryClient.setQueryData<TeamInfoModel[]>(queryKeys.teams, (current) => current?.filter((t) => t.id !== teamId))
}
