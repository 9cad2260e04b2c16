/**
 * Write-ups of a game (GET /api/admin/writeups/{id}, newest first): team and upload time, one
 * download per write-up (the PDF's `/assets/…` URL) and all of them as one zip
 * (GET /api/admin/writeups/{id}/all); releasing every write-up (DELETE /api/edit/games/{id}/writeups)
 * after confirmation.
 */
import { useState } from 'react'
import { Avatar, Button, Card, Group, Skeleton, Stack, Table, Text } from '@mantine/core'
import { IconDownload, IconFileZip, IconTrash } from '@tabler/icons-react'
import { editApi } from '../../../api/edit'
import { skipToken, useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../../api/queryKeys'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { formatTime } from '../../../components/GameTime/GameTime'
import { GameEditFrame, useEditGame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { LoadError } from '../../../components/LoadError/LoadError'
import { t } from '../../../i18n'

/** The file name at the end of an `/assets/{hash}/{name}` URL. */
const fileNameOf = (url: string): string => decodeURIComponent(url.split('/').pop() ?? url)

export default function Writeups() {
  const gameId = useEditGameId()
  const { data, error, isLoading, refetch: revalidate } = useQuery({
    queryKey: queryKeys.edit.writeups(gameId ?? 0),
    queryFn: gameId === null ? skipToken : () => editApi.writeups.list(gameId),
  })
  const { data: game } = useEditGame(gameId)
  const [removing, setRemoving] = useState(false)

  const removeAll = async () => {
    if (gameId === null) return
    const confirmed = await confirmDialog({ title: t('删除全部 Writeup'), message: t('确定要删除本比赛的全部 Writeup 文件吗？此操作不可恢复。'), danger: true })
    if (!confirmed) return
    setRemoving(true)
    try {
      await editApi.games.removeWriteups(gameId)
      await revalidate()
      notifySuccess(t('Writeup 已全部删除'))
    } catch (err) {
      notifyError(err, t('删除失败'))
    } finally {
      setRemoving(false)
    }
  }

  const count = data?.length ?? 0
  return (
    <GameEditFrame testId="admin-game-writeups-page">
      <Group justify="space-between">
        <Stack gap={0}>
          <Text size="sm" data-testid="writeup-count">
            {t('已提交')} {count} {t('份 Writeup')}
          </Text>
          {game && (
            <Text size="xs" c="dimmed">
              {t('截止时间')} {formatTime(game.wpddl, 'YYYY-MM-DD HH:mm:ss')}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <Button
            component="a"
            href={gameId === null ? undefined : editApi.writeups.allUrl(gameId)}
            download
            leftSection={<IconFileZip size={16} />}
            disabled={count === 0}
            data-testid="writeups-download-all"
          >
            {t('打包下载全部')}
          </Button>
          <Button variant="light" color="alert" leftSection={<IconTrash size={16} />} loading={removing} disabled={count === 0} onClick={() => void removeAll()} data-testid="writeups-delete-all">
            {t('删除全部')}
          </Button>
        </Group>
      </Group>
      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Skeleton height={120} />
      ) : data && data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="writeups-empty">
          {t('暂无队伍提交 Writeup')}
        </Text>
      ) : data ? (
        <Card withBorder padding={0} radius="md">
          <Table highlightOnHover verticalSpacing="sm" data-testid="writeup-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('队伍')}</Table.Th>
                <Table.Th>{t('文件')}</Table.Th>
                <Table.Th>{t('上传时间')}</Table.Th>
                <Table.Th w={110} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((writeup) => (
                <Table.Tr key={writeup.id} data-testid="writeup-item" data-participation-id={writeup.id}>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Avatar src={writeup.team.avatar ?? undefined} size="sm" radius="xl" color="brand">
                        {(writeup.team.name ?? '?').slice(0, 1)}
                      </Avatar>
                      <Text size="sm" fw={600} data-testid="writeup-team">
                        {writeup.team.name}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {fileNameOf(writeup.url)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" data-testid="writeup-time">
                      {formatTime(writeup.uploadTimeUTC, 'YYYY-MM-DD HH:mm:ss')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button component="a" href={writeup.url} download={fileNameOf(writeup.url)} size="xs" variant="light" leftSection={<IconDownload size={14} />} data-testid="writeup-download">
                      {t('下载')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}
    </GameEditFrame>
  )
}
