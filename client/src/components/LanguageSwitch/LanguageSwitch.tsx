import { lazy, Suspense, useState } from 'react'
import { LanguageButton } from './LanguageButton'

const LanguageMenu = lazy(() => import('./LanguageMenu'))

/**
 * The interface language; the choice is remembered in this browser. The menu (and the popover
 * code under it) loads on the first click, keeping it off the first page
 * (docs/operations.md#benchmarks).
 */
export function LanguageSwitch() {
  const [wanted, setWanted] = useState(false)
  if (!wanted) return <LanguageButton onClick={() => setWanted(true)} />
  return (
    <Suspense fallback={<LanguageButton disabled />}>
      <LanguageMenu />
    </Suspense>
  )
}
