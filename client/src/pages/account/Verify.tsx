import { accountApi } from '../../api/account'
import { useSession } from '../../stores/session'
import { LinkActionPage } from './LinkActionPage'

/** E-mail verification link target `/account/verify?token=…&email=…` (docs/compatibility.md#group-account); signs the account in. */
export default function Verify() {
  const signedIn = useSession((state) => state.signedIn)
  return (
    <LinkActionPage
      testId="verify"
      title="邮箱验证"
      verb="验证"
      send={accountApi.verify}
      onDone={async () => {
        await signedIn()
      }}
      doneTitle="验证成功"
      doneText="账户已激活并登录。"
      next={(done) => (done ? { to: '/', label: '进入平台' } : { to: '/account/login', label: '前往登录' })}
    />
  )
}
