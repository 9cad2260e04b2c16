import type { ReactElement } from 'react'
import { Tooltip, type TooltipProps } from '@mantine/core'

/** A tooltip loaded on its own (AppNavbar's disabled entries), so the anonymous first page carries no popover code. */
export default function HintTooltip(props: TooltipProps & { children: ReactElement }) {
  return <Tooltip {...props} />
}
