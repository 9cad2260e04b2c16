import { StatusScreen } from '../components/StatusScreen/StatusScreen'

/** The `*` route. */
export default function NotFound() {
  return <StatusScreen code="404" title="页面不存在" description="你要找的页面不存在，或已被移动。" testId="not-found" />
}
