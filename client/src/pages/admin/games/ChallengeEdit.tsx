/**
 * Challenge editor (GET/PUT /api/edit/games/{id}/challenges/{chalId}, ChallengeUpdateModel):
 * title, category, Markdown statement with side-by-side preview, hints; the flag template of
 * dynamic containers (with the placeholder help, the leet table and a live entropy check using
 * the shared `leetEntropy`/`isAcceptableTemplate`); the download name of dynamic attachments;
 * container image, memory, CPU (tenths), storage, exposed port and traffic capture for container
 * types; scoring (original score, minimum score rate, difficulty) with a live score-curve preview
 * (shared `challengeScore`). Beside it: the challenge attachment (None / Local upload / Remote),
 * the test container, the challenge rules (opening time, deadline, attempt limit; docs/challenge-rules.md)
 * and deletion. Unsaved changes are guarded.
 */
import { useState } from 'react'
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core'
import { IconAlertTriangle, IconDeviceFloppy, IconPlus, IconTrash, IconX } from '@tabler/icons-react'
import { NO_PROVIDER_WARNING, useNoContainerProvider } from '../../../utils/containerFailure'
import { useNavigate } from 'react-router-dom'
import { isContainerType, type ChallengeTag, type ChallengeType } from '@flagwave/shared/enums'
import { WEAK_TEMPLATE_MESSAGE } from '@flagwave/shared/flags'
import { FLAG_TEMPLATE_MAX } from '@flagwave/shared/limits'
import { ChallengeUpdateModel, SUBMISSION_LIMIT_MAX, type ChallengeEditDetailModel } from '@flagwave/shared/schemas/challenges'
import { DateTimeField } from '../../../components/DateTimeField/DateTimeField'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { editApi, forgetEdit, invalidateEdit, type ChallengeUpdateRequest } from '../../../api/edit'
import { ChallengeAttachment } from '../../../components/ChallengeAttachment/ChallengeAttachment'
import { CostedHintsPanel } from '../../../components/ChallengeRules/CostedHintsPanel'
import { PrerequisitesPanel } from '../../../components/ChallengeRules/PrerequisitesPanel'
import { ChallengeHeader, useEditChallenge } from '../../../components/ChallengeForm/ChallengeHeader'
import { TAG_META, TAG_ORDER } from '../../../components/ChallengeTag/ChallengeTag'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { FlagTemplateCheck, FlagTemplateHelp, checkTemplate } from '../../../components/FlagTemplateHelp/FlagTemplateHelp'
import { MarkdownEditor } from '../../../components/MarkdownEditor/MarkdownEditor'
import { ScoreCurve } from '../../../components/ScoreCurve/ScoreCurve'
import { TestContainerPanel } from '../../../components/TestContainerPanel/TestContainerPanel'
import { notifyError, notifySuccess } from '../../../utils/notify'
import { zodErrors } from '../../../utils/zodForm'
import { EditChallengeScreen } from '../../../components/ChallengeForm/EditChallengeScreen'
import { useServerForm } from '../../../hooks/useServerForm'
import { t } from '../../../i18n'

type NumberValue = number | string

type ChallengeValues = {
  title: string
  content: string
  tag: ChallengeTag
  hints: string[]
  flagTemplate: string
  fileName: string
  containerImage: string
  memoryLimit: NumberValue
  cpuCount: NumberValue
  storageLimit: NumberValue
  containerExposePort: NumberValue
  enableTrafficCapture: boolean
  originalScore: NumberValue
  minScoreRate: NumberValue
  difficulty: NumberValue
  releaseTimeUtc: string | null
  deadlineUtc: string | null
  submissionLimit: NumberValue
}

