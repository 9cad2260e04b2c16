/**
 * The game editor's "比赛数据" card (docs/archive.md): export the game as an archive, clone it as a
 * template for next year, and save the static archive of a finished game with the organiser's
 * choice of challenge descriptions and attachments.
 */
import { useState } from 'react'
import { Button, Card, Checkbox, Group, Modal, Stack, Text } from '@mantine/core'
import { IconArchive, IconCopy, IconDownload } from '@tabler/icons-react'
import { useNavigate } from 'react-router-dom'
import type { GameInfoModel } from '@flagwave/shared/schemas/games'
import { gameArchiveApi } from '../../api/gameArchive'
import { invalidateGameLists } from '../../api/edit'
import { useAction } from '../../hooks/useAction'
import { notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

function StaticArchiveModal({ game, opened, onClose }: { game: GameInfoModel; opened: boolean; onClose: () => void }) {
  const [challenges, setChallenges] = useState(true)
  const [attachments, setAttachments] = useState(false)
  const { busy, run } = useAction()
  const save = () =>
    run(t('生成静态归档失败'), async () => {
      const name = await gameArchiveApi.staticArchive(game.id, { challenges, attachments: challenges && attachments })
      notifySuccess(t('已保存 {{name}}', { name }))
      onClose()
    })
  return (
    <Modal opened={opened} onClose={onClose} title={t('静态归档')} data-testid="static-archive-modal">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('生成一个可离线浏览的静态网站（最终排行榜、得分曲线与公告），解压后可放在任意静态托管，或直接在浏览器中打开 index.html。')}
        </Text>
        <Checkbox label={t('包含题目描述')} checked={challenges} onChange={(e) => setChallenges(e.currentTarget.checked)} data-testid="static-archive-challenges" />
        <Checkbox
          label={t('包含题目附件')}
          disabled={!challenges}
          checked={challenges && attachments}
          onChange={(e) => setAttachments(e.currentTarget.checked)}
          data-testid="static-archive-attachments"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('取消')}
          </Button>
          <Button leftSection={<IconArchive size={16} />} loading={busy} onClick={() => void save()} data-testid="static-archive-submit">
            {t('生成并下载')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

export function GameDataCard({ game }: { game: GameInfoModel }) {
  const navigate = useNavigate()
  const exporting = useAction()
  const cloning = useAction()
  const [archiving, setArchiving] = useState(false)
  const ended = Date.parse(game.end) <= Date.now()

  const exportGame = () => exporting.run(t('导出失败'), async () => notifySuccess(t('已保存 {{v0}}', { v0: await gameArchiveApi.export(game.id) })))
  const clone = () =>
    cloning.run(t('复制失败'), async () => {
      const copy = await gameArchiveApi.clone(game.id)
      invalidateGameLists()
      notifySuccess(t('已复制为「{{title}}」', { title: copy.title }))
      navigate(`/admin/games/${copy.id}/info`)
    })

  return (
    <Card withBorder radius="md" padding="sm" data-testid="game-data-card">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('比赛数据')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('导出包含设置、题目、flag、提示、附件与公告，可在任意 Flagwave 上导入；复制不含队伍、提交与公告。')}
        </Text>
        <Button variant="light" leftSection={<IconDownload size={16} />} loading={exporting.busy} onClick={() => void exportGame()} data-testid="game-export">
          {t('导出比赛')}
        </Button>
        <Button variant="light" leftSection={<IconCopy size={16} />} loading={cloning.busy} onClick={() => void clone()} data-testid="game-clone">
          {t('复制为模板')}
        </Button>
        <Button variant="light" leftSection={<IconArchive size={16} />} disabled={!ended} onClick={() => setArchiving(true)} data-testid="game-static-archive">
          {t('静态归档')}
        </Button>
        {!ended && (
          <Text size="xs" c="dimmed">
            {t('比赛结束后可生成静态归档。')}
          </Text>
        )}
      </Stack>
      <StaticArchiveModal game={game} opened={archiving} onClose={() => setArchiving(false)} />
    </Card>
  )
}
