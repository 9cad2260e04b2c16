/**
 * Game settings (GET/PUT /api/edit/games/{id}): every member of GameInfoModel — title, summary,
 * Markdown introduction with preview, visibility and registration switches, invite code (with a
 * generator), organizations, team member and container limits, start/end/write-up deadline (local
 * pickers, sent as UTC ISO), write-up note and the blood bonus as three percentages. Saving sends
 * the full model (a PUT replaces). Beside the form: the poster upload (PUT …/poster), the
 * [TEAM_HASH] salt (GET …/teamhashsalt) and the public key with copy buttons, and deletion.
 * Unsaved changes are guarded (route change and tab close).
 */
import { useState } from 'react'
import {
  Button,
  Card,
  Divider,
  FileButton,
  Grid,
  Group,
  NumberInput,
  Skeleton,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core'
import { IconDeviceFloppy, IconDice5, IconTrash, IconUpload } from '@tabler/icons-react'
import { useNavigate } from 'react-router-dom'
import { IMAGE_MIME_TYPES, INVITE_CODE_MAX } from '@flagwave/shared/limits'
import { GameInfoInput, type GameInfoModel } from '@flagwave/shared/schemas/games'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { editApi, forgetEdit, invalidateGameLists, type GameInfoRequest } from '../../../api/edit'
import { useQuery } from '@tanstack/react-query'
import { BloodBonusInput, bloodBonusError, bloodBonusToPercents, percentsToBloodBonus, type BloodBonusPercents } from '../../../components/BloodBonusInput/BloodBonusInput'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { CopyableText } from '../../../components/CopyableText/CopyableText'
import { DateTimeField, toUtcIso } from '../../../components/DateTimeField/DateTimeField'
import { FreezeCard } from '../../../components/FreezeCard/FreezeCard'
import { GamePoster } from '../../../components/GameCard/GameCard'
import { GameDataCard } from '../../../components/GameDataCard/GameDataCard'
import { GameEditFrame, useEditGame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { MarkdownEditor } from '../../../components/MarkdownEditor/MarkdownEditor'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { zodErrors } from '../../../utils/zodForm'
import { LoadError } from '../../../components/LoadError/LoadError'
import { acceptImage } from '../../../utils/acceptImage'
import { useServerForm } from '../../../hooks/useServerForm'
import { t } from '../../../i18n'

type InfoValues = {
  title: string
  summary: string
  content: string
  hidden: boolean
  practiceMode: boolean
  acceptWithoutReview: boolean
  inviteCode: string
  organizations: string[]
  teamMemberCountLimit: number | string
  containerCountLimit: number | string
  start: string | null
  end: string | null
  wpddl: string | null
  wpNote: string
  bloodBonus: BloodBonusPercents
  /** The scoreboard freeze time (docs/scoring.md#freeze); null: none. */
  freezeTime: string | null
  replayPublic: boolean
}

const valuesOf = (game: GameInfoModel): InfoValues => ({
  title: game.title,
  summary: game.summary,
  content: game.content,
  hidden: game.hidden,
  practiceMode: game.practiceMode,
  acceptWithoutReview: game.acceptWithoutReview,
  inviteCode: game.inviteCode ?? '',
  organizations: game.organizations ?? [],
  teamMemberCountLimit: game.teamMemberCountLimit,
  containerCountLimit: game.containerCountLimit,
  start: toUtcIso(game.start),
  end: toUtcIso(game.end),
  wpddl: toUtcIso(game.wpddl),
  wpNote: game.wpNote,
  bloodBonus: bloodBonusToPercents(game.bloodBonus),
  freezeTime: game.freezeTime ? toUtcIso(game.freezeTime) : null,
  replayPublic: game.replayPublic,
})

const intOf = (value: number | string): number => (typeof value === 'number' ? value : value.trim() === '' ? 0 : Number(value))

/** The full GameInfoModel request (a PUT replaces every member). */
const bodyOf = (values: InfoValues): GameInfoRequest => ({
  title: values.title.trim(),
  summary: values.summary,
  content: values.content,
  hidden: values.hidden,
  practiceMode: values.practiceMode,
  acceptWithoutReview: values.acceptWithoutReview,
  inviteCode: values.inviteCode.trim() === '' ? null : values.inviteCode.trim(),
  organizations: values.organizations.map((o) => o.trim()).filter(Boolean),
  teamMemberCountLimit: intOf(values.teamMemberCountLimit),
  containerCountLimit: intOf(values.containerCountLimit),
  start: values.start ? toUtcIso(values.start) : undefined,
  end: values.end ? toUtcIso(values.end) : undefined,
  wpddl: values.wpddl ? toUtcIso(values.wpddl) : undefined,
  wpNote: values.wpNote,
  bloodBonus: percentsToBloodBonus(values.bloodBonus) ?? undefined,
  freezeTime: values.freezeTime ? toUtcIso(values.freezeTime) : null,
  replayPublic: values.replayPublic,
})

function validate(values: InfoValues): Record<string, string> {
  const errors: Record<string, string> = {}
  const bonus = bloodBonusError(values.bloodBonus)
  if (bonus) errors.bloodBonus = bonus
  if (!values.start) errors.start = t('请选择开始时间')
  if (!values.end) errors.end = t('请选择结束时间')
  if (!values.wpddl) errors.wpddl = t('请选择 Writeup 截止时间')
  if (values.start && values.end && Date.parse(values.end) <= Date.parse(values.start)) errors.end = t('结束时间必须晚于开始时间')
  for (const key of ['teamMemberCountLimit', 'containerCountLimit'] as const) {
    const n = intOf(values[key])
    if (!Number.isInteger(n) || n < 0) errors[key] = t('请输入非负整数')
  }
  return { ...errors, ...zodErrors(GameInfoInput, bodyOf(values)) }
}

/** A random invite code: 24 lowercase hex characters. */
function generateInviteCode(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')
}

function PosterCard({ game }: { game: GameInfoModel }) {
  const [busy, setBusy] = useState(false)
  const { refetch: revalidate } = useEditGame(game.id)
  const upload = async (file: File | null) => {
    if (!file || !acceptImage(file, t('海报上传失败'))) return
    setBusy(true)
    try {
      await editApi.games.poster(game.id, file)
      await revalidate()
      invalidateGameLists()
      notifySuccess(t('海报已更新'))
    } catch (error) {
      notifyError(error, t('海报上传失败'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card withBorder radius="md" padding="sm" data-testid="game-poster-card" data-poster={game.poster ?? ''}>
      <Card.Section>
        <GamePoster poster={game.poster} title={game.title} />
      </Card.Section>
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {t('PNG、GIF、JPEG、WebP、BMP、TIFF，≤ 3 MB')}
        </Text>
        <FileButton onChange={(file) => void upload(file)} accept={IMAGE_MIME_TYPES.join(',')} inputProps={{ 'data-testid': 'game-poster-input' }}>
          {(props) => (
            <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} />} loading={busy} data-testid="game-poster-upload">
              {t('上传海报')}
            </Button>
          )}
        </FileButton>
      </Group>
    </Card>
  )
}

function KeysCard({ game }: { game: GameInfoModel }) {
  const { data: salt, error } = useQuery({ queryKey: queryKeys.edit.salt(game.id), queryFn: () => editApi.games.teamHashSalt(game.id), refetchInterval: false })
  return (
    <Card withBorder radius="md" padding="sm">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('队伍哈希盐')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('flag 模板中 [TEAM_HASH] 的计算盐值，可用于在题目外部生成与平台一致的动态 flag。')}
        </Text>
        {salt ? (
          <CopyableText value={salt} copiedMessage={t('队伍哈希盐已复制')} testId="game-team-hash-salt" copyTestId="game-team-hash-salt-copy" />
        ) : error ? (
          <Text size="sm" c="alert">
            {error.message}
          </Text>
        ) : (
          <Skeleton height={36} />
        )}
        <Divider />
        <Text fw={600} size="sm">
          {t('比赛公钥')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('Ed25519 公钥，用于验证队伍 token 的签名。')}
        </Text>
        <CopyableText value={game.publicKey} copiedMessage={t('公钥已复制')} testId="game-public-key" />
      </Stack>
    </Card>
  )
}

function InfoForm({ game }: { game: GameInfoModel }) {
  const navigate = useNavigate()
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null)
  const { form, dirty, guard, saved: savedForm } = useServerForm({ entity: game, valuesOf, validate })

  const submit = form.onSubmit(async (values) => {
    setBusy('save')
    try {
      const saved = await editApi.games.update(game.id, bodyOf(values))
      queryClient.setQueryData(queryKeys.edit.game(game.id), saved)
      savedForm(saved)
      invalidateGameLists()
      notifySuccess(t('比赛信息已保存'))
    } catch (error) {
      notifyError(error, t('保存失败'))
    } finally {
      setBusy(null)
    }
  })

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: t('删除比赛'),
      message: t('确定要删除比赛「{{title}}」吗？题目、附件、参赛记录和 Writeup 都将被删除，且不可恢复。', { title: game.title }),
      danger: true,
    })
    if (!confirmed) return
    setBusy('delete')
    try {
      await editApi.games.remove(game.id)
      notifySuccess(t('比赛「{{title}}」已删除', { title: game.title }))
      guard.allowNavigation()
      navigate('/admin/games')
      forgetEdit(queryKeys.edit.game(game.id))
      invalidateGameLists()
    } catch (error) {
      notifyError(error, t('删除失败'))
      setBusy(null)
    }
  }

  const bloodBonus = form.values.bloodBonus
  return (
    <form onSubmit={submit} noValidate data-testid="game-info-form" data-dirty={dirty ? 'true' : 'false'}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={4}>{t('基本信息')}</Title>
              <Group gap="xs">
                <Button variant="default" disabled={!dirty || busy !== null} onClick={() => form.reset()} data-testid="game-info-reset">
                  {t('撤销更改')}
                </Button>
                <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={busy === 'save'} disabled={!dirty || busy === 'delete'} data-testid="game-info-save">
                  {t('保存')}
                </Button>
              </Group>
            </Group>
            <TextInput label={t('比赛标题')} required data-testid="game-info-title" {...form.getInputProps('title')} />
            <Textarea label={t('比赛简介')} description={t('显示在比赛列表中')} autosize minRows={2} maxRows={5} data-testid="game-info-summary" {...form.getInputProps('summary')} />
            <MarkdownEditor
              label={t('比赛详情')}
              description={t('支持 Markdown，显示在比赛详情页')}
              value={form.values.content}
              onChange={(value) => form.setFieldValue('content', value)}
              error={form.errors.content}
              minRows={8}
              testId="game-info-content"
            />
            <Grid gap="sm">
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <DateTimeField label={t('开始时间')} value={form.values.start} onChange={(v) => form.setFieldValue('start', v)} error={form.errors.start} testId="game-info-start" />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <DateTimeField label={t('结束时间')} value={form.values.end} onChange={(v) => form.setFieldValue('end', v)} error={form.errors.end} testId="game-info-end" />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <DateTimeField label={t('Writeup 截止时间')} value={form.values.wpddl} onChange={(v) => form.setFieldValue('wpddl', v)} error={form.errors.wpddl} testId="game-info-wpddl" />
              </Grid.Col>
            </Grid>
            <Textarea label={t('Writeup 附加说明')} description={t('显示在队伍上传 Writeup 的页面')} autosize minRows={2} maxRows={6} data-testid="game-info-wpnote" {...form.getInputProps('wpNote')} />
            <Divider label={t('参赛设置')} labelPosition="left" />
            <Group gap="xl">
              <Switch label={t('隐藏比赛')} description={t('不在公开比赛列表中显示')} data-testid="game-info-hidden" {...form.getInputProps('hidden', { type: 'checkbox' })} />
              <Switch label={t('练习模式')} description={t('比赛结束后仍可访问与提交')} data-testid="game-info-practice" {...form.getInputProps('practiceMode', { type: 'checkbox' })} />
              <Switch label={t('免审核')} description={t('报名即自动通过')} data-testid="game-info-accept" {...form.getInputProps('acceptWithoutReview', { type: 'checkbox' })} />
            </Group>
            <Grid gap="sm">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('邀请码')}
                    description={t('留空则无需邀请码，至多 {{INVITE_CODE_MAX}} 个字符', { INVITE_CODE_MAX })}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    data-testid="game-info-invite"
                    {...form.getInputProps('inviteCode')}
                  />
                  <Button variant="light" leftSection={<IconDice5 size={16} />} onClick={() => form.setFieldValue('inviteCode', generateInviteCode())} data-testid="game-info-invite-generate">
                    {t('生成')}
                  </Button>
                </Group>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <TagsInput
                  label={t('参赛单位')}
                  description={t('留空则不限制；回车添加')}
                  placeholder={t('输入单位名称')}
                  clearable
                  data-testid="game-info-organizations"
                  {...form.getInputProps('organizations')}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <NumberInput label={t('队伍人数上限')} description={t('0 表示不限制')} min={0} allowDecimal={false} allowNegative={false} data-testid="game-info-member-limit" {...form.getInputProps('teamMemberCountLimit')} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <NumberInput label={t('队伍容器数量上限')} description={t('0 表示不限制')} min={0} allowDecimal={false} allowNegative={false} data-testid="game-info-container-limit" {...form.getInputProps('containerCountLimit')} />
              </Grid.Col>
            </Grid>
            <Divider label={t('计分')} labelPosition="left" />
            <BloodBonusInput value={bloodBonus} onChange={(value) => form.setFieldValue('bloodBonus', value)} error={form.errors.bloodBonus as string | undefined} />
            <Grid gap="sm" align="flex-end">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DateTimeField
                  label={t('积分榜冻结时间')}
                  description={t('从此刻起选手与公众看到的积分榜停止变化，留空则不冻结')}
                  value={form.values.freezeTime}
                  onChange={(v) => form.setFieldValue('freezeTime', v)}
                  error={form.errors.freezeTime}
                  clearable
                  testId="game-info-freeze-time"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Switch label={t('公开回放')} description={t('比赛结束后所有人都可回放积分榜')} data-testid="game-info-replay-public" {...form.getInputProps('replayPublic', { type: 'checkbox' })} />
              </Grid.Col>
            </Grid>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <PosterCard game={game} />
            <KeysCard game={game} />
            <FreezeCard
              game={game}
              // Unsaved edits of other fields survive a freeze: only the freeze time follows then.
              onChanged={(saved) => (dirty ? form.setFieldValue('freezeTime', saved.freezeTime ? toUtcIso(saved.freezeTime) : null) : savedForm(saved))}
            />
            <GameDataCard game={game} />
            <Card withBorder radius="md" padding="sm" style={{ borderColor: 'var(--mantine-color-alert-6)' }}>
              <Stack gap="xs">
                <Text fw={600} size="sm" c="alert">
                  {t('危险操作')}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('删除比赛将同时删除其全部题目、附件、参赛记录与 Writeup。')}
                </Text>
                <Button color="alert" variant="light" leftSection={<IconTrash size={16} />} loading={busy === 'delete'} onClick={() => void remove()} data-testid="game-delete">
                  {t('删除比赛')}
                </Button>
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  )
}

export default function Info() {
  const gameId = useEditGameId()
  const { data: game, error } = useEditGame(gameId)
  return (
    <GameEditFrame testId="admin-game-info-page">
      {game && game.id === gameId ? (
        <InfoForm key={game.id} game={game} />
      ) : error ? (
        <LoadError error={error} />
      ) : (
        <Stack gap="sm">
          <Skeleton height={36} />
          <Skeleton height={240} />
        </Stack>
      )}
    </GameEditFrame>
  )
}