const valuesOf = (c: ChallengeEditDetailModel): ChallengeValues => ({
  title: c.title,
  content: c.content,
  tag: c.tag,
  hints: c.hints,
  flagTemplate: c.flagTemplate ?? '',
  fileName: c.fileName ?? 'attachment',
  containerImage: c.containerImage ?? '',
  memoryLimit: c.memoryLimit ?? 64,
  cpuCount: c.cpuCount ?? 1,
  storageLimit: c.storageLimit ?? 256,
  containerExposePort: c.containerExposePort ?? 80,
  enableTrafficCapture: c.enableTrafficCapture ?? false,
  originalScore: c.originalScore,
  minScoreRate: c.minScoreRate,
  difficulty: c.difficulty,
  releaseTimeUtc: c.releaseTimeUtc ?? null,
  deadlineUtc: c.deadlineUtc ?? null,
  submissionLimit: c.submissionLimit ?? 0,
})

const num = (value: NumberValue): number => (typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value))

/**
 * The update body: the members this type uses. `enableTrafficCapture` is always sent (omitted
 * would mean false); the flag template is sent as is ("" clears it); isEnabled is left to the
 * switch in the header (sending true again would recreate instances).
 */
function bodyOf(values: ChallengeValues, type: ChallengeType): ChallengeUpdateRequest {
  const container = isContainerType(type)
  return {
    title: values.title.trim(),
    content: values.content,
    tag: values.tag,
    hints: values.hints.map((hint) => hint.trim()).filter(Boolean),
    originalScore: num(values.originalScore),
    minScoreRate: num(values.minScoreRate),
    difficulty: num(values.difficulty),
    enableTrafficCapture: container ? values.enableTrafficCapture : false,
    // The challenge rules (docs/challenge-rules.md): null clears a time; the stored opening time sent back is no change.
    releaseTimeUtc: values.releaseTimeUtc,
    deadlineUtc: values.deadlineUtc,
    submissionLimit: num(values.submissionLimit),
    ...(type === 'DynamicContainer' ? { flagTemplate: values.flagTemplate } : {}),
    ...(type === 'DynamicAttachment' ? { fileName: values.fileName } : {}),
    ...(container
      ? {
          containerImage: values.containerImage.trim(),
          memoryLimit: num(values.memoryLimit),
          cpuCount: num(values.cpuCount),
          storageLimit: num(values.storageLimit),
          containerExposePort: num(values.containerExposePort),
        }
      : {}),
  }
}

function validateWith(type: ChallengeType) {
  return (values: ChallengeValues): Record<string, string> => {
    const errors: Record<string, string> = {}
    const numbers: [keyof ChallengeValues, string][] = [
      ['originalScore', t('请输入分值')],
      ['minScoreRate', t('请输入最低分值比例')],
      ['difficulty', t('请输入难度系数')],
      ['submissionLimit', t('请输入提交次数限制')],
    ]
    if (isContainerType(type)) {
      numbers.push(['memoryLimit', t('请输入内存限制')], ['cpuCount', t('请输入 CPU 数量')], ['storageLimit', t('请输入存储限制')], ['containerExposePort', t('请输入服务端口')])
    }
    for (const [key, message] of numbers) if (!Number.isFinite(num(values[key] as NumberValue))) errors[key] = message
    if (Number.isFinite(num(values.difficulty)) && num(values.difficulty) <= 0) errors.difficulty = t('难度系数必须大于 0')
    if (Number.isFinite(num(values.originalScore)) && (!Number.isInteger(num(values.originalScore)) || num(values.originalScore) < 0)) errors.originalScore = t('分值必须为非负整数')
    if (type === 'DynamicAttachment' && values.fileName.trim() === '') errors.fileName = t('动态附件名不可为空')
    if (type === 'DynamicContainer' && !checkTemplate(values.flagTemplate).acceptable) errors.flagTemplate = WEAK_TEMPLATE_MESSAGE
    return { ...errors, ...zodErrors(ChallengeUpdateModel, bodyOf(values, type)) }
  }
}

