/**
 * A game's integrations (docs/webhooks.md): the CTFtime feed switch and the webhooks — Discord,
 * Slack, Telegram or a signed generic JSON target — with their events, a "send test" button and
 * the delivery log (status, response code, attempts), refreshed while deliveries are pending.
 */
import { useState } from 'react'
import { ActionIcon, Alert, Badge, Button, Card, Checkbox, Code, Group, Modal, PasswordInput, Select, Skeleton, Stack, Switch, Table, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconEdit, IconListDetails, IconPlus, IconTestPipe, IconTrash, IconWebhook } from '@tabler/icons-react'
import { skipToken, useQuery } from '@tanstack/react-query'
import { WebhookEvent, WebhookKind } from '@flagwave/shared/enums'
import type { WebhookDeliveryModel, WebhookInput, WebhookModel } from '@flagwave/shared/schemas/webhooks'
import { editApi } from '../../../api/edit'
import { queryClient } from '../../../api/queryClient'
import { queryKeys } from '../../../api/queryKeys'
import { confirmDialog } from '../../../components/ConfirmDialog/confirm'
import { CopyableText } from '../../../components/CopyableText/CopyableText'
import { formatTime } from '../../../components/GameTime/GameTime'
import { GameEditFrame, useEditGameId } from '../../../components/GameEditFrame/GameEditFrame'
import { LoadError } from '../../../components/LoadError/LoadError'
import { useAction, useRowActions } from '../../../hooks/useAction'
import { notifySuccess } from '../../../utils/notify'
import { t } from '../../../i18n'
import { ModalFooter } from '../../../components/ModalFooter/ModalFooter'

const EVENT_LABELS: Record<WebhookEvent, string> = { blood: t('一二三血'), solve: t('解题'), notice: t('比赛通知'), gameStart: t('比赛开始'), gameEnd: t('比赛结束') }
const STATUS_COLORS: Record<WebhookDeliveryModel['status'], string> = { Pending: 'yellow', Sending: 'blue', Delivered: 'green', Failed: 'red' }
const URL_PLACEHOLDER: Record<WebhookKind, string> = {
  Discord: 'https://discord.com/api/webhooks/…',
  Slack: 'https://hooks.slack.com/services/…',
  Telegram: '',
  Generic: 'https://example.org/flagwave',
}

function CtftimeCard({ gameId }: { gameId: number }) {
  const { data, error } = useQuery({ queryKey: queryKeys.edit.ctftime(gameId), queryFn: () => editApi.ctftime.get(gameId) })
  const { busy, run } = useAction()
  const toggle = (enabled: boolean) =>
    run(t('更新 CTFtime 设置失败'), async () => {
      queryClient.setQueryData(queryKeys.edit.ctftime(gameId), await editApi.ctftime.set(gameId, enabled))
      notifySuccess(enabled ? t('CTFtime 数据源已开启') : t('CTFtime 数据源已关闭'))
    })
  const feedUrl = `${window.location.origin}/api/game/${gameId}/ctftime`
  return (
    <Card withBorder radius="md" padding="md" data-testid="ctftime-card">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>{t('CTFtime 数据源')}</Title>
          <Switch checked={data?.enabled ?? false} disabled={!data || busy} onChange={(e) => void toggle(e.currentTarget.checked)} data-testid="ctftime-switch" label={t('公开')} />
        </Group>
        <LoadError error={error} />
        <Text size="sm" c="dimmed">
          {t('开启后，比赛开始且未隐藏时，CTFtime 可从下面的地址导入积分榜（随积分榜版本更新）。')}
        </Text>
        {data?.enabled && <CopyableText value={feedUrl} testId="ctftime-url" />}
      </Stack>
    </Card>
  )
}

interface Draft {
  name: string
  kind: WebhookKind
  url: string
  secret: string
  chatId: string
  events: WebhookEvent[]
  enabled: boolean
  allowPrivate: boolean
  rotateSecret: boolean
}

const emptyDraft: Draft = { name: '', kind: 'Discord', url: '', secret: '', chatId: '', events: ['blood', 'notice', 'gameStart', 'gameEnd'], enabled: true, allowPrivate: false, rotateSecret: false }

