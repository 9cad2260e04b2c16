import { lazy, Suspense, type ReactElement } from 'react'
import type { TooltipProps } from '@mantine/core'

const HintTooltip = lazy(() => import('./HintTooltip'))

/**
 * Mantine's Tooltip, loaded when first rendered: screens of the first page (the header, the home
 * page's posts) show it only to some readers, and the popover code under it stays off the first
 * page for the others (docs/operations.md#benchmarks). Until it has loaded, the child shows alone.
 */
export function LazyTooltip(props: TooltipProps & { children: ReactElement }) {
  return (
    <Suspense fallback={props.children}>
      <HintTooltip {...props} />
    </Suspense>
  )
}
