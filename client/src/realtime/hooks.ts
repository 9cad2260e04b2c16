/**
 * React bindings of the realtime layer (./hub.ts).
 *
 * `useGameRoom(gameId, { namespace, events, onResync })` — the generic subscription used by game
 * pages:
 *
 * ```tsx
 * const { connected } = useGameRoom(gameId, {
 *   events: {
 *     ReceivedGameNotice: (notice) => notices.mutate((list = []) => [notice, ...list]),
 *     // a whole board, else a difference or an announced version (useGameLive.ts folds or reads them)
 *     ReceivedScoreboardUpdate: (update) => ('scoreboard' in update ? scoreboard.mutate(update.scoreboard) : void scoreboard.revalidate()),
 *   },
 *   // after every (re)connection: refetch what may have been missed
 *   onResync: () => void scoreboard.revalidate(),
 * })
 * const scoreboard = useQuery(`/api/game/${gameId}/scoreboard`, fetcher, { live: connected })
 * ```
 *
 * The handlers may change between renders (the latest ones are called). `gameId === null` holds
 * nothing (e.g. while the route parameter is unknown).
 *
 * `useHubEvent(namespace, event, handler)` listens on a namespace without a game (e.g. the admin
 * hub's `ReceivedLog`), keeping the connection open while mounted.
 */
import { useEffect, useRef } from 'react'
import type { HubEvents, NamespaceName } from '@flagwave/shared/events'
import { hubs, useRealtimeStatus, type Hub, type ResyncInfo } from './hub'

type Handlers<N extends NamespaceName> = { [E in keyof HubEvents[N]]?: HubEvents[N][E] }

export interface GameRoomOptions<N extends NamespaceName> {
  /** `user` (default: notices, scoreboard, team-private results) or `monitor` (events, submissions). */
  namespace?: N
  events?: Handlers<N>
  onResync?: (info: ResyncInfo) => void
}

/** Subscribe to a game's room; returns whether the namespace's socket is connected. */
export function useGameRoom<N extends NamespaceName = 'user'>(gameId: number | null, options: GameRoomOptions<N> = {}): { connected: boolean } {
  const namespace = (options.namespace ?? 'user') as N
  const optionsRef = useRef(options)
  optionsRef.current = options

  useEffect(() => {
    if (gameId === null) return
    const hub = hubs[namespace] as unknown as Hub<N>
    const release = hub.hold(gameId)
    const offs: (() => void)[] = []
    const events = Object.keys(optionsRef.current.events ?? {}) as (keyof HubEvents[N] & string)[]
    for (const event of events) {
      offs.push(
        hub.on(event as never, ((...args: unknown[]) => {
          if (hub.game !== gameId) return
          const handler = optionsRef.current.events?.[event] as ((...a: unknown[]) => void) | undefined
          handler?.(...args)
        }) as never),
      )
    }
    offs.push(
      hub.onResync((info) => {
        if (info.game === gameId) optionsRef.current.onResync?.(info)
      }),
    )
    return () => {
      for (const off of offs) off()
      release()
    }
    // Handler identity is read through the ref; the set of event names is fixed per mount.
  }, [gameId, namespace])

  const status = useRealtimeStatus((state) => state[namespace])
  return { connected: gameId !== null && status === 'connected' && hubs[namespace].game === gameId }
}

/** Listen to one event of a namespace (no game), holding its connection while mounted. */
export function useHubEvent<N extends NamespaceName, E extends keyof HubEvents[N] & string>(
  namespace: N,
  event: E,
  handler: HubEvents[N][E],
): { connected: boolean } {
  const handlerRef = useRef(handler)
  handlerRef.current = handler
  useEffect(() => {
    const hub = hubs[namespace] as unknown as Hub<N>
    const release = hub.hold()
    const off = hub.on(event as never, ((...args: unknown[]) => (handlerRef.current as (...a: unknown[]) => void)(...args)) as never)
    return () => {
      off()
      release()
    }
  }, [namespace, event])
  const status = useRealtimeStatus((state) => state[namespace])
  return { connected: status === 'connected' }
}