function WebhookModal({ gameId, editing, onClose }: { gameId: number; editing: WebhookModel | 'new' | null; onClose: () => void }) {
  const current = editing && editing !== 'new' ? editing : null
  const [draft, setDraft] = useState<Draft>(
    current ? { ...current, secret: current.kind === 'Telegram' ? '' : current.secret, rotateSecret: false } : emptyDraft,
  )
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const { busy, run } = useAction()
  const save = () =>
    run(t('保存 Webhook 失败'), async () => {
      const body: WebhookInput = { ...draft, secret: draft.kind === 'Telegram' ? draft.secret : '' }
      if (current) await editApi.webhooks.update(gameId, current.id, body)
      else await editApi.webhooks.create(gameId, body)
      await queryClient.invalidateQueries({ queryKey: queryKeys.edit.webhooks(gameId) })
      notifySuccess(t('Webhook 已保存'))
      onClose()
    })
  return (
    <Modal opened={editing !== null} onClose={onClose} title={current ? t('编辑 Webhook') : t('添加 Webhook')} size="lg" data-testid="webhook-modal">
      <Stack gap="sm">
        <TextInput label={t('名称')} value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} required data-testid="webhook-name" />
        <Select label={t('类型')} data={[...WebhookKind]} value={draft.kind} onChange={(v) => v && set('kind', v as WebhookKind)} allowDeselect={false} data-testid="webhook-kind" />
        {draft.kind === 'Telegram' ? (
          <>
            <PasswordInput
              label={t('Bot token')}
              placeholder={current?.kind === 'Telegram' ? t('留空则保持不变') : '123456:ABC…'}
              value={draft.secret}
              onChange={(e) => set('secret', e.currentTarget.value)}
              data-testid="webhook-token"
            />
            <TextInput label={t('Chat ID')} placeholder={t('-1001234567890 或 @channel')} value={draft.chatId} onChange={(e) => set('chatId', e.currentTarget.value)} data-testid="webhook-chat" />
          </>
        ) : (
          <TextInput label={t('URL')} placeholder={URL_PLACEHOLDER[draft.kind]} value={draft.url} onChange={(e) => set('url', e.currentTarget.value)} data-testid="webhook-url" />
        )}
        <Checkbox.Group label={t('事件')} value={draft.events} onChange={(v) => set('events', v as WebhookEvent[])}>
          <Group gap="md" mt={4}>
            {WebhookEvent.map((e) => (
              <Checkbox key={e} value={e} label={EVENT_LABELS[e]} data-testid={`webhook-event-${e}`} />
            ))}
          </Group>
        </Checkbox.Group>
        <Switch label={t('启用')} checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} data-testid="webhook-enabled" />
        {draft.kind === 'Generic' && (
          <>
            <Switch
              label={t('允许内网地址（回环、私有、链路本地地址）')}
              description={t('仅在目标确实位于内网时开启：服务器将可以向这些地址发送请求')}
              checked={draft.allowPrivate}
              onChange={(e) => set('allowPrivate', e.currentTarget.checked)}
              data-testid="webhook-allow-private"
            />
            {current?.kind === 'Generic' && (
              <Checkbox label={t('重新生成签名密钥')} checked={draft.rotateSecret} onChange={(e) => set('rotateSecret', e.currentTarget.checked)} data-testid="webhook-rotate" />
            )}
          </>
        )}
        <ModalFooter onCancel={onClose} confirmLabel={t('保存')} onConfirm={() => void save()} loading={busy} confirmTestId="webhook-save" />
      </Stack>
    </Modal>
  )
}

