/**
 * The chart of `ScoreCurve` (Mantine charts on recharts). Kept in its own module so that the
 * chart libraries load only when a score curve is shown (see ScoreCurve.tsx).
 */
import '@mantine/charts/styles.css'
import { LineChart } from '@mantine/charts'
import type { ScoreCurvePoint } from './scoreCurvePoint'
import { t } from '../../i18n'

export interface ScoreCurveChartProps {
  data: ScoreCurvePoint[]
  minScore: number
  /** The challenge's current number of solves, marked on the curve (when ≥ 1). */
  solved?: number
  height: number
}

export default function ScoreCurveChart({ data, minScore, solved, height }: ScoreCurveChartProps) {
  return (
    <LineChart
      h={height}
      data={data}
      dataKey="solves"
      series={[{ name: 'score', label: t('分值'), color: 'brand.5' }]}
      curveType="linear"
      withDots={false}
      strokeWidth={2}
      xAxisLabel={t('解出队伍数')}
      yAxisLabel={t('分值')}
      yAxisProps={{ domain: [0, 'auto'], width: 56 }}
      xAxisProps={{ interval: 4 }}
      referenceLines={[
        { y: minScore, label: t('最低分 {{minScore}}', { minScore }), color: 'alert.5' },
        ...(solved && solved >= 1 && solved <= data.length ? [{ x: solved, label: t('当前 {{solved}} 解', { solved }), color: 'yellow.5' }] : []),
      ]}
      tooltipAnimationDuration={100}
      valueFormatter={(value) => t('{{value}} 分', { value })}
      data-testid="score-curve-chart"
    />
  )
}
