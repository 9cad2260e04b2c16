/**
 * The queries of the game screens. The live ones' fetchers fold the REST answer into what pushes
 * left in the cache meanwhile (see ./reducers.ts), so a request that raced a push does not undo it.
 * A null game id (route parameter not known yet) gives a disabled query.
 */
import { queryOptions, skipToken } from '@tanstack/react-query'
import { gameApi } from '../api/game'
import { queryClient } from '../api/queryClient'
import { queryKeys } from '../api/queryKeys'
import { noticesFromRest, scoreboardFromRest, type LiveScoreboard } from './reducers'

/** Notice id → when it was pushed (client-only, for the REST race window). */
export const noticePushedAt = new Map<number, number>()

export const scoreboardQuery = (gameId: number | null) =>
  queryOptions({
    queryKey: queryKeys.game.scoreboard(gameId ?? 0),
    queryFn:
      gameId === null
        ? skipToken
        : async (): Promise<LiveScoreboard> => {
            const answer = await gameApi.scoreboard(gameId)
            return scoreboardFromRest(queryClient.getQueryData<LiveScoreboard>(queryKeys.game.scoreboard(gameId)), answer)
          },
  })

export const boardQuery = (gameId: number | null) =>
  queryOptions({ queryKey: queryKeys.game.details(gameId ?? 0), queryFn: gameId === null ? skipToken : () => gameApi.details(gameId) })

export const noticesQuery = (gameId: number | null) =>
  queryOptions({
    queryKey: queryKeys.game.notices(gameId ?? 0),
    queryFn:
      gameId === null
        ? skipToken
        : async () => {
            const answer = await gameApi.notices(gameId)
            return noticesFromRest(queryClient.getQueryData(queryKeys.game.notices(gameId)), answer, noticePushedAt)
          },
  })

export const gameQuery = (gameId: number | null) =>
  queryOptions({ queryKey: queryKeys.game.detail(gameId ?? 0), queryFn: gameId === null ? skipToken : () => gameApi.detail(gameId) })

/** The divisions a team may join now (join dialog); only asked for a game that has divisions. */
export const joinCheckQuery = (gameId: number, enabled: boolean) =>
  queryOptions({ queryKey: queryKeys.game.check(gameId), queryFn: enabled ? () => gameApi.check(gameId) : skipToken })

/** The caller's teams (shared with the teams screen, which keeps it live); null when signed out. */
export const myTeamsQuery = (enabled = true) => queryOptions({ queryKey: queryKeys.teams, queryFn: enabled ? () => gameApi.myTeams() : skipToken })
