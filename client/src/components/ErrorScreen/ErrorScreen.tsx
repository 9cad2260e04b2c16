import { isRouteErrorResponse, useRouteError } from 'react-router-dom'
import { StatusScreen } from '../StatusScreen/StatusScreen'
import { t } from '../../i18n'

/** The text of a route error: a response's status text, or the error's message. */
function routeErrorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText || (typeof error.data === 'string' ? error.data : '')}`.trim()
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return t('未知错误')
}

/** The default error screen of the router (docs/compatibility.md#screens-and-routes). */
export function ErrorScreen() {
  const error = useRouteError()
  if (import.meta.env.DEV) console.error(error)
  return <StatusScreen testId="error-screen" title={t('页面出错了')} description={routeErrorText(error)} />
}

