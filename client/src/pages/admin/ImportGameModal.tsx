/**
 * "导入比赛" on the game list (POST /api/edit/games/import, docs/archive.md#import): a Flagwave archive,
 * a CTFd 3.x export, a ctfcli archive or one challenge.yml. The upload's progress is shown while it
 * is sent (docs/archive.md#progress), then what was mapped and left out, with a link to the new game.
 */
import { useState } from 'react'
import { Alert, Button, FileInput, Group, List, Modal, Progress, ScrollArea, Stack, Text } from '@mantine/core'
import { IconFileZip } from '@tabler/icons-react'
import { useNavigate } from 'react-router-dom'
import type { GameImportResult } from '@flagwave/shared/schemas/gameArchive'
import { gameArchiveApi } from '../../api/gameArchive'
import { invalidateGameLists } from '../../api/edit'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'

const FORMAT_NAMES: Record<GameImportResult['format'], string> = { flagwave: t('Flagwave 比赛归档'), ctfd: t('CTFd 3.x 导出'), ctfcli: 'ctfcli challenge.yml' }

function ReportList({ title, lines, testId }: { title: string; lines: string[]; testId: string }) {
  if (lines.length === 0) return null
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={600}>
        {title}（{lines.length}）
      </Text>
      <ScrollArea.Autosize mah={160}>
        <List size="xs" spacing={2}>
          {lines.map((line, i) => (
            <List.Item key={i}>{line}</List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
    </Stack>
  )
}

export function ImportGameModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const [file, setFile] = useState<File | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [result, setResult] = useState<GameImportResult | null>(null)
  const { busy, run } = useAction()

  const close = () => {
    setFile(null)
    setProgress(null)
    setResult(null)
    onClose()
  }
  const submit = () =>
    run(t('导入失败'), async () => {
      if (!file) return
      setResult(null)
      setProgress(0)
      try {
        const imported = await gameArchiveApi.import(file, setProgress)
        setResult(imported)
        invalidateGameLists()
      } finally {
        setProgress(null)
      }
    })

  return (
    <Modal opened={opened} onClose={close} title={t('导入比赛')} size="lg" data-testid="game-import-modal">
      <Stack gap="sm">
        <FileInput
          label={t('归档文件')}
          description={t('Flagwave 导出的 .zip、CTFd 3.x 导出的 .zip、包含 challenge.yml 的 .zip，或单个 challenge.yml')}
          accept=".zip,.yml,.yaml,application/zip"
          leftSection={<IconFileZip size={16} />}
          value={file}
          onChange={setFile}
          clearable
          data-testid="game-import-file"
        />
        {progress !== null && (
          <Stack gap={4} data-testid="game-import-progress">
            <Progress value={progress * 100} animated={progress >= 1} />
            <Text size="xs" c="dimmed">
              {progress < 1 ? t('上传中 {{v0}}%', { v0: Math.round(progress * 100) }) : t('正在导入…')}
            </Text>
          </Stack>
        )}
        {result && (
          <Alert color="green" title={t('已导入「{{title}}」', { title: result.game.title })} data-testid="game-import-result">
            <Stack gap="xs">
              <Text size="sm">
                {t('{{format}}：{{challenges}} 道题目，{{files}} 个文件。', { format: FORMAT_NAMES[result.format], challenges: result.challenges, files: result.files })}
              </Text>
              <ReportList title={t('已转换')} lines={result.mapped} testId="game-import-mapped" />
              <ReportList title={t('未导入')} lines={result.unmapped} testId="game-import-unmapped" />
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('关闭')}
          </Button>
          {result ? (
            <Button onClick={() => navigate(`/admin/games/${result.game.id}/info`)} data-testid="game-import-open">
              {t('打开比赛')}
            </Button>
          ) : (
            <Button disabled={!file} loading={busy} onClick={() => void submit()} data-testid="game-import-submit">
              {t('导入')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  )
}
