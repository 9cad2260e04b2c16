/**
 * A big screen (client/src/pages/games/BigScreen.tsx): anonymous, its own address, the game room's
 * socket, the scoreboard read on every (re)connection and followed push by push, the game re-read
 * every minute. It measures solve → scoreboard push on a screen that parses every push.
 */
import type { Socket } from 'socket.io-client'
import { Browser } from './http.js'
import { openHub } from './hub.js'
import { ScoreboardFollower } from './board.js'
import type { BoardUpdate } from './pushes.js'
import type { World } from './player.js'

export class BigScreen {
  private readonly browser: Browser
  private readonly scoreboard: ScoreboardFollower
  private socket: Socket | null = null
  private timer: NodeJS.Timeout | null = null
  /** When whole boards (after a rebuild) arrived, performance.now(). */
  readonly wholeBoardsAt: number[] = []

  constructor(
    private readonly world: World,
    private readonly index: number,
  ) {
    this.browser = new Browser(world.pool, `10.254.0.${index + 1}`)
    this.scoreboard = new ScoreboardFollower(this.browser, world.plan.gameId, () => world.stats, 'big screens')
  }

  async open(): Promise<void> {
    const { world } = this
    const gameId = world.plan.gameId
    const readGame = () => this.browser.read(`/api/game/${gameId}`, 'screen: GET /api/game/{id}').catch(() => undefined)
    await readGame()
    this.socket = openHub(this.browser, world.pool.base, {
      gameId,
      stats: world.stats,
      role: 'screen',
      onConnect: () => void this.scoreboard.read().catch(() => undefined),
    })
    this.socket.on('ReceivedScoreboardUpdate', (update: BoardUpdate) => {
      if (update.scoreboard || update.refetch) this.wholeBoardsAt.push(performance.now())
      world.solves.observe(update, `screen${this.index}`, 'big screen')
      this.scoreboard.fold(update)
    })
    this.timer = setInterval(() => void readGame(), 60_000)
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
    this.socket?.close()
  }
}
