/** The "load failed" alert of a screen whose data did not arrive: the server's message verbatim. */
import { Alert } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { t } from '../../i18n'

export interface LoadErrorProps {
  /** Nothing is shown without an error. */
  error: Error | null | undefined
  /** Show the alert icon. */
  icon?: boolean
  testId?: string
  w?: string
}

export function LoadError({ error, icon = false, testId, w }: LoadErrorProps) {
  if (!error) return null
  return (
    <Alert color="alert" variant="light" icon={icon ? <IconAlertCircle /> : undefined} title={t('加载失败')} data-testid={testId} w={w}>
      {error.message}
    </Alert>
  )
}
