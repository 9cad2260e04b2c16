/**
 * Game administration list (GET /api/edit/games, paged, newest first): poster thumbnail, title,
 * time window, hidden/practice badges; a click opens the game's Info editor. "新建比赛" creates
 * a game from title, start and end, with the write-up deadline end + 3 h like the reference
 * client (POST /api/edit/games), and opens its Info editor. "导入比赛" creates one from an archive
 * (ImportGameModal.tsx, docs/archive.md#import).
 */
import { useState } from 'react'
import { Badge, Button, Card, Center, Group, Image, Modal, Pagination, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCalendarEvent, IconFileImport, IconPlus } from '@tabler/icons-react'
import dayjs from 'dayjs'
import { useNavigate } from 'react-router-dom'
import { GameInfoInput, type GameInfoModel } from '@flagwave/shared/schemas/games'
import { editApi, invalidateGameLists } from '../../api/edit'
import { useQuery } from '@tanstack/react-query'
import { queryKeys } from '../../api/queryKeys'
import { DateTimeField, toUtcIso } from '../../components/DateTimeField/DateTimeField'
import { formatTime, gamePhase, PhaseBadge, useNow } from '../../components/GameTime/GameTime'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { LoadError } from '../../components/LoadError/LoadError'
import { useAction } from '../../hooks/useAction'
import { ImportGameModal } from './ImportGameModal'
import { ModalFooter } from '../../components/ModalFooter/ModalFooter'
import { t } from '../../i18n'
import { byText, byTime, SortableTh, useSortedRows, type Sorters } from '../../components/SortableTh/SortableTh'

const PAGE_SIZE = 20
/** The reference client sets the write-up deadline 3 hours after the end. */
const WRITEUP_GRACE_HOURS = 3

interface CreateValues {
  title: string
  start: string | null
  end: string | null
}

function defaultWindow(): { start: string; end: string } {
  const start = dayjs().add(1, 'hour').startOf('hour')
  return { start: start.toISOString(), end: start.add(2, 'day').toISOString() }
}

function CreateGameModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const { busy, run } = useAction()
  const form = useForm<CreateValues>({
    mode: 'controlled',
    initialValues: { title: '', ...defaultWindow() },
    validate: (values) => ({
      ...zodErrors(GameInfoInput.pick({ title: true }), { title: values.title }),
      ...(values.start ? {} : { start: t('请选择开始时间') }),
      ...(values.end ? {} : { end: t('请选择结束时间') }),
      ...(values.start && values.end && Date.parse(values.end) <= Date.parse(values.start) ? { end: t('结束时间必须晚于开始时间') } : {}),
    }),
  })

  const submit = form.onSubmit(async (values) => {
    await run(t('创建比赛失败'), async () => {
      const end = toUtcIso(values.end!)
      const game = await editApi.games.create({
        title: values.title.trim(),
        start: toUtcIso(values.start!),
        end,
        wpddl: dayjs(end).add(WRITEUP_GRACE_HOURS, 'hour').toISOString(),
      })
      invalidateGameLists()
      notifySuccess(t('比赛「{{title}}」已创建', { title: game.title }))
      form.setValues({ title: '', ...defaultWindow() })
      onClose()
      navigate(`/admin/games/${game.id}/info`)
    })
  })

  return (
    <Modal opened={opened} onClose={onClose} title={t('新建比赛')} data-testid="game-create-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('比赛标题')} placeholder={t('Flagwave CTF 2024')} data-autofocus data-testid="game-create-title" {...form.getInputProps('title')} />
          <DateTimeField
            label={t('开始时间')}
            value={form.values.start}
            onChange={(value) => form.setFieldValue('start', value)}
            error={form.errors.start}
            testId="game-create-start"
          />
          <DateTimeField label={t('结束时间')} value={form.values.end} onChange={(value) => form.setFieldValue('end', value)} error={form.errors.end} testId="game-create-end" />
          <Text size="xs" c="dimmed">
            {t('Writeup 截止时间默认为结束后')} {WRITEUP_GRACE_HOURS} {t('小时，可在比赛信息中修改。')}
          </Text>
          <ModalFooter onCancel={onClose} confirmLabel={t('创建比赛')} loading={busy} confirmTestId="game-create-submit" />
        </Stack>
      </form>
    </Modal>
  )
}

