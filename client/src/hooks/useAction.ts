import { useCallback, useState } from 'react'
import { notifyError } from '../utils/notify'

/**
 * The busy/try/notify block of a button: `run(failureTitle, action)` sets `busy` while the
 * action runs and shows a failure under `failureTitle` (success notices stay in the action).
 * Resolves to whether the action succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (failureTitle: string, action: () => Promise<unknown>): Promise<boolean> => {
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
  }, [])
  return { busy, run }
}

/** The same for the rows of a table: `busy[id]` is set while that row's action runs. */
export function useRowActions<K extends string | number>() {
  const [busy, setBusy] = useState<Record<string, boolean>>({})
  const run = useCallback(async (id: K, failureTitle: string, action: () => Promise<unknown>): Promise<boolean> => {
    setBusy((state) => ({ ...state, [id]: true }))
    try {
      await action()
      return true
    } catch (cause) {
      notifyError(cause, failureTitle)
      return false
    } finally {
      setBusy((state) => ({ ...state, [id]: false }))
    }
  }, [])
  return { busy, run }
}
