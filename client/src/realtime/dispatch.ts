/**
 * App-wide realtime wiring: the tab keeps the user hub open (no game) for platform-wide pushes,
 * dispatches them to stores, and on a reconnection revalidates every query on screen (the REST
 * refetch is how a client that missed events converges, docs/realtime.md#fallback-refresh).
 */
import type { ParticipationUpdate } from '@flagwave/shared/events'
import { GlobalConfig } from '@flagwave/shared/schemas/config'
import type { DetailedGameInfoModel } from '@flagwave/shared/schemas/games'
import { hubs } from './hub'
import { queryClient } from '../api/queryClient'
import { queryKeys } from '../api/queryKeys'
import { gameWithParticipation } from '../live/participation'
import { useSession } from '../stores/session'

/**
 * My participation in a game was reviewed (docs/realtime.md#user-hub-events): whatever page shows
 * the game changes at once. The game info takes the new status from the push (read again only when
 * it did not show my registration yet); the team's board is read again when it became readable and
 * dropped when it no longer is (its page then says why). Requests that left before the push may
 * answer what was true before the review: they are cancelled, not joined.
 */
async function participationReviewed(update: ParticipationUpdate): Promise<void> {
  const key = queryKeys.game.detail(update.gameId)
  await queryClient.cancelQueries({ queryKey: key, exact: true })
  const held = queryClient.getQueryData<DetailedGameInfoModel>(key)
  const next = gameWithParticipation(held, update)
  if (next !== held) queryClient.setQueryData(key, next)
  void queryClient.invalidateQueries({ queryKey: key, exact: true, refetchType: held && held.status !== 'Unsubmitted' ? 'none' : 'active' })
  const board = queryKeys.game.details(update.gameId)
  if (update.status === 'Accepted') void queryClient.invalidateQueries({ queryKey: board, exact: true })
  else void queryClient.resetQueries({ queryKey: board, exact: true })
}

let started = false

export function startRealtime(): () => void {
  if (started) return () => undefined
  started = true
  const offs = [
    hubs.user.hold(),
    hubs.user.on('ReceivedConfigUpdate', (payload) => {
      const parsed = GlobalConfig.safeParse(payload)
      if (parsed.success) queryClient.setQueryData(queryKeys.config, parsed.data)
      else console.warn('[realtime] ReceivedConfigUpdate does not match GlobalConfig', parsed.error.issues)
    }),
    hubs.user.on('ReceivedParticipationUpdate', (update) => void participationReviewed(update)),
    ...(['user', 'monitor', 'admin'] as const).map((name) => hubs[name].onDropped(() => void useSession.getState().refresh().catch(() => undefined))),
    ...(['user', 'monitor', 'admin'] as const).map((name) =>
      hubs[name].onResync((info) => {
        if (!info.reconnect) return
        void queryClient.invalidateQueries({}, { cancelRefetch: false })
        if (name === 'user') void useSession.getState().refresh().catch(() => undefined)
      }),
    ),
  ]
  return () => {
    started = false
    for (const off of offs) off()
  }
}
