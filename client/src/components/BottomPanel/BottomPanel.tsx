import type { ReactNode } from 'react'
import { Paper } from '@mantine/core'
import { BOTTOM_PANEL_HEIGHT } from '../../theme'
import classes from './BottomPanel.module.css'

export interface BottomPanelProps {
  children: ReactNode
  /** Render nothing when false. */
  opened?: boolean
  testId?: string
}

/**
 * The fixed bottom panel of SPEC §9 (240 px high), e.g. live event or submission streams on
 * monitor pages. Pages using it should add `BOTTOM_PANEL_HEIGHT` of bottom padding.
 */
export function BottomPanel({ children, opened = true, testId }: BottomPanelProps) {
  if (!opened) return null
  return (
    <Paper className={classes.root} h={BOTTOM_PANEL_HEIGHT} shadow="md" radius={0} withBorder data-testid={testId}>
      {children}
    </Paper>
  )
}
