/**
 * `useReveal(gameId)` — the staged reveal's shared state (docs/scoring.md#staged-reveal): read
 * once, then followed through `ReceivedRevealUpdate` in the game's room; every (re)connection
 * refetches it (steps may have been taken meanwhile), and while the socket is down the query
 * polls, so a screen that lost the network catches up and never goes blank (the last state stays).
 */
import { useCallback } from 'react'
import { queryOptions } from '@tanstack/react-query'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { revealApi, revealKey } from '../api/reveal'
import { queryClient, refetchIfShown } from '../api/queryClient'
import { useLiveQuery } from '../api/useLiveQuery'
import { useGameRoom } from '../realtime/hooks'

const revealQuery = (gameId: number | null) =>
  queryOptions({
    queryKey: revealKey(gameId ?? 0),
    queryFn: () => revealApi.state(gameId!),
    enabled: gameId !== null,
    staleTime: Infinity,
  })

export function useReveal(gameId: number | null) {
  const { connected } = useGameRoom(gameId, {
    events: {
      ReceivedRevealUpdate: (state) => {
        if (state.gameId === gameId) queryClient.setQueryData<RevealState>(revealKey(state.gameId), state)
      },
    },
    onResync: () => {
      if (gameId !== null) void refetchIfShown(revealKey(gameId))
    },
  })
  const query = useLiveQuery(revealQuery(gameId), connected)
  /** Take an answer of the admin's controls as the new state at once (the push follows). */
  const accept = useCallback((state: RevealState) => queryClient.setQueryData<RevealState>(revealKey(state.gameId), state), [])
  return { state: query.data ?? null, error: query.error, connected, accept }
}
