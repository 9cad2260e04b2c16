/**
 * The frame of a game's monitor screens (Monitor+): the section switch (events, submissions, cheat
 * information, traffic), the two spreadsheet exports and the screen's own controls.
 */
import { useState, type ReactNode } from 'react'
import { Button, Group, Menu, SegmentedControl, Stack, Title } from '@mantine/core'
import { IconChevronDown, IconDownload, IconFileSpreadsheet } from '@tabler/icons-react'
import { useNavigate } from 'react-router-dom'
import { downloadFile, monitorPaths } from '../../api/monitor'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

const MONITOR_SECTIONS = [
  { value: 'events', label: t('比赛事件') },
  { value: 'submissions', label: t('提交记录') },
  { value: 'cheatinfo', label: t('作弊信息') },
  { value: 'traffic', label: t('流量捕获') },
] as const

type MonitorSection = (typeof MONITOR_SECTIONS)[number]['value']

/** Download a sheet, reporting the server's title on failure. */
function SheetDownloads({ gameId }: { gameId: number }) {
  const [busy, setBusy] = useState<string | null>(null)
  const download = async (kind: 'submissions' | 'scoreboard') => {
    setBusy(kind)
    try {
      const path = kind === 'submissions' ? monitorPaths.submissionSheet(gameId) : monitorPaths.scoreboardSheet(gameId)
      const name = await downloadFile(path, `${kind}-${gameId}.xlsx`)
      notifySuccess(name, t('开始下载'))
    } catch (error) {
      notifyError(error, kind === 'submissions' ? t('导出提交记录失败') : t('导出排行榜失败'))
    } finally {
      setBusy(null)
    }
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} rightSection={<IconChevronDown size={14} />} loading={busy !== null} data-testid="monitor-export">
          {t('导出')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => void download('submissions')} data-testid="download-submissionsheet">
          {t('下载提交记录表')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => void download('scoreboard')} data-testid="download-scoreboardsheet">
          {t('下载排行榜表')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}

export interface MonitorFrameProps {
  gameId: number
  section: MonitorSection
  /** Controls shown on the right of the header (pause, filters…). */
  actions?: ReactNode
  children: ReactNode
  testId: string
}

export function MonitorFrame({ gameId, section, actions, children, testId }: MonitorFrameProps) {
  const navigate = useNavigate()
  const current = MONITOR_SECTIONS.find((s) => s.value === section)!
  return (
    <Stack gap="md" data-testid={testId}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={3}>{current.label}</Title>
          <SegmentedControl
            size="xs"
            value={section}
            onChange={(value) => {
              if (value !== section) navigate(`/games/${gameId}/monitor/${value}`)
            }}
            data={MONITOR_SECTIONS.map(({ value, label }) => ({ value, label }))}
            data-testid="monitor-sections"
          />
        </Group>
        <SheetDownloads gameId={gameId} />
      </Group>
      {actions}
      {children}
    </Stack>
  )
}
