import { accountApi } from '../../api/account'
import { useSession } from '../../stores/session'
import { LinkActionPage } from './LinkActionPage'
import { t } from '../../i18n'

/** E-mail verification link target `/account/verify?token=…&email=…` (docs/compatibility.md#group-account); signs the account in. */
export default function Verify() {
  const signedIn = useSession((state) => state.signedIn)
  return (
    <LinkActionPage
      testId="verify"
      title={t('邮箱验证')}
      verb={t('验证')}
      send={accountApi.verify}
      onDone={async () => {
        await signedIn()
      }}
      doneTitle={t('验证成功')}
      doneText={t('账户已激活并登录。')}
      next={(done) => (done ? { to: '/', label: t('进入平台') } : { to: '/account/login', label: t('前往登录') })}
    />
  )
}
