/**
 * App-wide realtime wiring: the tab keeps the user hub open (no game) for platform-wide pushes,
 * dispatches them to stores, and on a reconnection revalidates every query on screen (the REST
 * refetch is how a client that missed events converges, docs/realtime.md#fallback-refresh).
 */
import { GlobalConfig } from '@flagwave/shared/schemas/config'
import { hubs } from './hub'
import { queryClient } from '../api/queryClient'
import { queryKeys } from '../api/queryKeys'
import { useSession } from '../stores/session'

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
