/**
 * Unsaved-changes protection for editors: while `dirty`, leaving the route (in-app navigation,
 * blocked with react-router's `useBlocker`) asks for confirmation in a 确认/取消 dialog, and
 * closing or reloading the tab triggers the browser's own `beforeunload` prompt.
 *
 * `allowNavigation()` lets the next navigation through without asking (after a save or a
 * delete that navigates away in the same tick, before the re-render clears `dirty`).
 */
import { useCallback, useEffect, useRef } from 'react'
import { useBlocker, type BlockerFunction } from 'react-router-dom'
import { confirmDialog } from '../ConfirmDialog/confirm'
import { t } from '../../i18n'

export interface DirtyFormGuardOptions {
  /** Dialog title (default 放弃未保存的更改？). */
  title?: string
  /** Dialog text. */
  message?: string
}

export function useDirtyFormGuard(dirty: boolean, options: DirtyFormGuardOptions = {}): { allowNavigation: () => void } {
  const dirtyRef = useRef(dirty)
  dirtyRef.current = dirty
  const bypass = useRef(false)

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (bypass.current) {
      bypass.current = false
      return false
    }
    return dirtyRef.current && currentLocation.pathname.toLowerCase() !== nextLocation.pathname.toLowerCase()
  }, [])
  const blocker = useBlocker(shouldBlock)
  const blockerRef = useRef(blocker)
  blockerRef.current = blocker

  const { title = t('放弃未保存的更改？'), message = t('当前页面有尚未保存的更改，离开后这些更改将会丢失。') } = options
  useEffect(() => {
    if (blocker.state !== 'blocked') return
    void confirmDialog({ title, message, confirmLabel: t('确认'), danger: true }).then((leave) => {
      const current = blockerRef.current
      if (current.state !== 'blocked') return
      if (leave) current.proceed()
      else current.reset()
    })
  }, [blocker.state, title, message])

  useEffect(() => {
    if (!dirty) return
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      // Older browsers need a returnValue to show the prompt.
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [dirty])

  const allowNavigation = useCallback(() => {
    bypass.current = true
  }, [])
  return { allowNavigation }
}

/** Component form of `useDirtyFormGuard`, for editors that do not need `allowNavigation`. */
export function DirtyFormGuard({ when, ...options }: { when: boolean } & DirtyFormGuardOptions) {
  useDirtyFormGuard(when, options)
  return null
}

