import { StatusScreen } from '../components/StatusScreen/StatusScreen'
import { t } from '../i18n'

/** The `*` route. */
export default function NotFound() {
  return <StatusScreen code="404" title={t('页面不存在')} description={t('你要找的页面不存在，或已被移动。')} testId="not-found" />
}
