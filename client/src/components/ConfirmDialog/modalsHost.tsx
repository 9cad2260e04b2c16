/**
 * The modals layer (Mantine's ModalsProvider) is mounted on first use rather than at start: the
 * modal, scroll-area and focus-trap code under it stays off the first page
 * (docs/operations.md#benchmarks). Everything that opens a modal through the `modals` manager
 * awaits `modalsReady()` first.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react'

const ModalsLayer = lazy(() => import('./ModalsLayer'))

let wanted = false
let ready: Promise<void> | null = null
let markReady: () => void = () => {}
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Resolves once the modals layer is mounted and listening for the `modals` manager's events. */
export function modalsReady(): Promise<void> {
  if (!ready) {
    ready = new Promise((resolve) => {
      markReady = resolve
    })
    wanted = true
    for (const listener of listeners) listener()
  }
  return ready
}

/** Mounted once beside the routes (App.tsx); renders the modals layer from the first modal on. */
export function ModalsHost() {
  const show = useSyncExternalStore(subscribe, () => wanted)
  if (!show) return null
  return (
    <Suspense fallback={null}>
      <ModalsLayer onReady={markReady} />
    </Suspense>
  )
}
