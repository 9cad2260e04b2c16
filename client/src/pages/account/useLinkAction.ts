import { useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../api/http'

export type LinkActionState = { phase: 'missing' } | { phase: 'running' } | { phase: 'done' } | { phase: 'failed'; message: string }

/**
 * Run a mailed-link action (verify, mail-change confirm) once per token/email pair, even under
 * StrictMode's double effects.
 */
export function useLinkAction(token: string, email: string, action: (body: { token: string; email: string }) => Promise<unknown>, onDone?: () => void | Promise<void>): LinkActionState {
  const [state, setState] = useState<LinkActionState>(() => (token && email ? { phase: 'running' } : { phase: 'missing' }))
  const started = useRef<string | null>(null)
  const actionRef = useRef(action)
  const doneRef = useRef(onDone)
  actionRef.current = action
  doneRef.current = onDone

  useEffect(() => {
    if (!token || !email) {
      setState({ phase: 'missing' })
      return
    }
    const id = `${token}\n${email}`
    if (started.current === id) return
    started.current = id
    setState({ phase: 'running' })
    actionRef
      .current({ token, email })
      .then(async () => {
        await doneRef.current?.()
        setState({ phase: 'done' })
      })
      .catch((error: unknown) => setState({ phase: 'failed', message: errorMessage(error) }))
  }, [token, email])

  return state
}
