import { useGameRoom, type GameRoomOptions } from '../../../realtime/hooks'
import { useLiveFeed, type LiveFeed, type LiveFeedOptions } from '../../../components/LiveTable/useLiveFeed'

/**
 * A monitor list of a game (events, submissions): the paged feed, grown by the game's
 * `/hub/monitor` pushes (`pushes(push)` names the event that carries a new row) and refetched
 * after every (re)connection; interval polling only while the socket is down.
 */
export function useMonitorFeed<T>(
  gameId: number | null,
  pushes: (push: (item: T) => void) => GameRoomOptions<'monitor'>['events'],
  options: Omit<LiveFeedOptions<T>, 'live'>,
): LiveFeed<T> {
  const { connected } = useGameRoom(gameId, {
    namespace: 'monitor',
    events: pushes((item) => feed.push(item)),
    onResync: () => void feed.revalidate(),
  })
  const feed = useLiveFeed<T>({ ...options, live: connected })
  return feed
}

/** The distinct non-empty values of a column, in Chinese collation order (filter options). */
export const distinct = (values: string[]): string[] => [...new Set(values.filter(Boolean))].sort((a, b) => a.localeCompare(b, 'zh-CN'))
