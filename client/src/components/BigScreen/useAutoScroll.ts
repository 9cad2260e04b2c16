/**
 * Smoothly auto-scroll an overflowing element through its whole content, pause at the bottom,
 * glide back to the top and loop. Pauses while the pointer is over the element.
 */
import { useEffect, type RefObject } from 'react'

export interface AutoScrollOptions {
  /** Pixels per second (default 36). */
  speed?: number
  /** Pause at the top and bottom (ms, default 3000). */
  pauseMs?: number
  enabled?: boolean
}

export function useAutoScroll(ref: RefObject<HTMLElement | null>, { speed = 36, pauseMs = 3_000, enabled = true }: AutoScrollOptions = {}): void {
  useEffect(() => {
    const el = ref.current
    if (!el || !enabled) return
    let frame = 0
    let returnTimer: ReturnType<typeof setTimeout> | undefined
    let last = performance.now()
    let pauseUntil = last + pauseMs
    let position = el.scrollTop
    let hovering = false
    let phase: 'down' | 'returning' = 'down'
    const enter = () => (hovering = true)
    const leave = () => {
      hovering = false
      position = el.scrollTop
    }
    el.addEventListener('mouseenter', enter)
    el.addEventListener('mouseleave', leave)

    const step = (t: number) => {
      const dt = Math.min(100, t - last)
      last = t
      const max = el.scrollHeight - el.clientHeight
      if (!hovering && max > 1 && t >= pauseUntil) {
        if (phase === 'returning') {
          if (el.scrollTop <= 1) {
            phase = 'down'
            position = 0
            pauseUntil = t + pauseMs
          }
        } else {
          position = Math.min(max, position + (speed * dt) / 1000)
          el.scrollTop = position
          if (position >= max - 0.5) {
            phase = 'returning'
            pauseUntil = t + pauseMs
            returnTimer = setTimeout(() => el.scrollTo({ top: 0, behavior: 'smooth' }), pauseMs)
          }
        }
      } else if (max <= 1) {
        position = 0
      }
      frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(returnTimer)
      el.removeEventListener('mouseenter', enter)
      el.removeEventListener('mouseleave', leave)
    }
  }, [ref, speed, pauseMs, enabled])
}
