/**
 * Route `games/:id/scoreboard/reveal` (Admin): the remote for the staged reveal
 * (docs/scoring.md#staged-reveal), laid out for a phone — open, back, next, auto-play speed,
 * finish. The state lives on the server: the big screen (`…/scoreboard/bigscreen`) follows every
 * press over the socket, and this page resumes where the reveal stands after a reload.
 */
import { useState } from 'react'
import { Alert, Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core'
import { IconDeviceTv, IconPlayerTrackNext, IconPlayerTrackPrev } from '@tabler/icons-react'
import { Link } from 'react-router-dom'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { revealApi } from '../../api/reveal'
import { useReveal } from '../../live/useReveal'
import { useGameId } from '../../layouts/WithGameTab'
import { RealtimeStatus } from '../../components/RealtimeStatus/RealtimeStatus'
import { t } from '../../i18n'
import { openedCellsText } from '../../utils/revealCells'

/** Auto-play speeds: milliseconds between steps ('' pauses). */
const AUTO_SPEEDS = [
  { value: '', label: t('暂停') },
  { value: '5000', label: '5 s' },
  { value: '3000', label: '3 s' },
  { value: '1500', label: '1.5 s' },
  { value: '750', label: '0.75 s' },
]

export default function RevealControl() {
  const gameId = useGameId()
  const { state, error, accept } = useReveal(gameId)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  if (gameId === null) return <Alert color="alert">{t('无效的比赛')}</Alert>

  const run = (action: () => Promise<RevealState>) => async () => {
    setBusy(true)
    setFailure(null)
    try {
      accept(await action())
    } catch (err) {
      setFailure((err as Error).message)
    } finally {
      setBusy(false)
    }
  }

  const open = state?.open ?? false
  const last = state?.last ?? null
  return (
    <Stack gap="md" maw={520} data-testid="reveal-control" data-step={state?.step ?? 0} data-steps={state?.steps ?? 0} data-open={open} data-finished={state?.finished ?? false}>
      <Group justify="space-between">
        <Title order={3}>{t('排行榜揭晓')}</Title>
        <RealtimeStatus />
      </Group>
      {(failure ?? error?.message) && (
        <Alert color="alert" variant="light" title={failure ?? error?.message} data-testid="reveal-control-error" />
      )}
      {!open ? (
        <Card withBorder radius="md">
          <Stack>
            <Text c="dimmed">{state?.finished ? t('揭晓已完成，积分榜已解冻。') : t('比赛冻结后，从冻结时的积分榜开始逐步揭晓。')}</Text>
            <Button size="lg" onClick={run(() => revealApi.open(gameId))} loading={busy} data-testid="reveal-open">
              {t('开始揭晓')}
            </Button>
          </Stack>
        </Card>
      ) : (
        <>
          <Card withBorder radius="md">
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={700} data-testid="reveal-progress">
                  {t('步骤')} {state!.step} / {state!.steps}
                </Text>
                <Badge variant="light">{t('待揭晓队伍')} {state!.pending.length}</Badge>
              </Group>
              {last ? (
                <Text data-testid="reveal-last">
                  {last.name ?? t('其他队伍')}
                  {last.challenges.length > 0 && ` · ${openedCellsText(last, state!.board)}`} · #{last.fromPlace} → #{last.toPlace} · {last.fromScore} → {last.toScore} {t('分')}
                  {last.bloods.length > 0 && ` · ${t('血')} ${last.bloods.length}`}
                </Text>
              ) : (
                <Text c="dimmed">{t('冻结时的积分榜')}</Text>
              )}
            </Stack>
          </Card>
          <Group grow>
            <Button size="xl" variant="light" leftSection={<IconPlayerTrackPrev />} onClick={run(() => revealApi.back(gameId))} disabled={busy || state!.step === 0} data-testid="reveal-back">
              {t('上一步')}
            </Button>
            <Button size="xl" rightSection={<IconPlayerTrackNext />} onClick={run(() => revealApi.next(gameId))} disabled={busy || state!.step >= state!.steps} data-testid="reveal-next">
              {t('下一步')}
            </Button>
          </Group>
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('自动播放')}
            </Text>
            <SegmentedControl
              fullWidth
              value={state!.autoMs === null ? '' : String(state!.autoMs)}
              data={AUTO_SPEEDS}
              onChange={(v) => void run(() => revealApi.auto(gameId, v === '' ? null : Number(v)))()}
              data-testid="reveal-auto"
            />
          </Stack>
          <Button size="lg" color="red" variant="light" onClick={run(() => revealApi.finish(gameId))} loading={busy} data-testid="reveal-finish">
            {t('完成揭晓并解冻')}
          </Button>
        </>
      )}
      <Button component={Link} to={`/games/${gameId}/scoreboard/bigscreen`} variant="subtle" leftSection={<IconDeviceTv size={16} />}>
        {t('大屏模式')}
      </Button>
    </Stack>
  )
}
