import { accountApi } from '../../api/account'
import { useSession } from '../../stores/session'
import { LinkActionPage } from './LinkActionPage'
import { t } from '../../i18n'

/** Mail-change link target `/account/confirm?token=…&email=…` (docs/compatibility.md#group-account); needs the same signed-in account. */
export default function Confirm() {
  const refresh = useSession((state) => state.refresh)
  return (
    <LinkActionPage
      testId="confirm"
      title={t('确认新邮箱')}
      verb={t('确认')}
      send={accountApi.mailChangeConfirm}
      onDone={async () => {
        await refresh()
      }}
      doneTitle={t('邮箱已更新')}
      doneText={t('新邮箱已生效。')}
      next={() => ({ to: '/account/profile', label: t('返回个人资料') })}
    />
  )
}