function DeliveryLog({ gameId, webhookId }: { gameId: number; webhookId: number }) {
  const { data, error, isLoading } = useQuery({
    queryKey: queryKeys.edit.deliveries(gameId, webhookId),
    queryFn: () => editApi.webhooks.deliveries(gameId, webhookId),
    // Pending and Sending rows change on their own: look again until they are settled.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'Pending' || d.status === 'Sending') ? 1000 : false),
  })
  if (isLoading) return <Skeleton height={60} />
  if (!data) return <LoadError error={error} />
  if (data.data.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="delivery-empty">
        {t('暂无投递记录')}
      </Text>
    )
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing={4} fz="sm" data-testid="delivery-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('时间')}</Table.Th>
            <Table.Th>{t('事件')}</Table.Th>
            <Table.Th>{t('状态')}</Table.Th>
            <Table.Th>{t('响应')}</Table.Th>
            <Table.Th>{t('尝试')}</Table.Th>
            <Table.Th>{t('信息')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.data.map((d) => (
            <Table.Tr key={d.id} data-testid="delivery-row" data-status={d.status} data-event={d.event}>
              <Table.Td>{formatTime(d.createdAt, 'MM-DD HH:mm:ss')}</Table.Td>
              <Table.Td>{d.event === 'test' ? t('测试') : (EVENT_LABELS[d.event as WebhookEvent] ?? d.event)}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLORS[d.status]} variant="light" data-testid="delivery-status">
                  {d.status}
                </Badge>
              </Table.Td>
              <Table.Td data-testid="delivery-code">{d.responseCode ?? '—'}</Table.Td>
              <Table.Td data-testid="delivery-attempts">{d.attempts}</Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed" lineClamp={2} title={d.lastError ?? undefined}>
                  {d.lastError ?? (d.nextAttemptAt && d.status === 'Pending' && d.attempts > 0 ? t('下次重试 {{v0}}', { v0: formatTime(d.nextAttemptAt, 'HH:mm:ss') }) : '')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

function WebhookCard({ gameId, webhook, onEdit }: { gameId: number; webhook: WebhookModel; onEdit: () => void }) {
  const [showLog, setShowLog] = useState(false)
  const { busy, run } = useRowActions<'test' | 'delete'>()
  const test = () =>
    run('test', t('发送测试失败'), async () => {
      await editApi.webhooks.test(gameId, webhook.id)
      setShowLog(true)
      await queryClient.invalidateQueries({ queryKey: queryKeys.edit.deliveries(gameId, webhook.id) })
      notifySuccess(t('测试消息已加入发送队列'))
    })
  const remove = async () => {
    if (!(await confirmDialog({ title: t('删除 Webhook'), message: t('确定要删除「{{name}}」及其投递记录吗？', { name: webhook.name }), danger: true }))) return
    await run('delete', t('删除 Webhook 失败'), async () => {
      await editApi.webhooks.remove(gameId, webhook.id)
      await queryClient.invalidateQueries({ queryKey: queryKeys.edit.webhooks(gameId) })
      notifySuccess(t('Webhook 已删除'))
    })
  }
  return (
    <Card withBorder radius="md" padding="sm" data-testid="webhook-item" data-webhook-id={webhook.id}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" style={{ minWidth: 0 }}>
            <IconWebhook size={18} />
            <Text fw={600} truncate data-testid="webhook-item-name">
              {webhook.name}
            </Text>
            <Badge variant="light">{webhook.kind}</Badge>
            {!webhook.enabled && (
              <Badge color="gray" variant="light">
                {t('已停用')}
              </Badge>
            )}
            {webhook.events.map((e) => (
              <Badge key={e} color="gray" variant="outline" size="sm">
                {EVENT_LABELS[e]}
              </Badge>
            ))}
          </Group>
          <Group gap={4} wrap="nowrap">
            <Button size="xs" variant="light" leftSection={<IconTestPipe size={14} />} loading={busy.test} onClick={() => void test()} data-testid="webhook-test">
              {t('发送测试')}
            </Button>
            <Tooltip label={t('投递记录')} withArrow>
              <ActionIcon variant="subtle" onClick={() => setShowLog((v) => !v)} aria-label={t('投递记录')} data-testid="webhook-log-toggle">
                <IconListDetails size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('编辑')} withArrow>
              <ActionIcon variant="subtle" onClick={onEdit} aria-label={t('编辑')} data-testid="webhook-edit">
                <IconEdit size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('删除')} withArrow>
              <ActionIcon variant="subtle" color="alert" loading={busy.delete} onClick={() => void remove()} aria-label={t('删除')} data-testid="webhook-delete">
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Text size="xs" c="dimmed" truncate>
          {webhook.kind === 'Telegram' ? `Chat ${webhook.chatId}` : webhook.url}
        </Text>
        {webhook.kind === 'Generic' && (
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {t('签名密钥')}
            </Text>
            <CopyableText value={webhook.secret} testId="webhook-secret" />
          </Group>
        )}
        {showLog && <DeliveryLog gameId={gameId} webhookId={webhook.id} />}
      </Stack>
    </Card>
  )
}

export default function Integrations() {
  const gameId = useEditGameId()
  const { data, error, isLoading } = useQuery({ queryKey: queryKeys.edit.webhooks(gameId ?? 0), queryFn: gameId === null ? skipToken : () => editApi.webhooks.list(gameId) })
  const [editing, setEditing] = useState<WebhookModel | 'new' | null>(null)
  return (
    <GameEditFrame testId="admin-game-integrations-page">
      {gameId !== null && <CtftimeCard gameId={gameId} />}
      <Group justify="space-between">
        <Title order={5}>{t('Webhooks')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="webhook-add">
          {t('添加 Webhook')}
        </Button>
      </Group>
      <Alert variant="light" color="gray">
        <Text size="sm">
          {t('一二三血、解题、比赛通知以及比赛开始和结束会发送到这里配置的地址。投递失败会按指数退避重试；通用 JSON 目标的请求带有签名：')}
          <Code>X-Flagwave-Signature: sha256=HMAC(secret, timestamp + &quot;.&quot; + body)</Code>
          {t('，时间戳：')}
          <Code>X-Flagwave-Timestamp</Code>
          {t('，用于去重的投递标识：')}
          <Code>X-Flagwave-Delivery</Code>
          {t('。')}
        </Text>
      </Alert>
      {!data && <LoadError error={error} />}
      {isLoading && !data ? (
        <Skeleton height={80} />
      ) : data && data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="webhooks-empty">
          {t('暂无 Webhook')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="webhook-list">
          {data?.map((webhook) => <WebhookCard key={webhook.id} gameId={gameId!} webhook={webhook} onEdit={() => setEditing(webhook)} />)}
        </Stack>
      )}
      {gameId !== null && editing !== null && <WebhookModal key={editing === 'new' ? 'new' : editing.id} gameId={gameId} editing={editing} onClose={() => setEditing(null)} />}
    </GameEditFrame>
  )
}
