import type { ReactNode } from 'react'
import { Center, Paper, Stack, Text, Title } from '@mantine/core'
import classes from './AccountPanel.module.css'

export interface AccountPanelProps {
  title: ReactNode
  subtitle?: ReactNode
  children: ReactNode
  testId?: string
  width?: number
}

/** The centred card of the account screens (login, register, recovery…). */
export function AccountPanel({ title, subtitle, children, testId, width = 420 }: AccountPanelProps) {
  return (
    <Center className={classes.root} data-testid={testId}>
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={width}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={2}>{title}</Title>
            {subtitle && (
              <Text size="sm" c="dimmed">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  )
}
