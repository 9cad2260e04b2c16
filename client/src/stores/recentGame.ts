/** The game last opened in this browser, for the navbar's monitor entry. */
import { create } from 'zustand'

const KEY = 'flagwave-recent-game'

function read(): number | null {
  try {
    const value = Number(localStorage.getItem(KEY))
    return Number.isInteger(value) && value > 0 ? value : null
  } catch {
    return null
  }
}

export const useRecentGame = create<{ gameId: number | null; setGameId: (id: number) => void }>((set) => ({
  gameId: read(),
  setGameId: (gameId) => {
    try {
      localStorage.setItem(KEY, String(gameId))
    } catch {
      // storage disabled
    }
    set({ gameId })
  },
}))
