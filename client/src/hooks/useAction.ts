import { useCallback, useState } from 'react'
import { notifyError } from '../utils/notify'

/**
 * The busy/try/notify block of a button: `run(failureTitle, action)` sets `busy` while the
 * action runs and shows a failure under `failureTitle` (success notices stay in the action).
 * Resolves to whether the action succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const run = useCallback((failureTitle: string, action: () => Promise<unknown>) => attempt(failureTitle, action, setBusy), [])
  return { busy, run }
}

/** The same for the rows of a table: `busy[id]` is set while that row's action runs. */
export function useRowActions<K extends string | number>() {
  const [busy, setBusy] = useState<Record<string, boolean>>({})
  const run = useCallback(
    (id: K, failureTitle: string, action: () => Promise<unknown>) =>
      attempt(failureTitle, action, (on) => setBusy((state) => ({ ...state, [id]: on }))),
    [],
  )
  return { busy, run }
}

/** Run `action` with `setBusy` on around it; a failure is shown under `failureTitle`. */
async function attempt(failureTitle: string, action: () => Promise<unknown>, setBusy: (on: boolean) => void): Promise<boolean> {
  setBusy(true)
  try {
    await action()
    return true
  } catch (cause) {
    notifyError(cause, failureTitle)
    return false
  } finally {
    setBusy(false)
  }
}
