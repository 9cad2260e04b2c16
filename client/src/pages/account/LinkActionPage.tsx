import { Alert, Button, Group, Loader, Text } from '@mantine/core'
import { Link, useSearchParams } from 'react-router-dom'
import { AccountPanel } from '../../components/AccountPanel/AccountPanel'
import { useLinkAction } from './useLinkAction'
import { t } from '../../i18n'

interface LinkActionPageProps {
  /** `verify` → verify-page, verify-result. */
  testId: string
  title: string
  /** The verb shown while running and in the missing/failed texts, e.g. 验证. */
  verb: string
  send: Parameters<typeof useLinkAction>[2]
  onDone: () => Promise<void>
  doneTitle: string
  doneText: string
  /** Where the button leads after success and otherwise. */
  next: (done: boolean) => { to: string; label: string }
}

/**
 * A mailed link's target page (`?token=…&email=…`): sends the token once, then shows the
 * outcome (missing parameters, failure with the server's message, success) and a way on.
 */
export function LinkActionPage({ testId, title, verb, send, onDone, doneTitle, doneText, next }: LinkActionPageProps) {
  const [params] = useSearchParams()
  const state = useLinkAction(params.get('token') ?? '', params.get('email') ?? '', send, onDone)
  const result = `${testId}-result`
  const button = next(state.phase === 'done')

  return (
    <AccountPanel title={title} testId={`${testId}-page`}>
      {state.phase === 'running' && (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>{t('正在{{verb}}…', { verb })}</Text>
        </Group>
      )}
      {state.phase === 'missing' && (
        <Alert color="alert" variant="light" title={t('链接无效')} data-testid={result} data-status="missing">
          {verb}{t('链接缺少必要的参数。')}
        </Alert>
      )}
      {state.phase === 'failed' && (
        <Alert color="alert" variant="light" title={t('{{verb}}失败', { verb })} data-testid={result} data-status="failed">
          {state.message}
        </Alert>
      )}
      {state.phase === 'done' && (
        <Alert color="brand" variant="light" title={doneTitle} data-testid={result} data-status="done">
          {doneText}
        </Alert>
      )}
      {state.phase !== 'running' && (
        <Button component={Link} to={button.to} variant="light">
          {button.label}
        </Button>
      )}
    </AccountPanel>
  )
}
