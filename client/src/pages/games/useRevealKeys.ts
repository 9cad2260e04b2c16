/**
 * The big screen's keyboard during a staged reveal (docs/scoring.md#staged-reveal): → / Space /
 * PageDown next, ← / PageUp back, A toggles auto-play, 1–5 pick its speed. The keys call the
 * admin's routes, so they work when the big screen is signed in as an admin; otherwise the
 * server refuses and the screen shows why. The new state comes back over the socket as well.
 */
import { useEffect, useRef } from 'react'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { revealApi } from '../../api/reveal'

/** Auto-play intervals of keys 1–5 (slowest first). */
const REVEAL_KEY_SPEEDS = [5000, 3000, 2000, 1000, 500]

export function useRevealKeys(gameId: number | null, reveal: RevealState | null, accept: (s: RevealState) => void, fail: (message: string) => void): void {
  const state = useRef(reveal)
  state.current = reveal
  const speed = useRef(REVEAL_KEY_SPEEDS[1]!)
  useEffect(() => {
    if (gameId === null) return
    const handler = (event: KeyboardEvent) => {
      const current = state.current
      if (!current?.open || event.ctrlKey || event.metaKey || event.altKey) return
      let action: (() => Promise<RevealState>) | null = null
      if (event.key === 'ArrowRight' || event.key === ' ' || event.key === 'PageDown') action = () => revealApi.next(gameId)
      else if (event.key === 'ArrowLeft' || event.key === 'PageUp') action = () => revealApi.back(gameId)
      else if (event.key === 'a' || event.key === 'A') action = () => revealApi.auto(gameId, current.autoMs === null ? speed.current : null)
      else if (/^[1-5]$/.test(event.key)) {
        speed.current = REVEAL_KEY_SPEEDS[Number(event.key) - 1]!
        action = () => revealApi.auto(gameId, speed.current)
      }
      if (!action) return
      event.preventDefault()
      action().then(accept, (err: Error) => fail(err.message))
    }
    window.addEventListener('keydown', handler)
    return () => window.removeEventListener('keydown', handler)
  }, [gameId, accept, fail])
}
