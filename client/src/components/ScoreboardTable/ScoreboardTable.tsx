/**
 * The ranking table: rank, team (avatar), organization, solved count, score, then one column per
 * challenge grouped by category with solve marks (✓) and blood drops. My team's rows are
 * highlighted; rows glide to their new positions when ranks change (FLIP).
 */
import { useMemo, useRef } from 'react'
import { Avatar, Group, Table, Text, Tooltip } from '@mantine/core'
import { IconCheck } from '@tabler/icons-react'
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { ChallengeInfo, ChallengeItem, ScoreboardItem, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { BLOOD_META, BloodIcon, isBlood } from '../BloodIcon/BloodIcon'
import { TAG_ORDER, tagMeta } from '../ChallengeTag/ChallengeTag'
import { formatTime } from '../GameTime/GameTime'
import { useFlip } from '../BigScreen/useFlip'
import classes from './ScoreboardTable.module.css'
import { formatNumber, t } from '../../i18n'

export interface ScoreboardTableProps {
  scoreboard: ScoreboardModel
  /** The rows to show (already filtered/paged), in rank order. */
  items: ScoreboardItem[]
  /** Team ids to highlight (my teams). */
  highlight?: ReadonlySet<number>
  /** Show `divisionRank` instead of `rank` (a division is selected). */
  divisionRank?: boolean
  showOrganization?: boolean
}

function orderedChallenges(scoreboard: ScoreboardModel): { tag: ChallengeTag; challenges: ChallengeInfo[] }[] {
  return TAG_ORDER.filter((tag) => (scoreboard.challenges[tag]?.length ?? 0) > 0).map((tag) => ({ tag, challenges: scoreboard.challenges[tag]! }))
}

function SolveCell({ item, challenge }: { item: ChallengeItem | undefined; challenge: ChallengeInfo }) {
  if (!item || item.type === 'Unaccepted') return <span data-testid="scoreboard-cell" data-challenge-id={challenge.id} data-type="Unaccepted" />
  const detail = `${challenge.title} · +${item.score}${item.userName ? ` · ${item.userName}` : ''}${item.time ? ` · ${formatTime(item.time, 'MM-DD HH:mm:ss')}` : ''}`
  if (isBlood(item.type)) {
    return (
      <span data-testid="scoreboard-cell" data-challenge-id={challenge.id} data-type={item.type}>
        <BloodIcon kind={item.type} label={`${BLOOD_META[item.type].label} · ${detail}`} size={18} />
      </span>
    )
  }
  return (
    <Tooltip label={detail} withArrow openDelay={150}>
      <span data-testid="scoreboard-cell" data-challenge-id={challenge.id} data-type={item.type}>
        <IconCheck size={16} color="var(--mantine-color-brand-5)" />
      </span>
    </Tooltip>
  )
}

export function ScoreboardTable({ scoreboard, items, highlight, divisionRank = false, showOrganization = false }: ScoreboardTableProps) {
  const groups = useMemo(() => orderedChallenges(scoreboard), [scoreboard])
  const columns = useMemo(() => groups.flatMap((g) => g.challenges), [groups])
  const body = useRef<HTMLTableSectionElement>(null)
  useFlip(body, [items])

  return (
    <>
    {columns.length > 2 && (
      <Text size="xs" c="dimmed" className={classes.scrollHint} data-testid="scoreboard-scroll-hint">
        {t('← 左右滑动查看各题的解出情况 →')}
      </Text>
    )}
    <Table.ScrollContainer minWidth={480} type="native">
      <Table className={classes.table} highlightOnHover verticalSpacing={6} data-testid="scoreboard-table" stickyHeader={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th rowSpan={2} className={`${classes.sticky} ${classes.rankCol}`}>
              {t('排名')}
            </Table.Th>
            <Table.Th rowSpan={2} className={`${classes.sticky} ${classes.teamCol}`}>
              {t('队伍')}
            </Table.Th>
            {showOrganization && <Table.Th rowSpan={2}>{t('参赛单位')}</Table.Th>}
            <Table.Th rowSpan={2} className={classes.numCol} style={{ textAlign: 'center' }}>
              {t('解题')}
            </Table.Th>
            <Table.Th rowSpan={2} className={classes.numCol} style={{ textAlign: 'right' }}>
              {t('总分')}
            </Table.Th>
            {groups.map((g) => {
              const meta = tagMeta(g.tag)
              const Icon = meta.icon
              return (
                <Table.Th key={g.tag} colSpan={g.challenges.length} className={classes.tagHead} style={{ ['--tag-color' as string]: `var(--mantine-color-${meta.color}-6)` }}>
                  <Group gap={4} justify="center" wrap="nowrap">
                    <Icon size={14} />
                    <span>{meta.label}</span>
                  </Group>
                </Table.Th>
              )
            })}
          </Table.Tr>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.id} className={classes.chalHead} title={t('{{title}}（{{score}} 分，{{solved}} 解）', { title: c.title, score: c.score, solved: c.solved })}>
                <span className={classes.vertical}>{c.title}</span>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={body}>
          {items.map((item) => {
            const solved = new Map(item.challenges.map((c) => [c.id, c]))
            const mine = highlight?.has(item.id) ?? false
            return (
              <Table.Tr key={item.id} className={classes.row} data-flip-key={item.id} data-mine={mine} data-testid="scoreboard-row" data-team-id={item.id} data-rank={item.rank} data-division-rank={item.divisionRank ?? undefined}>
                <Table.Td className={`${classes.sticky} ${classes.rankCol} ${classes.rank}`} data-testid="scoreboard-rank">
                  {divisionRank ? (item.divisionRank ?? '—') : item.rank}
                </Table.Td>
                <Table.Td className={`${classes.sticky} ${classes.teamCol}`}>
                  <Group gap="xs" wrap="nowrap">
                    <Avatar src={item.avatar ?? undefined} size={28} radius="xl" color="brand" className={classes.teamAvatar}>
                      {item.name.slice(0, 1)}
                    </Avatar>
                    <Tooltip label={item.bio || item.name} withArrow openDelay={300}>
                      <Text size="sm" fw={mine ? 700 : 500} truncate data-testid="scoreboard-team">
                        {item.name}
                      </Text>
                    </Tooltip>
                  </Group>
                </Table.Td>
                {showOrganization && (
                  <Table.Td>
                    <Text size="sm" c="dimmed" truncate>
                      {item.organization ?? '—'}
                    </Text>
                  </Table.Td>
                )}
                <Table.Td style={{ textAlign: 'center' }} data-testid="scoreboard-solved">
                  {item.solvedCount}
                </Table.Td>
                <Table.Td className={`${classes.score} ${classes.numCol}`} data-testid="scoreboard-score">
                  {formatNumber(item.score)}
                </Table.Td>
                {columns.map((c) => (
                  <Table.Td key={c.id} className={classes.cell}>
                    <SolveCell item={solved.get(c.id)} challenge={c} />
                  </Table.Td>
                ))}
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
    </>
  )
}

