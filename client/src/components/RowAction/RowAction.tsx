import type { ReactNode } from 'react'
import { ActionIcon, Tooltip } from '@mantine/core'

interface RowActionProps {
  /** Tooltip and accessible name. */
  label: string
  icon: ReactNode
  onClick: () => void
  color?: string
  loading?: boolean
  testId?: string
}

/** An icon button of a table row with its tooltip (edit, delete, copy …). */
export function RowAction({ label, icon, onClick, color, loading, testId }: RowActionProps) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" color={color} loading={loading} onClick={onClick} aria-label={label} data-testid={testId}>
        {icon}
      </ActionIcon>
    </Tooltip>
  )
}
