import { useEffect } from 'react'
import { ModalsProvider } from '@mantine/modals'
import { MODALS_PROPS } from '../../theme'

/** Mantine's modals manager's listener; `onReady` runs after the provider's own effects subscribed it. */
export default function ModalsLayer({ onReady }: { onReady: () => void }) {
  useEffect(() => onReady(), [onReady])
  return <ModalsProvider {...MODALS_PROPS}>{null}</ModalsProvider>
}
