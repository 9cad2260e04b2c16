import { useEffect, useState } from 'react'
import {
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconCrown, IconEdit, IconTrash } from '@tabler/icons-react'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '@flagwave/shared/limits'
import { AdminTeamModel, type TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { adminApi } from '../../api/admin'
import { queryKeys } from '../../api/queryKeys'
import { SearchableList } from '../../components/SearchableList/SearchableList'
import { useSearchableList } from '../../components/SearchableList/useSearchableList'
import { useRowActions } from '../../hooks/useAction'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { sortedMembers } from '../../stores/teams'
import { notifySuccess } from '../../utils/notify'
import { zodErrors } from '../../utils/zodForm'
import { RowAction } from '../../components/RowAction/RowAction'
import { NameCell } from '../../components/NameCell/NameCell'
import { useAction } from '../../hooks/useAction'
import { t } from '../../i18n'
import { byText, SortableTh, useSortedRows, type Sorters } from '../../components/SortableTh/SortableTh'

const PAGE_SIZE = 20

interface EditValues {
  name: string
  bio: string
  locked: boolean
}

function EditTeamModal({ team, onClose, onSaved }: { team: TeamInfoModel | null; onClose: () => void; onSaved: () => void }) {
  const { busy, run } = useAction()
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: { name: '', bio: '', locked: false },
    validate: (values) => zodErrors(AdminTeamModel, { name: values.name.trim(), bio: values.bio, locked: values.locked }),
  })
  useEffect(() => {
    if (!team) return
    const values = { name: team.name ?? '', bio: team.bio ?? '', locked: team.locked }
    form.setInitialValues(values)
    form.setValues(values)
  }, [team?.id])

  const submit = form.onSubmit(async (values) => {
    if (!team) return
    await run(t('更新队伍失败'), async () => {
      await adminApi.teams.update(team.id, { name: values.name.trim(), bio: values.bio, locked: values.locked })
      notifySuccess(t('已更新队伍 {{v0}}', { v0: values.name.trim() || team.name }))
      onSaved()
      onClose()
    })
  })

  return (
    <Modal opened={team !== null} onClose={onClose} title={t('编辑队伍 · {{v0}}', { v0: team?.name ?? '' })} data-testid="admin-team-edit-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('队伍名称')} description={t('不超过 {{TEAM_NAME_MAX}} 个字符；留空则不修改', { TEAM_NAME_MAX })} data-testid="admin-team-edit-name" {...form.getInputProps('name')} />
          <Textarea
            label={t('队伍签名')}
            description={t('不超过 {{TEAM_BIO_MAX}} 个字符；留空则不修改', { TEAM_BIO_MAX })}
            autosize
            minRows={2}
            data-testid="admin-team-edit-bio"
            {...form.getInputProps('bio')}
          />
          <Switch label={t('锁定队伍（锁定后成员不能变动）')} data-testid="admin-team-edit-locked" {...form.getInputProps('locked', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('取消')}
            </Button>
            <Button type="submit" loading={busy} data-testid="admin-team-edit-save">
              {t('保存')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

const NO_TEAMS: TeamInfoModel[] = []
const TEAM_SORTERS: Sorters<TeamInfoModel, 'name'> = { name: (a, b) => byText(a.name, b.name) }

/** admin/Teams: paged teams with members (GET /api/admin/teams), search, edit (name, bio, lock), delete. */
export default function Teams() {
  const [editing, setEditing] = useState<TeamInfoModel | null>(null)
  const list = useSearchableList<TeamInfoModel>({
    pageSize: PAGE_SIZE,
    listKey: queryKeys.admin.teams,
    list: adminApi.teams.list,
    searchKey: queryKeys.admin.teamSearch,
    search: adminApi.teams.search,
  })
  const rows = useRowActions<number>()
  const busy = rows.busy
  const data = list.query.data
  // By name unless the header asks otherwise (the rows of the page shown).
  const { sorted, sort, toggle } = useSortedRows(data?.data ?? NO_TEAMS, TEAM_SORTERS, { key: 'name', direction: 'asc' })

  const toggleLock = async (team: TeamInfoModel, locked: boolean) => {
    await rows.run(team.id, t('操作失败'), async () => {
      await adminApi.teams.update(team.id, { locked })
      list.patchRows((t) => (t.id === team.id ? { ...t, locked } : t))
      notifySuccess(locked ? t('已锁定队伍 {{name}}', { name: team.name }) : t('已解锁队伍 {{name}}', { name: team.name }))
    })
    void list.query.refetch()
  }

  const remove = async (team: TeamInfoModel) => {
    const ok = await confirmDialog({
      title: t('删除队伍'),
      message: t('确定删除队伍「{{name}}」吗？它的比赛报名将一并删除，此操作不可恢复。', { name: team.name }),
      confirmLabel: t('删除'),
      danger: true,
    })
    if (!ok) return
    await rows.run(team.id, t('删除队伍失败'), async () => {
      await adminApi.teams.remove(team.id)
      notifySuccess(t('已删除队伍 {{name}}', { name: team.name }))
      await list.query.refetch()
    })
  }

  return (
    <>
      <SearchableList
        list={list}
        title={t('队伍管理')}
        pageTestId="admin-teams-page"
        searchTestId="admin-team"
        searchPlaceholder={t('搜索队伍名称')}
        searchWidth={280}
        emptyTestId="admin-teams-empty"
        emptyText={t('队伍')}
        totalText={(total) => t('共 {{total}} 支队伍', { total })}
      >
      <Table.ScrollContainer minWidth={860}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-team-table">
          <Table.Thead>
            <Table.Tr>
              <SortableTh column="name" sort={sort} onSort={(key) => toggle(key)} testId="admin-team-sort-name">
                {t('队伍')}
              </SortableTh>
              <Table.Th>{t('成员')}</Table.Th>
              <Table.Th w={90}>{t('锁定')}</Table.Th>
              <Table.Th w={100} ta="right">
                {t('操作')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((team) => (
              <Table.Tr key={team.id} data-testid="admin-team-row" data-team-id={team.id} data-team-name={team.name ?? ''}>
                <Table.Td>
                  <NameCell
                    avatar={team.avatar}
                    name={team.name}
                    avatarSize={36}
                    avatarRadius="md"
                    avatarColor="brand"
                    detail={team.bio || '—'}
                    detailWidth={320}
                    tags={
                      <Text size="xs" c="dimmed">
                        #{team.id}
                      </Text>
                    }
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {sortedMembers(team).map((member) => (
                      <Badge
                        key={member.id}
                        variant={member.captain ? 'light' : 'default'}
                        leftSection={member.captain ? <IconCrown size={12} /> : undefined}
                        style={{ textTransform: 'none' }}
                      >
                        {member.userName}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={team.locked}
                    disabled={busy[team.id]}
                    onChange={(event) => void toggleLock(team, event.currentTarget.checked)}
                    aria-label={t('锁定队伍')}
                    data-testid="admin-team-locked"
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <RowAction label={t('编辑')} icon={<IconEdit size={18} />} onClick={() => setEditing(team)} testId="admin-team-edit" />
                    <RowAction label={t('删除')} icon={<IconTrash size={18} />} color="alert" loading={busy[team.id]} onClick={() => void remove(team)} testId="admin-team-delete" />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      </SearchableList>
      <EditTeamModal team={editing} onClose={() => setEditing(null)} onSaved={() => void list.query.refetch()} />
    </>
  )
}
