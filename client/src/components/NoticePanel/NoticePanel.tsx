/** The game's notices (notices store): admin announcements first, then bloods, hints and new challenges; filtered by kind. */
import { useState } from 'react'
import { Card, Group, ScrollArea, SegmentedControl, Stack, Text } from '@mantine/core'
import { IconBulb, IconDropletFilled, IconFlag, IconSpeakerphone } from '@tabler/icons-react'
import type { NoticeType } from '@flagwave/shared/enums'
import type { GameNotice } from '@flagwave/shared/schemas/games'
import { BLOOD_META } from '../BloodIcon/BloodIcon'
import { formatTime } from '../GameTime/GameTime'
import { Markdown } from '../Markdown/Markdown'
import classes from './NoticePanel.module.css'
import { t } from '../../i18n'

const TYPE_META: Record<NoticeType, { color: string; icon: typeof IconFlag; label: string }> = {
  Normal: { color: 'var(--mantine-color-brand-5)', icon: IconSpeakerphone, label: t('公告') },
  FirstBlood: { color: BLOOD_META.FirstBlood.color, icon: IconDropletFilled, label: t('一血') },
  SecondBlood: { color: BLOOD_META.SecondBlood.color, icon: IconDropletFilled, label: t('二血') },
  ThirdBlood: { color: BLOOD_META.ThirdBlood.color, icon: IconDropletFilled, label: t('三血') },
  NewHint: { color: 'var(--mantine-color-yellow-5)', icon: IconBulb, label: t('提示') },
  NewChallenge: { color: 'var(--mantine-color-blue-5)', icon: IconFlag, label: t('新题') },
}

/** The filter's kinds: the three bloods are one. */
type NoticeFilter = 'all' | 'Normal' | 'blood' | 'NewHint' | 'NewChallenge'
const FILTERS: { value: NoticeFilter; label: string }[] = [
  { value: 'all', label: t('全部') },
  { value: 'Normal', label: t('公告') },
  { value: 'blood', label: t('一二三血') },
  { value: 'NewHint', label: t('提示') },
  { value: 'NewChallenge', label: t('新题') },
]
const matches = (filter: NoticeFilter, type: NoticeType): boolean =>
  filter === 'all' || filter === type || (filter === 'blood' && (type === 'FirstBlood' || type === 'SecondBlood' || type === 'ThirdBlood'))

function NoticeItem({ notice }: { notice: GameNotice }) {
  const meta = TYPE_META[notice.type] ?? TYPE_META.Normal
  const Icon = meta.icon
  return (
    <div className={classes.item} style={{ ['--notice-color' as string]: meta.color }} data-testid="notice-item" data-type={notice.type} data-notice-id={notice.id}>
      <Group gap={6} wrap="nowrap" mb={2}>
        <Icon size={14} color={meta.color} />
        <Text size="xs" c="dimmed">
          {meta.label} · {formatTime(notice.time, 'MM-DD HH:mm:ss')}
        </Text>
      </Group>
      {notice.type === 'Normal' ? (
        <Markdown source={notice.content} />
      ) : (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {notice.content}
        </Text>
      )}
    </div>
  )
}

export interface NoticePanelProps {
  notices: GameNotice[]
  /** Height of the scrolling list (px); default 420. */
  height?: number
}

export function NoticePanel({ notices, height = 420 }: NoticePanelProps) {
  const [filter, setFilter] = useState<NoticeFilter>('all')
  const shown = notices.filter((notice) => matches(filter, notice.type))
  return (
    <Card withBorder radius="md" padding="sm" data-testid="notice-panel">
      <Group gap={6} mb="xs">
        <IconSpeakerphone size={16} />
        <Text fw={600} size="sm">
          {t('比赛通知')}
        </Text>
      </Group>
      {notices.length > 0 && (
        <SegmentedControl size="xs" fullWidth mb="xs" value={filter} onChange={(value) => setFilter(value as NoticeFilter)} data={FILTERS} data-testid="notice-filter" />
      )}
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed" py="sm" ta="center" data-testid="notice-empty">
          {notices.length === 0 ? t('暂无通知') : t('没有这一类的通知')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={height} type="auto" offsetScrollbars>
          <Stack gap="sm">
            {shown.map((notice) => (
              <NoticeItem key={notice.id} notice={notice} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Card>
  )
}

