import { Alert, Button, Group, Loader, Text } from '@mantine/core'
import { Link, useSearchParams } from 'react-router-dom'
import { accountApi } from '../../api/account'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { useSession } from '../../stores/session'
import { useLinkAction } from './useLinkAction'

/** E-mail verification link target `/account/verify?token=…&email=…` (CONTRACT §3.1.4); signs the account in. */
export default function Verify() {
  const [params] = useSearchParams()
  const signedIn = useSession((state) => state.signedIn)
  const state = useLinkAction(params.get('token') ?? '', params.get('email') ?? '', accountApi.verify, async () => {
    await signedIn()
  })

  return (
    <AccountPanel title="邮箱验证" testId="verify-page">
      {state.phase === 'running' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>正在验证…</Text>
        </Group>
      )}
      {state.phase === 'missing' && (
        <Alert color="alert" variant="light" title="链接无效" data-testid="verify-result" data-status="missing">
          验证链接缺少必要的参数。
        </Alert>
      )}
      {state.phase === 'failed' && (
        <Alert color="alert" variant="light" title="验证失败" data-testid="verify-result" data-status="failed">
          {state.message}
        </Alert>
      )}
      {state.phase === 'done' && (
        <Alert color="brand" variant="light" title="验证成功" data-testid="verify-result" data-status="done">
          账户已激活并登录。
        </Alert>
      )}
      {state.phase !== 'running' && (
        <Button component={Link} to={state.phase === 'done' ? '/' : '/account/login'} variant="light">
          {state.phase === 'done' ? '进入平台' : '前往登录'}
        </Button>
      )}
    </AccountPanel>
  )
}
