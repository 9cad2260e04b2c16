/**
 * The caller's teams, kept live.
 *
 * The list itself is the `GET /api/team` query (`queryKeys.teams`); `ReceivedTeamUpdate`
 * pushes on the user hub (docs/realtime.md#room-moves: members of a team are in its room, a member who leaves or
 * is kicked hears the change in their own room) are folded into that cached list by
 * `applyTeamUpdate`, so every screen that shows it updates without a refetch.
 *
 * The zustand store keeps what the list does not carry: the captain's invite codes (fetched on
 * demand, replaced when regenerated, dropped when the team changes name) and the teams the user
 * is changing right now (their own leave/delete does not need a "you were removed" notice).
 */
import { create } from 'zustand'
import type { TeamUpdate } from '@flagwave/shared/events'
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'

interface TeamsState {
  /** Invite codes by team id, with the team name they were issued for (the code embeds it). */
  invites: Record<number, { code: string; name: string | null }>
  /** Team ids with a local action in flight (leave, delete, self-kick). */
  busy: Record<number, true>
  setInvite: (teamId: number, code: string, name: string | null) => void
  dropInvite: (teamId: number) => void
  setBusy: (teamId: number, busy: boolean) => void
}

export const useTeamsStore = create<TeamsState>((set) => ({
  invites: {},
  busy: {},
  setInvite: (teamId, code, name) => set((state) => ({ invites: { ...state.invites, [teamId]: { code, name } } })),
  dropInvite: (teamId) =>
    set((state) => {
      const { [teamId]: _dropped, ...invites } = state.invites
      return { invites }
    }),
  setBusy: (teamId, busy) =>
    set((state) => {
      const { [teamId]: _previous, ...rest } = state.busy
      return { busy: busy ? { ...rest, [teamId]: true } : rest }
    }),
}))

/** What an update did to the caller's list, for notices. */
export type TeamChangeKind = 'added' | 'updated' | 'removed' | 'deleted' | 'ignored'

/** The team list after `update`, for the user `userId`, and what happened. */
export function applyTeamUpdate(
  teams: TeamInfoModel[] | undefined,
  update: TeamUpdate,
  userId: string | null,
): { teams: TeamInfoModel[] | undefined; kind: TeamChangeKind; previous: TeamInfoModel | undefined } {
  const list = teams ?? []
  const previous = list.find((team) => team.id === update.teamId)
  if (update.team === null) {
    if (!previous) return { teams, kind: 'ignored', previous }
    return { teams: list.filter((team) => team.id !== update.teamId), kind: 'deleted', previous }
  }
  const member = userId !== null && (update.team.members ?? []).some((m) => m.id === userId)
  if (!member) {
    if (!previous) return { teams, kind: 'ignored', previous }
    return { teams: list.filter((team) => team.id !== update.teamId), kind: 'removed', previous }
  }
  if (!previous) return { teams: teams === undefined ? undefined : [...list, update.team], kind: 'added', previous }
  return { teams: list.map((team) => (team.id === update.teamId ? update.team! : team)), kind: 'updated', previous }
}

export const isCaptainOf = (team: TeamInfoModel, userId: string | null | undefined): boolean =>
  !!userId && (team.members ?? []).some((m) => m.id === userId && m.captain)

/** Members with the captain first, then by user name. */
export function sortedMembers(team: TeamInfoModel): NonNullable<TeamInfoModel['members']> {
  return [...(team.members ?? [])].sort((a, b) => Number(b.captain) - Number(a.captain) || a.userName.localeCompare(b.userName))
}
