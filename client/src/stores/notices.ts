/**
 * Notices of the game on screen: `GET /api/game/{id}/notices` (admin notices first, then system
 * notices, each newest first — CONTRACT §3.5.6) kept live by `ReceivedGameNotice` pushes.
 */
import { create } from 'zustand'
import type { GameNotice } from '@flagwave/shared/schemas/games'

/** A pushed notice missing from a REST answer this soon after is the answer's race, not a deletion. */
const RACE_WINDOW_MS = 30_000

interface NoticesState {
  gameId: number | null
  notices: GameNotice[]
  /** Notice id → when it was pushed. */
  pushedAt: Record<number, number>
  follow: (gameId: number) => void
  setNotices: (gameId: number, notices: GameNotice[]) => void
  /** Insert a pushed notice (deduplicated by id); false when it was already known or for another game. */
  addNotice: (gameId: number, notice: GameNotice) => boolean
}

const time = (notice: GameNotice) => Date.parse(notice.time)

/** The contract's order: `Normal` notices first, then the others; each group newest first. */
export function sortNotices(list: GameNotice[]): GameNotice[] {
  return [...list].sort((a, b) => {
    const an = a.type === 'Normal' ? 0 : 1
    const bn = b.type === 'Normal' ? 0 : 1
    return an !== bn ? an - bn : time(b) - time(a) || b.id - a.id
  })
}

export const useNoticesStore = create<NoticesState>((set, get) => ({
  gameId: null,
  notices: [],
  pushedAt: {},
  follow: (gameId) => {
    if (get().gameId !== gameId) set({ gameId, notices: [], pushedAt: {} })
  },
  setNotices: (gameId, notices) => {
    // Keep pushed notices the REST answer (cached up to 30 min server-side) does not have yet.
    const state = get()
    const known = new Set(notices.map((n) => n.id))
    const now = Date.now()
    const extra = state.gameId === gameId ? state.notices.filter((n) => !known.has(n.id) && now - (state.pushedAt[n.id] ?? 0) < RACE_WINDOW_MS) : []
    set({ gameId, notices: extra.length ? sortNotices([...notices, ...extra]) : notices, ...(state.gameId === gameId ? {} : { pushedAt: {} }) })
  },
  addNotice: (gameId, notice) => {
    const state = get()
    if (state.gameId !== gameId) return false
    if (state.notices.some((n) => n.id === notice.id)) return false
    set({ notices: sortNotices([notice, ...state.notices]), pushedAt: { ...state.pushedAt, [notice.id]: Date.now() } })
    return true
  },
}))
