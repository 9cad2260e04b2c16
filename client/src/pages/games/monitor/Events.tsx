/**
 * games/{id}/monitor/Events (Monitor+): the game's events, newest first, growing live from
 * `/hub/monitor?game={id}` (`ReceivedGameEvent`) over the paged `GET /api/game/{id}/events`.
 * "Hide container events" is the server's `hideContainer`; event type and team filter the loaded
 * rows. Pause/resume, load more, sheet exports in the frame.
 */
import { useMemo, useState } from 'react'
import { Group, MultiSelect, Switch, Text } from '@mantine/core'
import { EventType } from '@flagwave/shared/enums'
import type { GameEvent } from '@flagwave/shared/schemas/games'
import { monitorApi } from '../../../api/monitor'
import { queryKeys } from '../../../api/queryKeys'
import { useGameId } from '../../../layouts/WithGameTab'
import { LiveTable, type LiveColumn } from '../../../components/LiveTable/LiveTable'
import { DEFAULT_PAGE_SIZE, timeMs } from '../../../components/LiveTable/useLiveFeed'
import { LiveFeedControls } from '../../../components/LiveFeedControls/LiveFeedControls'
import { MonitorFrame } from '../../../components/MonitorFrame/MonitorFrame'
import { EVENT_META, EventTypeBadge } from '../../../components/MonitorBadges/MonitorBadges'
import { formatTime } from '../../../components/GameTime/GameTime'
import { distinct, useMonitorFeed } from './useMonitorFeed'
import { ValueFilter } from './ValueFilter'
import { t } from '../../../i18n'

const CONTAINER_EVENTS: readonly EventType[] = ['ContainerStart', 'ContainerDestroy']

const eventKey = (e: GameEvent): string => `${timeMs(e.time)}|${e.type}|${e.team}|${e.user}|${e.content}`

const COLUMNS: LiveColumn<GameEvent>[] = [
  { key: 'time', header: t('时间'), width: 150, render: (e) => formatTime(e.time, 'MM-DD HH:mm:ss') },
  { key: 'type', header: t('类型'), width: 120, render: (e) => <EventTypeBadge type={e.type} content={e.content} /> },
  { key: 'team', header: t('队伍'), render: (e) => e.team || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'user', header: t('用户'), render: (e) => e.user || <Text c="dimmed" span size="sm">—</Text> },
  { key: 'content', header: t('内容'), wrap: true, render: (e) => <span data-testid="event-content">{e.content}</span> },
]

export default function Events() {
  const gameId = useGameId()
  const [hideContainer, setHideContainer] = useState(false)
  const [types, setTypes] = useState<EventType[]>([])
  const [team, setTeam] = useState<string | null>(null)

  const filter = useMemo(() => ({ hideContainer }), [hideContainer])
  const feed = useMonitorFeed<GameEvent>(gameId, (push) => ({ ReceivedGameEvent: push }), {
    queryKey: gameId === null ? null : queryKeys.monitor.events(gameId, filter, DEFAULT_PAGE_SIZE),
    fetchPage: (count, skip) => monitorApi.events(gameId!, filter, count, skip),
    keyOf: eventKey,
    timeOf: (e) => timeMs(e.time),
    accepts: (e) => !hideContainer || !CONTAINER_EVENTS.includes(e.type),
  })

  const teams = useMemo(() => distinct(feed.rows.map((r) => r.item.team)), [feed.rows])
  const typeOptions = useMemo(
    () => EventType.filter((t) => !hideContainer || !CONTAINER_EVENTS.includes(t)).map((value) => ({ value, label: EVENT_META[value].label })),
    [hideContainer],
  )
  const rows = useMemo(
    () => feed.rows.filter((r) => (types.length === 0 || types.includes(r.item.type)) && (team === null || r.item.team === team)),
    [feed.rows, types, team],
  )

  if (gameId === null) return null
  return (
    <MonitorFrame
      gameId={gameId}
      section="events"
      testId="monitor-events-page"
      actions={
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <MultiSelect
              size="xs"
              miw={200}
              maw={420}
              data={typeOptions}
              value={types}
              onChange={(value) => setTypes(value as EventType[])}
              placeholder={types.length === 0 ? t('全部类型') : undefined}
              clearable
              aria-label={t('事件类型')}
              data-testid="event-type-filter"
            />
            <ValueFilter values={teams} value={team} onChange={setTeam} noun={t('队伍')} testId="event-team-filter" />
            <Switch
              size="sm"
              label={t('隐藏容器事件')}
              checked={hideContainer}
              onChange={(event) => {
                const checked = event.currentTarget.checked
                setHideContainer(checked)
                if (checked) setTypes((current) => current.filter((t) => !CONTAINER_EVENTS.includes(t)))
              }}
              data-testid="event-hide-container"
            />
          </Group>
          <LiveFeedControls feed={feed} namespace="monitor" shown={rows.length} testId="events-live" />
        </Group>
      }
    >
      <LiveTable feed={feed} rows={rows} columns={COLUMNS} rowProps={(e) => ({ 'data-type': e.type })} emptyText={t('暂无比赛事件')} testId="events-table" />
    </MonitorFrame>
  )
}
