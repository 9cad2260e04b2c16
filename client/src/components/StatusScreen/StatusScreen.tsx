import type { ReactNode } from 'react'
import { Button, Center, Stack, Text, Title } from '@mantine/core'
import { Link } from 'react-router-dom'
import classes from './StatusScreen.module.css'
import { t } from '../../i18n'

export interface StatusScreenProps {
  code?: string
  title: ReactNode
  description?: ReactNode
  /** Show a "back home" button (default true). */
  homeLink?: boolean
  testId?: string
  children?: ReactNode
}

/** A centred status page: not found, forbidden, unexpected error. */
export function StatusScreen({ code, title, description, homeLink = true, testId, children }: StatusScreenProps) {
  return (
    <Center className={classes.root} data-testid={testId}>
      <Stack align="center" gap="sm" maw={560}>
        {code && <Text className={classes.code}>{code}</Text>}
        <Title order={2} ta="center">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" ta="center" className={classes.description}>
            {description}
          </Text>
        )}
        {children}
        {homeLink && (
          <Button component={Link} to="/" variant="light" mt="md">
            {t('返回首页')}
          </Button>
        )}
      </Stack>
    </Center>
  )
}
