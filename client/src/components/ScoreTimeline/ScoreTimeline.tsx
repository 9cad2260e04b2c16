/**
 * Top-10 score timeline (ScoreboardModel.timeLines): one step line per team from the game start
 * to now (or the end). recharts is heavy: import this module lazily.
 */
import { useMemo } from 'react'
import { useComputedColorScheme } from '@mantine/core'
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import dayjs from 'dayjs'
import type { TopTimeLine } from '@flagwave/shared/schemas/scoreboard'

const TIMELINE_COLORS = ['#1de9b6', '#ff6767', '#4dabf7', '#ffd43b', '#b197fc', '#ffa94d', '#63e6be', '#f783ac', '#74c0fc', '#a9e34b']

interface ScoreTimelineProps {
  timeLines: TopTimeLine[]
  start: string
  end: string
  /** Now (ms); the lines run until min(now, end). */
  now: number
  height?: number
  /** Larger text (big screen). */
  large?: boolean
  /** Dark axes whatever the colour scheme (the big screen is always dark). */
  dark?: boolean
}

type Row = { time: number } & Record<string, number>

function buildTimelineRows(timeLines: TopTimeLine[], startMs: number, endMs: number): Row[] {
  const points = new Map<number, Map<string, number>>()
  for (const team of timeLines) {
    for (const item of team.items) {
      const t = Date.parse(item.time)
      if (!points.has(t)) points.set(t, new Map())
      points.get(t)!.set(`t${team.id}`, item.score)
    }
  }
  const times = [...points.keys()].filter((t) => t >= startMs).sort((a, b) => a - b)
  const current: Record<string, number> = Object.fromEntries(timeLines.map((team) => [`t${team.id}`, 0]))
  const rows: Row[] = [{ time: startMs, ...current }]
  for (const t of times) {
    for (const [key, score] of points.get(t)!) current[key] = score
    rows.push({ time: t, ...current })
  }
  if (endMs > (rows[rows.length - 1]?.time ?? startMs)) rows.push({ time: endMs, ...current })
  return rows
}

function ScoreTimeline({ timeLines, start, end, now, height = 320, large = false, dark = false }: ScoreTimelineProps) {
  const computed = useComputedColorScheme('dark')
  const scheme = dark ? 'dark' : computed
  const startMs = Date.parse(start)
  const endMs = Math.max(startMs + 1, Math.min(now, Date.parse(end)))
  // Re-bucket "now" to the minute so the chart does not re-render every second.
  const minute = Math.floor(endMs / 60_000)
  const rows = useMemo(() => buildTimelineRows(timeLines, startMs, endMs), [timeLines, startMs, minute])
  const long = endMs - startMs > 24 * 3600_000
  const axis = scheme === 'dark' ? '#909296' : '#495057'
  const grid = scheme === 'dark' ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.08)'
  const font = large ? 16 : 12

  return (
    <div data-testid="score-timeline" style={{ width: '100%', height }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={[startMs, endMs]}
            tickFormatter={(t: number) => dayjs(t).format(long ? 'MM-DD HH:mm' : 'HH:mm')}
            stroke={axis}
            tick={{ fontSize: font }}
            minTickGap={24}
          />
          <YAxis stroke={axis} tick={{ fontSize: font }} width={large ? 64 : 52} allowDecimals={false} />
          <Tooltip
            labelFormatter={(t) => dayjs(Number(t)).format('YYYY-MM-DD HH:mm:ss')}
            contentStyle={{ background: scheme === 'dark' ? '#25262b' : '#fff', border: `1px solid ${grid}`, borderRadius: 8, fontSize: font }}
            itemSorter={(item) => -Number(item.value ?? 0)}
          />
          <Legend wrapperStyle={{ fontSize: font }} />
          {timeLines.map((team, i) => (
            <Line
              key={team.id}
              dataKey={`t${team.id}`}
              name={team.name}
              type="stepAfter"
              stroke={TIMELINE_COLORS[i % TIMELINE_COLORS.length]}
              strokeWidth={large ? 3 : 2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  )
}

export default ScoreTimeline
