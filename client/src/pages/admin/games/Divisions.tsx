/**
 * The game's divisions (GZ::CTF 1.7; docs/scoring.md#divisions), under /api/edit/games/{id}/divisions:
 * create one by name, and per division rename it, set or clear its invite code, tick its default
 * `GamePermission` flags and override the challenge flags per challenge in a compact table
 * (a row without an override follows the defaults), save (PUT) or delete it (DELETE, refused
 * while teams are in it). Unsaved edits of any division guard the route.
 */
import { useMemo, useState } from 'react'
import { Badge, Button, Card, Checkbox, Group, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react'
import { skipToken, useQuery } from '@tanstack/react-query'
import { GamePermission } from '@flagwave/shared/enums'
import { hasPermission, type GamePermissionName } from '@flagwave/shared/divisions'
import type { Division } from '@flagwave/shared/schemas/games'
import type { ChallengeInfoModel } from '@flagwave/shared/schemas/challenges'
import { editApi, invalidateEdit } from '../../../api/edit'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { useDirtyFormGuard } from '../../../components/DirtyFormGuard/DirtyFormGuard'
import { GameEditFrame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { LoadError } from '../../../components/LoadError/LoadError'
import { useAction } from '../../../hooks/useAction'
import { notifySuccess } from '../../../utils/notify'
import { t } from '../../../i18n'

const FLAG_LABELS: Record<GamePermissionName, string> = {
  JoinGame: t('允许报名'),
  RankOverall: t('计入总排名'),
  RequireReview: t('报名需审核'),
  ViewChallenge: t('查看题目'),
  SubmitFlags: t('提交 flag'),
  GetScore: t('获得分数'),
  GetBlood: t('获得血'),
  AffectDynamicScore: t('影响动态分值'),
}

const DEFAULT_FLAGS: GamePermissionName[] = ['JoinGame', 'RankOverall', 'RequireReview', 'ViewChallenge', 'SubmitFlags', 'GetScore', 'GetBlood', 'AffectDynamicScore']
/** The flags a per-challenge override can change (the others are the game-wide ones). */
const CHALLENGE_FLAGS: GamePermissionName[] = ['ViewChallenge', 'SubmitFlags', 'GetScore', 'GetBlood', 'AffectDynamicScore']

const toggle = (permissions: number, flag: GamePermissionName, on: boolean): number => (on ? permissions | GamePermission[flag] : permissions & ~GamePermission[flag])

interface Draft {
  name: string
  inviteCode: string
  defaultPermissions: number
  /** Challenge id → override. */
  configs: Map<number, number>
}

const draftOf = (division: Division): Draft => ({
  name: division.name,
  inviteCode: division.inviteCode ?? '',
  defaultPermissions: division.defaultPermissions,
  configs: new Map(division.challengeConfigs.map((c) => [c.challengeId, c.permissions])),
})

const sameDraft = (a: Draft, b: Draft): boolean =>
  a.name === b.name &&
  a.inviteCode === b.inviteCode &&
  a.defaultPermissions === b.defaultPermissions &&
  a.configs.size === b.configs.size &&
  [...a.configs].every(([id, p]) => b.configs.get(id) === p)

function DivisionCard({
  gameId,
  division,
  challenges,
  draft,
  onDraft,
  onSaved,
  onDeleted,
}: {
  gameId: number
  division: Division
  challenges: ChallengeInfoModel[]
  draft: Draft
  onDraft: (draft: Draft) => void
  onSaved: (division: Division) => void
  onDeleted: () => void
}) {
  const saving = useAction()
  const deleting = useAction()
  const dirty = !sameDraft(draft, draftOf(division))
  const nameError = draft.name.trim() === '' ? t('分组名称是必需的') : null

  const save = () =>
    saving.run(t('保存分组失败'), async () => {
      const saved = await editApi.divisions.update(gameId, division.id, {
        name: draft.name.trim(),
        inviteCode: draft.inviteCode.trim() || null,
        defaultPermissions: draft.defaultPermissions,
        challengeConfigs: [...draft.configs].map(([challengeId, permissions]) => ({ challengeId, permissions })),
      })
      onSaved(saved)
      notifySuccess(t('分组「{{name}}」已保存', { name: saved.name }))
    })

  const remove = async () => {
    const confirmed = await confirmDialog({ title: t('删除分组「{{name}}」', { name: division.name }), message: t('仅能删除没有队伍的分组。确定吗？'), danger: true })
    if (!confirmed) return
    await deleting.run(t('删除分组失败'), async () => {
      await editApi.divisions.remove(gameId, division.id)
      onDeleted()
      notifySuccess(t('分组「{{name}}」已删除', { name: division.name }))
    })
  }

  const setOverride = (challengeId: number, permissions: number | null) => {
    const configs = new Map(draft.configs)
    if (permissions === null) configs.delete(challengeId)
    else configs.set(challengeId, permissions)
    onDraft({ ...draft, configs })
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid="division-card" data-division-id={division.id}>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('分组名称')}
            value={draft.name}
            error={nameError}
            onChange={(e) => onDraft({ ...draft, name: e.currentTarget.value })}
            w={220}
            data-testid="division-name"
          />
          <TextInput
            label={t('邀请码')}
            description={t('留空则使用比赛的邀请码')}
            value={draft.inviteCode}
            onChange={(e) => onDraft({ ...draft, inviteCode: e.currentTarget.value })}
            w={220}
            data-testid="division-invite-code"
          />
          <Group gap="xs" ml="auto">
            {dirty && (
              <Badge color="yellow" variant="light" data-testid="division-dirty">
                {t('未保存')}
              </Badge>
            )}
            <Button
              size="xs"
              leftSection={<IconDeviceFloppy size={14} />}
              onClick={() => void save()}
              loading={saving.busy}
              disabled={!dirty || nameError !== null}
              data-testid="division-save"
            >
              {t('保存')}
            </Button>
            <Button size="xs" color="alert" variant="light" leftSection={<IconTrash size={14} />} onClick={() => void remove()} loading={deleting.busy} data-testid="division-delete">
              {t('删除')}
            </Button>
          </Group>
        </Group>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('默认权限')}
          </Text>
          <Group gap="md" data-testid="division-defaults">
            {DEFAULT_FLAGS.map((flag) => (
              <Checkbox
                key={flag}
                size="xs"
                label={FLAG_LABELS[flag]}
                checked={hasPermission(draft.defaultPermissions, flag)}
                onChange={(e) => onDraft({ ...draft, defaultPermissions: toggle(draft.defaultPermissions, flag, e.currentTarget.checked) })}
                data-testid={`division-default-${flag}`}
              />
            ))}
          </Group>
        </Stack>
        {challenges.length > 0 && (
          <Table fz="xs" verticalSpacing={2} withTableBorder data-testid="division-overrides">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('题目')}</Table.Th>
                <Table.Th>{t('单独设置')}</Table.Th>
                {CHALLENGE_FLAGS.map((flag) => (
                  <Table.Th key={flag}>{FLAG_LABELS[flag]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {challenges.map((challenge) => {
                const override = draft.configs.get(challenge.id)
                const permissions = override ?? draft.defaultPermissions
                return (
                  <Table.Tr key={challenge.id} data-testid="division-override" data-challenge-id={challenge.id} data-custom={override === undefined ? 'false' : 'true'}>
                    <Table.Td>{challenge.title}</Table.Td>
                    <Table.Td>
                      <Checkbox
                        size="xs"
                        aria-label={t('单独设置')}
                        checked={override !== undefined}
                        onChange={(e) => setOverride(challenge.id, e.currentTarget.checked ? draft.defaultPermissions : null)}
                        data-testid="division-override-custom"
                      />
                    </Table.Td>
                    {CHALLENGE_FLAGS.map((flag) => (
                      <Table.Td key={flag}>
                        <Checkbox
                          size="xs"
                          aria-label={FLAG_LABELS[flag]}
                          checked={hasPermission(permissions, flag)}
                          disabled={override === undefined}
                          onChange={(e) => setOverride(challenge.id, toggle(permissions, flag, e.currentTarget.checked))}
                          data-testid={`division-override-${flag}`}
                        />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                )
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  )
}

export default function Divisions() {
  const gameId = useEditGameId()
  const queryKey = queryKeys.edit.divisions(gameId ?? 0)
  const { data, error, isLoading } = useQuery({ queryKey, queryFn: gameId === null ? skipToken : () => editApi.divisions.list(gameId) })
  const { data: challenges } = useQuery({ queryKey: queryKeys.edit.challenges(gameId ?? 0), queryFn: gameId === null ? skipToken : () => editApi.challenges.list(gameId) })
  const [drafts, setDrafts] = useState<Record<number, Draft>>({})
  const [newName, setNewName] = useState('')
  const creating = useAction()

  const divisions = useMemo(() => [...(data ?? [])].sort((a, b) => a.id - b.id), [data])
  const dirty = divisions.some((d) => drafts[d.id] !== undefined && !sameDraft(drafts[d.id]!, draftOf(d)))
  useDirtyFormGuard(dirty)

  const setList = (update: (current: Division[]) => Division[]) => {
    queryClient.setQueryData<Division[]>(queryKey, (current) => update(current ?? []))
    // The game's organizations are its division names.
    if (gameId !== null) invalidateEdit(queryKeys.edit.game(gameId))
  }
  const dropDraft = (id: number) =>
    setDrafts((current) => {
      const { [id]: _dropped, ...rest } = current
      return rest
    })

  const create = async () => {
    if (gameId === null || newName.trim() === '') return
    await creating.run(t('创建分组失败'), async () => {
      const division = await editApi.divisions.create(gameId, { name: newName.trim() })
      setList((current) => [...current.filter((d) => d.id !== division.id), division])
      setNewName('')
      notifySuccess(t('分组「{{name}}」已创建', { name: division.name }))
    })
  }

  return (
    <GameEditFrame testId="admin-game-divisions-page">
      <Stack gap="xs">
        <Title order={5}>{t('分组')}</Title>
        <Text size="sm" c="dimmed">
          {t('每个分组有自己的排行榜、邀请码和权限；分组名称即参赛单位。')}
        </Text>
        <Group align="flex-end">
          <TextInput
            label={t('新分组名称')}
            value={newName}
            onChange={(e) => setNewName(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && void create()}
            w={260}
            data-testid="division-create-name"
          />
          <Button leftSection={<IconPlus size={16} />} onClick={() => void create()} loading={creating.busy} disabled={newName.trim() === ''} data-testid="division-create-submit">
            {t('创建分组')}
          </Button>
        </Group>
      </Stack>
      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Skeleton height={160} />
      ) : divisions.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="divisions-empty">
          {t('暂无分组：所有队伍拥有全部权限')}
        </Text>
      ) : (
        <Stack gap="md" data-testid="divisions-list">
          {gameId !== null &&
            divisions.map((division) => (
              <DivisionCard
                key={division.id}
                gameId={gameId}
                division={division}
                challenges={challenges ?? []}
                draft={drafts[division.id] ?? draftOf(division)}
                onDraft={(draft) => setDrafts((current) => ({ ...current, [division.id]: draft }))}
                onSaved={(saved) => {
                  setList((current) => current.map((d) => (d.id === saved.id ? saved : d)))
                  dropDraft(saved.id)
                }}
                onDeleted={() => {
                  setList((current) => current.filter((d) => d.id !== division.id))
                  dropDraft(division.id)
                }}
              />
            ))}
        </Stack>
      )}
    </GameEditFrame>
  )
}