const NO_GAMES: GameInfoModel[] = []
const GAME_SORTERS: Sorters<GameInfoModel, 'title' | 'time'> = {
  title: (a, b) => byText(a.title, b.title),
  time: (a, b) => byTime(a.start, b.start) || a.id - b.id,
}

export default function Games() {
  const navigate = useNavigate()
  const now = useNow(30_000)
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState(false)
  const [importing, setImporting] = useState(false)
  const skip = (page - 1) * PAGE_SIZE
  const { data, error, isLoading } = useQuery({ queryKey: queryKeys.edit.games(PAGE_SIZE, skip), queryFn: () => editApi.games.list(PAGE_SIZE, skip) })
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1
  // The server pages newest first (highest id); the header sorts the page shown, newest start first by default.
  const { sorted, sort, toggle } = useSortedRows(data?.data ?? NO_GAMES, GAME_SORTERS, { key: 'time', direction: 'desc' })

  return (
    <Stack gap="md" data-testid="admin-games-page">
      <Group justify="space-between">
        <Title order={2}>{t('比赛管理')}</Title>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)} data-testid="game-import-open-modal">
            {t('导入比赛')}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="game-create-open">
            {t('新建比赛')}
          </Button>
        </Group>
      </Group>
      <CreateGameModal opened={creating} onClose={() => setCreating(false)} />
      <ImportGameModal opened={importing} onClose={() => setImporting(false)} />

      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Stack gap="xs">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={72} />
          ))}
        </Stack>
      ) : data && data.data.length === 0 ? (
        <Card withBorder padding="xl" data-testid="admin-games-empty">
          <Center>
            <Text c="dimmed">{t('还没有比赛，点击「新建比赛」创建第一个比赛。')}</Text>
          </Center>
        </Card>
      ) : data ? (
        <Card withBorder padding={0} radius="md">
          <Table highlightOnHover verticalSpacing="sm" data-testid="admin-games-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={140}>{t('海报')}</Table.Th>
                <SortableTh column="title" sort={sort} onSort={(key) => toggle(key)} testId="admin-games-sort-title">
                  {t('比赛')}
                </SortableTh>
                <SortableTh column="time" sort={sort} onSort={(key) => toggle(key, 'desc')} testId="admin-games-sort-time">
                  {t('时间')}
                </SortableTh>
                <Table.Th w={160}>{t('状态')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((game) => (
                <Table.Tr
                  key={game.id}
                  style={{ cursor: 'pointer' }}
                  onClick={() => navigate(`/admin/games/${game.id}/info`)}
                  data-testid="admin-game-row"
                  data-game-id={game.id}
                >
                  <Table.Td>
                    {game.poster ? (
                      <Image src={game.poster} alt={game.title} w={120} h={68} radius="sm" fit="cover" data-testid="admin-game-poster" />
                    ) : (
                      <Center w={120} h={68} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
                        <Text size="xs" c="dimmed">
                          {t('无海报')}
                        </Text>
                      </Center>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text fw={600} data-testid="admin-game-title">
                      {game.title}
                    </Text>
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      #{game.id} {game.summary}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <IconCalendarEvent size={14} />
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatTime(game.start)} ~ {formatTime(game.end)}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <PhaseBadge phase={gamePhase(game.start, game.end, now)} size="sm" />
                      {game.hidden && (
                        <Badge size="sm" color="gray" variant="filled" data-testid="admin-game-hidden">
                          {t('隐藏')}
                        </Badge>
                      )}
                      {game.practiceMode && (
                        <Badge size="sm" variant="outline">
                          {t('练习')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ) : null}
      {data && pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} data-testid="admin-games-pagination" />
        </Group>
      )}
    </Stack>
  )
}
