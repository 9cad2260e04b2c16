/**
 * The game editor's freeze controls (docs/scoring.md#freeze): whether the public scoreboard is
 * frozen now and since when, "freeze now" and "unfreeze now". The freeze time itself is a field of
 * the game form; the state shown here is the public game's (`frozen`, `freezeTime`).
 */
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core'
import { IconSnowflake, IconSnowflakeOff } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { GameInfoModel } from '@flagwave/shared/schemas/games'
import { editApi } from '../../api/edit'
import { queryClient } from '../../api/queryClient'
import { queryKeys } from '../../api/queryKeys'
import { gameQuery } from '../../live/queries'
import { useAction } from '../../hooks/useAction'
import { confirmDialog } from '../ConfirmDialog/confirm'
import { formatTime } from '../GameTime/GameTime'
import { notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

export function FreezeCard({ game, onChanged }: { game: GameInfoModel; onChanged: (saved: GameInfoModel) => void }) {
  const { data: shown, refetch } = useQuery(gameQuery(game.id))
  const freezing = useAction()
  const unfreezing = useAction()
  const frozen = shown?.frozen ?? false
  const pending = shown?.freezeTime ?? null

  const apply = async (saved: GameInfoModel, message: string) => {
    queryClient.setQueryData(queryKeys.edit.game(game.id), saved)
    onChanged(saved)
    await refetch()
    notifySuccess(message)
  }
  const freeze = () => freezing.run(t('冻结失败'), async () => apply(await editApi.games.freeze(game.id), t('积分榜已冻结')))
  const unfreeze = async () => {
    const confirmed = await confirmDialog({
      title: t('立即解冻'),
      message: t('解冻后所有人将看到实时积分榜，冻结期间的一血公告与 Webhook 也会发出。'),
    })
    if (!confirmed) return
    await unfreezing.run(t('解冻失败'), async () => apply(await editApi.games.unfreeze(game.id), t('积分榜已解冻')))
  }

  return (
    <Card withBorder radius="md" padding="sm" data-testid="game-freeze-card" data-frozen={frozen}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {t('积分榜冻结')}
          </Text>
          <Badge color={frozen ? 'blue' : 'gray'} variant="light" data-testid="game-freeze-state">
            {frozen ? t('已冻结') : pending ? t('待冻结') : t('未冻结')}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {pending
            ? t('冻结时间：{{time}}。冻结期间选手与公众只看到冻结时的积分榜，管理员与监视者可查看实时榜。', { time: formatTime(pending, 'YYYY-MM-DD HH:mm:ss') })
            : t('冻结期间选手与公众只看到冻结时的积分榜，管理员与监视者可查看实时榜。')}
        </Text>
        <Group gap="xs" grow>
          <Button variant="light" leftSection={<IconSnowflake size={16} />} disabled={frozen} loading={freezing.busy} onClick={() => void freeze()} data-testid="game-freeze-now">
            {t('立即冻结')}
          </Button>
          <Button variant="light" color="orange" leftSection={<IconSnowflakeOff size={16} />} disabled={!pending} loading={unfreezing.busy} onClick={() => void unfreeze()} data-testid="game-unfreeze-now">
            {t('立即解冻')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
