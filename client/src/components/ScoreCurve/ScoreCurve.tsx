/**
 * Live preview of a challenge's dynamic score (docs/scoring.md#dynamic-score): the score after n solves for
 * n = 1…50, computed with the shared `challengeScore` (the server's own formula), with the
 * minimum score and the current number of solves marked. The chart module is lazy-loaded.
 */
import { lazy, Suspense, useMemo } from 'react'
import { Group, Paper, Skeleton, Stack, Text } from '@mantine/core'
import { challengeScore, minScore as minScoreOf } from '@flagwave/shared/scoring'
import type { ScoreCurvePoint } from './scoreCurvePoint'
import { t } from '../../i18n'

const ScoreCurveChart = lazy(() => import('./ScoreCurveChart'))

export type { ScoreCurvePoint }

/** Number of solves shown on the curve. */
const SCORE_CURVE_SOLVES = 50

export interface ScoreCurveProps {
  originalScore: number
  minScoreRate: number
  difficulty: number
  /** Current number of solves (acceptedCount). */
  solved?: number
  height?: number
}

const finite = (value: number, fallback: number): number => (Number.isFinite(value) ? value : fallback)

/** The points of the curve, or null when the parameters cannot produce one. */
function scoreCurve(originalScore: number, minScoreRate: number, difficulty: number, solves = SCORE_CURVE_SOLVES): ScoreCurvePoint[] | null {
  if (![originalScore, minScoreRate, difficulty].every(Number.isFinite)) return null
  const points: ScoreCurvePoint[] = []
  for (let n = 1; n <= solves; n++) {
    points.push({ solves: n, score: finite(challengeScore(originalScore, minScoreRate, difficulty, n), originalScore) })
  }
  return points
}

export function ScoreCurve({ originalScore, minScoreRate, difficulty, solved, height = 220 }: ScoreCurveProps) {
  const data = useMemo(() => scoreCurve(originalScore, minScoreRate, difficulty), [originalScore, minScoreRate, difficulty])
  const min = minScoreOf(originalScore, minScoreRate)
  const at = (n: number) => data?.[Math.min(n, data.length) - 1]?.score
  return (
    <Paper withBorder radius="md" p="sm" data-testid="score-curve">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            {t('分值曲线预览')}
          </Text>
          {data && (
            <Group gap="md">
              <Text size="xs" c="dimmed">
                {t('初始')} <b data-testid="score-curve-original">{originalScore}</b>
              </Text>
              <Text size="xs" c="dimmed">
                {t('10 解')} <b data-testid="score-curve-at-10">{at(10)}</b>
              </Text>
              <Text size="xs" c="dimmed">
                {t('50 解')} <b data-testid="score-curve-at-50">{at(50)}</b>
              </Text>
              <Text size="xs" c="dimmed">
                {t('最低')} <b data-testid="score-curve-min">{min}</b>
              </Text>
            </Group>
          )}
        </Group>
        {data ? (
          <Suspense fallback={<Skeleton height={height} />}>
            <ScoreCurveChart data={data} minScore={min} solved={solved} height={height} />
          </Suspense>
        ) : (
          <Text size="sm" c="dimmed" h={height}>
            {t('请输入有效的分值参数')}
          </Text>
        )}
      </Stack>
    </Paper>
  )
}

