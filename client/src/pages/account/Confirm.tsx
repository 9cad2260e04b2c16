import { Alert, Button, Group, Loader, Text } from '@mantine/core'
import { Link, useSearchParams } from 'react-router-dom'
import { accountApi } from '../../api/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { useSession } from '../../stores/session'
import { useLinkAction } from './useLinkAction'

/** Mail-change link target `/account/confirm?token=…&email=…` (CONTRACT §3.1.10); needs the same signed-in account. */
export default function Confirm() {
  const [params] = useSearchParams()
  const refresh = useSession((state) => state.refresh)
  const state = useLinkAction(params.get('token') ?? '', params.get('email') ?? '', accountApi.mailChangeConfirm, async () => {
    await refresh()
  })

  return (
    <AccountPanel title="确认新邮箱" testId="confirm-page">
      {state.phase === 'running' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>正在确认…</Text>
        </Group>
      )}
      {state.phase === 'missing' && (
        <Alert color="alert" variant="light" title="链接无效" data-testid="confirm-result" data-status="missing">
          确认链接缺少必要的参数。
        </Alert>
      )}
      {state.phase === 'failed' && (
        <Alert color="alert" variant="light" title="确认失败" data-testid="confirm-result" data-status="failed">
          {state.message}
        </Alert>
      )}
      {state.phase === 'done' && (
        <Alert color="brand" variant="light" title="邮箱已更新" data-testid="confirm-result" data-status="done">
          新邮箱已生效。
        </Alert>
      )}
      {state.phase !== 'running' && (
        <Button component={Link} to="/account/profile" variant="light">
          返回个人资料
        </Button>
      )}
    </AccountPanel>
  )
}
