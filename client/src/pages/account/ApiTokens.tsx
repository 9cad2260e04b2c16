import { useState } from 'react'
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Modal, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { TOKEN_SCOPES, type TokenInfoModel, type TokenScope } from '@flagwave/shared/schemas/tokens'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { tokensApi } from '../../api/security'
import { queryKeys } from '../../api/queryKeys'
import { confirmDialog } from '../../components/ConfirmDialog/confirm'
import { notifyError, notifySuccess } from '../../utils/notify'
import { t } from '../../i18n'

/** Every string of the tokens section, in one place. */
const STRINGS = {
  intro: t('令牌可代替登录调用 API（请求头 Authorization: Bearer <令牌>），也可用于实时连接。令牌不能修改密码、邮箱或令牌。'),
  name: t('名称'),
  scopes: t('权限'),
  expiry: t('有效期（天）'),
  expiryHint: t('留空表示永不过期，最长 365 天'),
  create: t('创建令牌'),
  created: t('令牌已创建'),
  createFailed: t('创建令牌失败'),
  copyOnce: t('请立即复制令牌：关闭后将无法再次查看。'),
  copy: t('复制'),
  copied: t('已复制'),
  close: t('我已保存'),
  empty: t('尚未创建令牌'),
  lastUsed: t('最后使用'),
  expires: t('过期时间'),
  never: t('从不'),
  noExpiry: t('永不过期'),
  revoked: t('已吊销'),
  expired: t('已过期'),
  revoke: t('吊销'),
  revokeTitle: t('吊销令牌'),
  revokeMessage: (name: string) => t('确定吊销令牌「{{name}}」吗？使用它的程序将立即无法访问。', { name }),
  revokedDone: t('令牌已吊销'),
  revokeFailed: t('吊销失败'),
  scopeLabels: { read: t('读取比赛数据'), submit: t('为队伍提交 flag'), monitor: t('监控'), admin: t('管理') } as Record<TokenScope, string>,
}

/** The lowest role that may grant each scope (the server refuses the others). */
const SCOPE_ROLE: Record<TokenScope, Role> = { read: 'User', submit: 'User', monitor: 'Monitor', admin: 'Admin' }

const when = (value: string | null, fallback: string) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : fallback)

function CreateForm({ role, onCreated }: { role: Role; onCreated: (secret: string) => void }) {
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<TokenScope[]>(['read'])
  const [days, setDays] = useState<number | string>(30)
  const [busy, setBusy] = useState(false)
  const create = async (event: React.FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      const created = await tokensApi.create({ name: name.trim(), scopes, expiresInDays: days === '' ? null : Number(days) })
      setName('')
      onCreated(created.token)
    } catch (error) {
      notifyError(error, STRINGS.createFailed)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={create} noValidate data-testid="token-create-form">
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" grow>
          <TextInput label={STRINGS.name} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={64} data-testid="token-name" />
          <NumberInput label={STRINGS.expiry} description={STRINGS.expiryHint} value={days} onChange={setDays} min={1} max={365} allowDecimal={false} data-testid="token-expiry" />
        </Group>
        <Checkbox.Group label={STRINGS.scopes} value={scopes} onChange={(value) => setScopes(value as TokenScope[])}>
          <Group gap="md" mt={4}>
            {TOKEN_SCOPES.filter((scope) => roleRank(role) >= roleRank(SCOPE_ROLE[scope])).map((scope) => (
              <Checkbox key={scope} value={scope} label={STRINGS.scopeLabels[scope]} data-testid={`token-scope-${scope}`} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={busy} disabled={name.trim() === '' || scopes.length === 0} data-testid="token-create">
            {STRINGS.create}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function TokenRow({ token, onRevoked }: { token: TokenInfoModel; onRevoked: () => void }) {
  const expired = token.expiresAt !== null && dayjs(token.expiresAt).isBefore(dayjs())
  const revoke = async () => {
    if (!(await confirmDialog({ title: STRINGS.revokeTitle, message: STRINGS.revokeMessage(token.name), confirmLabel: STRINGS.revoke, danger: true }))) return
    try {
      await tokensApi.revoke(token.id)
      notifySuccess(STRINGS.revokedDone)
      onRevoked()
    } catch (error) {
      notifyError(error, STRINGS.revokeFailed)
    }
  }
  return (
    <Table.Tr data-testid="token-row">
      <Table.Td>
        <Text size="sm" fw={500}>
          {token.name}
        </Text>
        <Group gap={4} mt={2}>
          {token.scopes.map((scope) => (
            <Badge key={scope} size="xs" variant="light">
              {STRINGS.scopeLabels[scope]}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      <Table.Td data-testid="token-last-used">{when(token.lastUsedAt, STRINGS.never)}</Table.Td>
      <Table.Td>{when(token.expiresAt, STRINGS.noExpiry)}</Table.Td>
      <Table.Td>
        {token.revoked ? (
          <Badge color="gray" data-testid="token-revoked">
            {STRINGS.revoked}
          </Badge>
        ) : expired ? (
          <Badge color="gray">{STRINGS.expired}</Badge>
        ) : (
          <Button size="xs" variant="subtle" color="alert" onClick={revoke} data-testid="token-revoke">
            {STRINGS.revoke}
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  )
}

/** Profile section: create scoped API tokens (the secret is shown once), list them with their last use, revoke them. */
export function ApiTokens({ role }: { role: Role }) {
  const queryClient = useQueryClient()
  const { data } = useQuery({ queryKey: queryKeys.tokens, queryFn: tokensApi.list })
  const [secret, setSecret] = useState<string | null>(null)
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens })
  return (
    <Stack gap="md" data-testid="tokens-section">
      <Text size="sm" c="dimmed">
        {STRINGS.intro}
      </Text>
      <CreateForm
        role={role}
        onCreated={(value) => {
          setSecret(value)
          notifySuccess(STRINGS.created)
          void reload()
        }}
      />
      {data && data.length > 0 ? (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{STRINGS.name}</Table.Th>
              <Table.Th>{STRINGS.lastUsed}</Table.Th>
              <Table.Th>{STRINGS.expires}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((token) => (
              <TokenRow key={token.id} token={token} onRevoked={() => void reload()} />
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          {STRINGS.empty}
        </Text>
      )}
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={STRINGS.created} closeOnClickOutside={false} data-testid="token-secret-dialog">
        <Stack gap="sm">
          <Alert color="yellow">{STRINGS.copyOnce}</Alert>
          <Code block data-testid="token-secret">
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? STRINGS.copied : STRINGS.copy}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setSecret(null)} data-testid="token-secret-close">
              {STRINGS.close}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  )
}
