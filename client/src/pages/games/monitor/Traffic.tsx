/**
 * games/{id}/monitor/Traffic (Monitor+): captured container traffic, drilled down from the
 * challenges with capture enabled (`GET /api/game/games/{id}/captures`) to the teams with
 * captures (`GET /api/game/captures/{cid}`) to their files (`GET …/{partId}`), each downloadable
 * (`…/{partId}/{file}`) or all at once as a zip (`…/{partId}/all`). The selection lives in the
 * query string (`?challenge=&team=`) so it survives a reload and can be shared.
 */
import { useState, type ReactNode } from 'react'
import { ActionIcon, Alert, Avatar, Badge, Button, Center, Group, Loader, NavLink, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core'
import { IconAlertCircle, IconDownload, IconFileZip, IconRefresh } from '@tabler/icons-react'
import { useSearchParams } from 'react-router-dom'
import type { ChallengeTrafficModel, FileRecord, TeamTrafficModel } from '@flagwave/shared/schemas/admin'
import { downloadFile, monitorApi, monitorPaths } from '../../../api/monitor'
import { refetchIfShown } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { skipToken, useQuery } from '@tanstack/react-query'
import { useGameId } from '../../../layouts/WithGameTab'
import { MonitorFrame } from '../../../components/MonitorFrame/MonitorFrame'
import { ChallengeTagBadge } from '../../../components/ChallengeTag/ChallengeTag'
import { formatTime } from '../../../components/GameTime/GameTime'
import { notifyError } from '../../../utils/notify'
import { formatBytes } from '../../../utils/formatBytes'
import { t } from '../../../i18n'

const positive = (value: string | null): number | null => (value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : null)

function Column({ title, children, extra, testId }: { title: string; children: ReactNode; extra?: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={5}>{title}</Title>
          {extra}
        </Group>
        {children}
      </Stack>
    </Paper>
  )
}

function QueryState({ isLoading, error, empty, emptyText }: { isLoading: boolean; error: Error | null; empty: boolean; emptyText: string }) {
  if (error)
    return (
      <Alert color="alert" variant="light" icon={<IconAlertCircle />} data-testid="traffic-error">
        {error.message}
      </Alert>
    )
  if (isLoading)
    return (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    )
  if (empty)
    return (
      <Text size="sm" c="dimmed" ta="center" py="md">
        {emptyText}
      </Text>
    )
  return null
}

export default function Traffic() {
  const gameId = useGameId()
  const [params, setParams] = useSearchParams()
  const challengeId = positive(params.get('challenge'))
  const partId = positive(params.get('team'))
  const [downloading, setDownloading] = useState<string | null>(null)

  const challengesKey = queryKeys.monitor.captures(gameId ?? 0)
  const teamsKey = queryKeys.monitor.challengeCaptures(challengeId ?? 0)
  const filesKey = queryKeys.monitor.teamCaptures(challengeId ?? 0, partId ?? 0)
  const challenges = useQuery<ChallengeTrafficModel[]>({
    queryKey: challengesKey,
    queryFn: gameId === null ? skipToken : () => monitorApi.captures(gameId),
  })
  const teams = useQuery<TeamTrafficModel[]>({
    queryKey: teamsKey,
    queryFn: challengeId === null ? skipToken : () => monitorApi.challengeCaptures(challengeId),
  })
  const files = useQuery<FileRecord[]>({
    queryKey: filesKey,
    queryFn: challengeId === null || partId === null ? skipToken : () => monitorApi.teamCaptures(challengeId, partId),
  })

  const select = (next: { challenge?: number | null; team?: number | null }) => {
    const search = new URLSearchParams(params)
    if (next.challenge !== undefined) {
      if (next.challenge === null) search.delete('challenge')
      else search.set('challenge', String(next.challenge))
      search.delete('team')
    }
    if (next.team !== undefined) {
      if (next.team === null) search.delete('team')
      else search.set('team', String(next.team))
    }
    setParams(search, { replace: true })
  }

  const download = async (id: string, path: string, fallback: string) => {
    setDownloading(id)
    try {
      await downloadFile(path, fallback)
    } catch (error) {
      notifyError(error, t('下载失败'))
    } finally {
      setDownloading(null)
    }
  }

  if (gameId === null) return null
  const team = teams.data?.find((t) => t.id === partId) ?? null
  const sortedFiles = [...(files.data ?? [])].sort((a, b) => Date.parse(b.updateTime) - Date.parse(a.updateTime))
  const totalSize = sortedFiles.reduce((sum, f) => sum + f.size, 0)

  return (
    <MonitorFrame gameId={gameId} section="traffic" testId="monitor-traffic-page">
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" style={{ alignItems: 'start' }}>
        <Column
          title={t('题目')}
          testId="traffic-challenges"
          extra={
            <Tooltip label={t('刷新')} withArrow>
              <ActionIcon variant="subtle" onClick={() => void Promise.all([refetchIfShown(challengesKey), refetchIfShown(teamsKey), refetchIfShown(filesKey)])} aria-label={t('刷新')} data-testid="traffic-refresh">
                <IconRefresh size={16} />
              </ActionIcon>
            </Tooltip>
          }
        >
          <QueryState isLoading={challenges.isLoading} error={challenges.error} empty={(challenges.data?.length ?? 0) === 0} emptyText={t('没有开启流量捕获的题目')} />
          <ScrollArea.Autosize mah={560}>
            {challenges.data?.map((c) => (
              <NavLink
                key={c.id}
                active={c.id === challengeId}
                onClick={() => select({ challenge: c.id })}
                label={
                  <Text size="sm" fw={500} c={c.isEnabled ? undefined : 'dimmed'} truncate>
                    {c.title}
                  </Text>
                }
                description={c.isEnabled ? undefined : t('未启用')}
                leftSection={<ChallengeTagBadge tag={c.tag} size="xs" />}
                rightSection={
                  <Badge size="sm" variant="light" color={c.count > 0 ? 'brand' : 'gray'}>
                    {c.count}
                  </Badge>
                }
                data-testid="traffic-challenge"
                data-challenge-id={c.id}
              />
            ))}
          </ScrollArea.Autosize>
        </Column>

        <Column title={t('队伍')} testId="traffic-teams">
          {challengeId === null ? (
            <Text size="sm" c="dimmed" ta="center" py="md">
              {t('选择一道题目')}
            </Text>
          ) : (
            <>
              <QueryState isLoading={teams.isLoading} error={teams.error} empty={(teams.data?.length ?? 0) === 0} emptyText={t('没有捕获到流量')} />
              <ScrollArea.Autosize mah={560}>
                {teams.data?.map((t) => (
                  <NavLink
                    key={t.id}
                    active={t.id === partId}
                    onClick={() => select({ team: t.id })}
                    label={
                      <Text size="sm" fw={500} truncate>
                        {t.name ?? `#${t.teamId}`}
                      </Text>
                    }
                    description={t.organization ?? undefined}
                    leftSection={
                      <Avatar src={t.avatar ?? undefined} size={24} radius="xl" color="brand">
                        {(t.name ?? '?').slice(0, 1).toUpperCase()}
                      </Avatar>
                    }
                    rightSection={
                      <Badge size="sm" variant="light">
                        {t.count}
                      </Badge>
                    }
                    data-testid="traffic-team"
                    data-part-id={t.id}
                  />
                ))}
              </ScrollArea.Autosize>
            </>
          )}
        </Column>

        <Column
          title={team?.name ? t('{{name}} 的流量', { name: team.name }) : t('流量文件')}
          testId="traffic-files"
          extra={
            challengeId !== null &&
            partId !== null &&
            sortedFiles.length > 0 && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconFileZip size={14} />}
                loading={downloading === 'all'}
                onClick={() => void download('all', monitorPaths.captureArchive(challengeId, partId), `Capture-${challengeId}-${partId}.zip`)}
                data-testid="traffic-download-all"
              >
                {t('全部下载')}
              </Button>
            )
          }
        >
          {challengeId === null || partId === null ? (
            <Text size="sm" c="dimmed" ta="center" py="md">
              {t('选择一支队伍')}
            </Text>
          ) : (
            <>
              <QueryState isLoading={files.isLoading} error={files.error} empty={sortedFiles.length === 0} emptyText={t('没有流量文件')} />
              {sortedFiles.length > 0 && (
                <>
                  <Text size="xs" c="dimmed">
                    {t('{{count}} 个文件，共 {{size}}', { count: sortedFiles.length, size: formatBytes(totalSize, 'short') })}
                  </Text>
                  <ScrollArea.Autosize mah={560}>
                    <Table verticalSpacing={4} highlightOnHover data-testid="traffic-file-table">
                      <Table.Tbody>
                        {sortedFiles.map((f) => (
                          <Table.Tr key={f.fileName} data-testid="traffic-file">
                            <Table.Td>
                              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                                {f.fileName}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {formatTime(f.updateTime, 'MM-DD HH:mm:ss')} · {formatBytes(f.size, 'short')}
                              </Text>
                            </Table.Td>
                            <Table.Td w={40}>
                              <Tooltip label={t('下载')} withArrow>
                                <ActionIcon
                                  variant="subtle"
                                  loading={downloading === f.fileName}
                                  onClick={() => void download(f.fileName, monitorPaths.captureFile(challengeId, partId, f.fileName), f.fileName)}
                                  aria-label={t('下载 {{fileName}}', { fileName: f.fileName })}
                                  data-testid="traffic-download-file"
                                >
                                  <IconDownload size={16} />
                                </ActionIcon>
                              </Tooltip>
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea.Autosize>
                </>
              )}
            </>
          )}
        </Column>
      </SimpleGrid>
    </MonitorFrame>
  )
}
