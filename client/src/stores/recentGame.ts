/** The game last opened in this browser, for the navbar's monitor entry (remembered in localStorage). */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'

interface RecentGameState {
  gameId: number | null
  setGameId: (id: number) => void
}

export const useRecentGame = create<RecentGameState>()(
  persist((set) => ({ gameId: null, setGameId: (gameId) => set({ gameId }) }), {
    name: 'flagwave-recent-game',
    partialize: (state) => ({ gameId: state.gameId }),
  }),
)
