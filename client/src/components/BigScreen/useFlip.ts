/**
 * FLIP row animation: after every render with new `deps`, each child carrying `data-flip-key`
 * that moved is translated back to where it was and transitioned to its new place; rows that
 * moved up get `data-rank-change="up"` for `highlightMs` (CSS shows it), down → "down".
 */
import { useLayoutEffect, useRef, type DependencyList, type RefObject } from 'react'

export interface FlipOptions {
  durationMs?: number
  highlightMs?: number
}

export function useFlip(container: RefObject<HTMLElement | null>, deps: DependencyList, options: FlipOptions = {}): void {
  const positions = useRef(new Map<string, number>())
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>())
  const duration = options.durationMs ?? 700
  const highlight = options.highlightMs ?? 2_500

  useLayoutEffect(() => {
    const root = container.current
    if (!root) return
    const reduce = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    const next = new Map<string, number>()
    const moved: HTMLElement[] = []
    root.querySelectorAll<HTMLElement>('[data-flip-key]').forEach((el) => {
      const key = el.dataset.flipKey!
      const top = el.offsetTop
      next.set(key, top)
      const previous = positions.current.get(key)
      if (previous === undefined || previous === top) return
      const dy = previous - top
      el.dataset.rankChange = dy > 0 ? 'up' : 'down'
      clearTimeout(timers.current.get(key))
      timers.current.set(
        key,
        setTimeout(() => {
          delete el.dataset.rankChange
        }, highlight),
      )
      if (reduce) return
      el.style.transition = 'none'
      el.style.transform = `translateY(${dy}px)`
      moved.push(el)
    })
    positions.current = next
    if (moved.length === 0) return
    // Force the start position, then let the rows glide to their new places.
    void root.offsetHeight
    const frame = requestAnimationFrame(() => {
      for (const el of moved) {
        el.style.transition = `transform ${duration}ms cubic-bezier(0.2, 0.8, 0.2, 1)`
        el.style.transform = ''
      }
    })
    return () => {
      cancelAnimationFrame(frame)
      for (const el of moved) {
        if (el.style.transition === 'none') {
          el.style.transition = ''
          el.style.transform = ''
        }
      }
    }
  }, deps)

  useLayoutEffect(() => {
    const map = timers.current
    return () => {
      for (const timer of map.values()) clearTimeout(timer)
    }
  }, [])
}