function HintsEditor({ hints, onAdd, onRemove, inputProps }: { hints: string[]; onAdd: () => void; onRemove: (index: number) => void; inputProps: (index: number) => object }) {
  return (
    <Stack gap={6} data-testid="challenge-hints">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {t('题目提示')}
        </Text>
        <Button size="xs" variant="subtle" leftSection={<IconPlus size={14} />} onClick={onAdd} data-testid="challenge-hint-add">
          {t('添加提示')}
        </Button>
      </Group>
      {hints.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('暂无提示。比赛进行中更新已启用题目的提示时，会向选手推送提示更新通知。')}
        </Text>
      )}
      {hints.map((_, index) => (
        <Group key={index} gap="xs" wrap="nowrap">
          <TextInput style={{ flex: 1 }} placeholder={t('提示 {{v0}}', { v0: index + 1 })} data-testid="challenge-hint" {...inputProps(index)} />
          <Tooltip label={t('删除提示')} withArrow>
            <ActionIcon variant="subtle" color="alert" onClick={() => onRemove(index)} aria-label={t('删除提示')} data-testid="challenge-hint-remove">
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
    </Stack>
  )
}

function ChallengeForm({ gameId, challenge }: { gameId: number; challenge: ChallengeEditDetailModel }) {
  const navigate = useNavigate()
  const { type } = challenge
  const container = isContainerType(type)
  const noProvider = useNoContainerProvider()
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null)
  const { form, dirty, guard, saved: savedForm } = useServerForm({ entity: challenge, valuesOf, validate: validateWith(type) })
  const key = queryKeys.edit.challenge(gameId, challenge.id)
  const { refetch: revalidate } = useEditChallenge(gameId, challenge.id)

  const applyServer = (detail: ChallengeEditDetailModel) => {
    invalidateEdit(queryKeys.edit.challenges(gameId), { key, data: detail })
  }

  const submit = form.onSubmit(async (values) => {
    setBusy('save')
    try {
      const saved = await editApi.challenges.update(gameId, challenge.id, bodyOf(values, type))
      savedForm(saved)
      applyServer(saved)
      notifySuccess(t('题目已保存'))
    } catch (error) {
      notifyError(error, t('保存失败'))
    } finally {
      setBusy(null)
    }
  })

  const remove = async () => {
    const confirmed = await confirmDialog({
      title: t('删除题目'),
      message: t('确定要删除题目「{{title}}」吗？其 flag、附件与解题记录将一并删除，且不可恢复。', { title: challenge.title }),
      danger: true,
    })
    if (!confirmed) return
    setBusy('delete')
    try {
      await editApi.challenges.remove(gameId, challenge.id)
      notifySuccess(t('题目「{{title}}」已删除', { title: challenge.title }))
      guard.allowNavigation()
      navigate(`/admin/games/${gameId}/challenges`)
      forgetEdit(key)
      invalidateEdit(queryKeys.edit.challenges(gameId))
    } catch (error) {
      notifyError(error, t('删除失败'))
      setBusy(null)
    }
  }

  const scoring = {
    originalScore: num(form.values.originalScore),
    minScoreRate: num(form.values.minScoreRate),
    difficulty: num(form.values.difficulty),
  }

  return (
    <form onSubmit={submit} noValidate data-testid="challenge-form" data-dirty={dirty ? 'true' : 'false'} data-type={type}>
      <Stack gap="md">
        <ChallengeHeader
          gameId={gameId}
          challenge={challenge}
          current="edit"
          onUpdated={(detail) => queryClient.setQueryData(key, detail)}
          actions={
            <Group gap="xs">
              <Button variant="default" disabled={!dirty || busy !== null} onClick={() => form.reset()} data-testid="challenge-reset">
                {t('撤销更改')}
              </Button>
              <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={busy === 'save'} disabled={!dirty || busy === 'delete'} data-testid="challenge-save">
                {t('保存')}
              </Button>
            </Group>
          }
        />
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <TextInput label={t('题目标题')} required data-testid="challenge-title" {...form.getInputProps('title')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              label={t('题目类别')}
              data={TAG_ORDER.map((tag) => ({ value: tag, label: TAG_META[tag].label }))}
              allowDeselect={false}
              data-testid="challenge-tag"
              {...form.getInputProps('tag')}
            />
          </Grid.Col>
        </Grid>
        <MarkdownEditor
          label={t('题目描述')}
          description={t('支持 Markdown，右侧为实时预览')}
          value={form.values.content}
          onChange={(value) => form.setFieldValue('content', value)}
          error={form.errors.content}
          layout="split"
          minRows={12}
          testId="challenge-content"
        />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="md">
              <HintsEditor
                hints={form.values.hints}
                onAdd={() => form.insertListItem('hints', '')}
                onRemove={(index) => form.removeListItem('hints', index)}
                inputProps={(index) => form.getInputProps(`hints.${index}`)}
              />
              {type === 'DynamicContainer' && (
                <Stack gap="xs">
                  <Divider label={t('flag 模板')} labelPosition="left" />
                  <TextInput
                    label={t('flag 模板')}
                    description={t('留空则使用随机 GUID flag，至多 {{FLAG_TEMPLATE_MAX}} 个字符', { FLAG_TEMPLATE_MAX })}
                    placeholder="flag{[TEAM_HASH]}"
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    data-testid="challenge-flag-template"
                    {...form.getInputProps('flagTemplate')}
                  />
                  <FlagTemplateCheck template={form.values.flagTemplate} />
                  <FlagTemplateHelp />
                </Stack>
              )}
              {type === 'DynamicAttachment' && (
                <Stack gap="xs">
                  <Divider label={t('动态附件')} labelPosition="left" />
                  <TextInput
                    label={t('附件下载文件名')}
                    description={t('选手下载各自附件时使用的文件名')}
                    data-testid="challenge-file-name"
                    {...form.getInputProps('fileName')}
                  />
                  <Text size="xs" c="dimmed">
                    {t('动态附件题目的附件与 flag 一一对应，请在「Flag 管理」中上传。')}
                  </Text>
                </Stack>
              )}
              {container && (
                <Stack gap="xs">
                  <Divider label={t('容器配置')} labelPosition="left" />
                  {noProvider && (
                    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={t('容器无法启动')} data-testid="challenge-no-provider">
                      {NO_PROVIDER_WARNING}
                    </Alert>
                  )}
                  <TextInput label={t('容器镜像')} placeholder="ghcr.io/example/challenge:latest" styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} data-testid="challenge-image" {...form.getInputProps('containerImage')} />
                  {/* The CPU input's description makes it taller: its row keeps one baseline. */}
                  <Grid gap="sm" align="flex-end" data-testid="challenge-container-limits">
                    <Grid.Col span={{ base: 12, sm: 6 }}>
                      <NumberInput label={t('服务端口')} min={1} max={65535} allowDecimal={false} allowNegative={false} data-testid="challenge-port" {...form.getInputProps('containerExposePort')} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 6 }}>
                      <NumberInput
                        label={t('CPU 数量（0.1 核）')}
                        description={t('{{v0}} 核', { v0: (num(form.values.cpuCount) / 10 || 0).toFixed(1) })}
                        min={1}
                        max={1024}
                        allowDecimal={false}
                        allowNegative={false}
                        data-testid="challenge-cpu"
                        {...form.getInputProps('cpuCount')}
                      />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 6 }}>
                      <NumberInput label={t('内存限制（MB）')} min={32} max={1048576} allowDecimal={false} allowNegative={false} data-testid="challenge-memory" {...form.getInputProps('memoryLimit')} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 6 }}>
                      <NumberInput label={t('存储限制（MB）')} min={128} max={1048576} allowDecimal={false} allowNegative={false} data-testid="challenge-storage" {...form.getInputProps('storageLimit')} />
                    </Grid.Col>
                  </Grid>
                  <Switch
                    label={t('流量捕获')}
                    description={t('记录选手经平台代理访问容器的流量（需全局启用平台代理与流量捕获）')}
                    data-testid="challenge-traffic-capture"
                    {...form.getInputProps('enableTrafficCapture', { type: 'checkbox' })}
                  />
                </Stack>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Stack gap="md">
              <Card withBorder radius="md" padding="sm">
                <Stack gap="sm">
                  <Title order={5}>{t('计分')}</Title>
                  <Grid gap="sm">
                    <Grid.Col span={4}>
                      <NumberInput label={t('原始分值')} min={0} allowDecimal={false} allowNegative={false} data-testid="challenge-original-score" {...form.getInputProps('originalScore')} />
                    </Grid.Col>
                    <Grid.Col span={4}>
                      <NumberInput label={t('最低分值比例')} min={0} max={1} step={0.05} decimalScale={4} allowNegative={false} data-testid="challenge-min-rate" {...form.getInputProps('minScoreRate')} />
                    </Grid.Col>
                    <Grid.Col span={4}>
                      <NumberInput label={t('难度系数')} min={0} step={0.5} decimalScale={3} allowNegative={false} data-testid="challenge-difficulty" {...form.getInputProps('difficulty')} />
                    </Grid.Col>
                  </Grid>
                  <ScoreCurve originalScore={scoring.originalScore} minScoreRate={scoring.minScoreRate} difficulty={scoring.difficulty} solved={challenge.acceptedCount} />
                </Stack>
              </Card>
              <Card withBorder radius="md" padding="sm" data-testid="challenge-rules">
                <Stack gap="sm">
                  <Title order={5}>{t('开放与提交规则')}</Title>
                  <DateTimeField
                    label={t('定时开放')}
                    description={t('到时自动启用并通知选手；留空则由「启用」开关决定')}
                    clearable
                    testId="challenge-release-time"
                    value={form.values.releaseTimeUtc}
                    onChange={(iso) => form.setFieldValue('releaseTimeUtc', iso)}
                  />
                  <DateTimeField
                    label={t('截止时间')}
                    description={t('此后不再接受本题的提交')}
                    clearable
                    testId="challenge-deadline"
                    value={form.values.deadlineUtc}
                    onChange={(iso) => form.setFieldValue('deadlineUtc', iso)}
                  />
                  <NumberInput
                    label={t('提交次数限制')}
                    description={t('每支队伍对本题的提交次数，0 为不限')}
                    min={0}
                    max={SUBMISSION_LIMIT_MAX}
                    allowDecimal={false}
                    allowNegative={false}
                    data-testid="challenge-submission-limit"
                    {...form.getInputProps('submissionLimit')}
                  />
                </Stack>
              </Card>
              <CostedHintsPanel gameId={gameId} challengeId={challenge.id} />
              <PrerequisitesPanel gameId={gameId} challengeId={challenge.id} />
              {type !== 'DynamicAttachment' && <ChallengeAttachment gameId={gameId} challengeId={challenge.id} attachment={challenge.attachment} onChanged={() => void revalidate()} />}
              {container && <TestContainerPanel gameId={gameId} challengeId={challenge.id} container={challenge.testContainer} onChanged={() => void revalidate()} />}
              <Card withBorder radius="md" padding="sm" style={{ borderColor: 'var(--mantine-color-alert-6)' }}>
                <Group justify="space-between">
                  <Text size="sm" c="alert" fw={600}>
                    {t('删除题目')}
                  </Text>
                  <Button color="alert" variant="light" size="xs" leftSection={<IconTrash size={14} />} loading={busy === 'delete'} onClick={() => void remove()} data-testid="challenge-delete">
                    {t('删除')}
                  </Button>
                </Group>
              </Card>
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </form>
  )
}

export default function ChallengeEdit() {
  return (
    <EditChallengeScreen testId="admin-challenge-edit-page" skeletonHeight={320}>
      {(gameId, challenge) => <ChallengeForm key={challenge.id} gameId={gameId} challenge={challenge} />}
    </EditChallengeScreen>
  )
}
