/**
 * One simulated player, behaving like a person in the SPA (client/src):
 *
 * - before the event: registers (signed in at once), creates a team or joins one with its invite
 *   code, and joins the game with it;
 * - at the start (spread over `--arrival-seconds`): some sign in again, the page loads (config,
 *   profile, game), the socket opens on the game room and each (re)connection loads the board,
 *   the notices and the scoreboard;
 * - every 10 s, as the SPA's queries do: profile and game; board, notices and scoreboard only while
 *   the socket is down (the fallback) or with `--poll-board`;
 * - pushes: an opening's difference adds its challenge to the board; its `NewChallenge` notice
 *   reloads the board (at a random moment within 3 s when the board shows the challenge already,
 *   at once otherwise), a challenge update naming a challenge the board does not show reloads it
 *   at once, a scoreboard push whose base is not the
 *   held version reloads the scoreboard, a team's `ReceivedSubmissionResult` settles a submission
 *   (also one that arrives before the POST's answer); whole boards are taken by their version only
 *   (hub.ts: parsing them on a thousand sockets in one process would stall this client);
 * - plays: picks an open challenge the team has not solved, opens it, reads (20–90 s), then tries
 *   flags 5–25 s apart — right with probability `--right-share` — and waits for each verdict (the
 *   push, else the status call every 500 ms after 1.5 s), until solved or it gives up after a few.
 */
import type { Socket } from 'socket.io-client'
import { OPENING_READ_SPREAD_MS, REFRESH_INTERVAL_MS } from '@flagwave/shared/limits'
import { Browser, TransportError, type Answer, type Pool } from './http.js'
import { openHub } from './hub.js'
import { ScoreboardFollower } from './board.js'
import type { Ledger } from './ledger.js'
import type { Options } from './options.js'
import type { NoticeTracker, SolveTracker, BoardUpdate } from './pushes.js'
import type { EventPlan } from './setup.js'
import type { Stats } from './stats.js'

const PUSH_GRACE_MS = 1_500
const POLL_MS = 500

/** What every player shares: the plan, the trackers and the clock. */
export interface World {
  options: Options
  pool: Pool
  stats: Stats
  plan: EventPlan
  ledger: Ledger
  solves: SolveTracker
  notices: NoticeTracker
  /** performance.now() after which players stop playing. */
  deadline: number
  /** performance.now() after which a submission without a verdict counts as lost. */
  settleBy: number
  /** Player sockets connected right now. */
  connected: Set<Player>
}

export class SimTeam {
  id = 0
  /** The team's row id on the scoreboard (from the board's `rank`). */
  rowId: number | null = null
  readonly solved = new Set<number>()
  readonly members: Player[] = []
  inviteCode: Promise<string>
  setInviteCode!: (code: string) => void

  constructor(readonly name: string) {
    this.inviteCode = new Promise((resolve) => (this.setInviteCode = resolve))
  }
}

const between = (min: number, max: number) => min + Math.random() * (max - min)

interface ChallengeInfo {
  id: number
  title: string
}
interface Details {
  challenges: Record<string, ChallengeInfo[]>
  rank: { id: number; challenges: { id: number; type: string }[] }
}

export class Player {
  readonly browser: Browser
  private socket: Socket | null = null
  /** The challenges the team's board lists, id → title (titles: the SPA's `boardShowsChallenge`). */
  private board = new Map<number, string>()
  private readonly scoreboard: ScoreboardFollower
  private refresher: NodeJS.Timeout | null = null
  private readonly key: string
  /** Reads in flight by query: a second refetch of the same query joins the first (React Query's `cancelRefetch: false`). */
  private readonly inflight = new Map<string, Promise<unknown>>()

  constructor(
    readonly world: World,
    readonly index: number,
    readonly userName: string,
    readonly team: SimTeam,
    readonly captain: boolean,
  ) {
    // 10.x.y.z, one address per player (rate limits and audit see each one apart).
    const n = index + 1
    this.browser = new Browser(world.pool, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`)
    this.key = `p${index}`
    this.scoreboard = new ScoreboardFollower(this.browser, world.plan.gameId, () => world.stats, 'players')
  }

  private get stats(): Stats {
    return this.world.stats
  }
  private get gameId(): number {
    return this.world.plan.gameId
  }
  private get password(): string {
    return `Sim-${this.userName}-9`
  }

  /* ------------------------------------------------------------------ before the event */

  async register(): Promise<void> {
    const res = await this.browser.post<{ data?: string }>(
      '/api/account/register',
      { userName: this.userName, password: this.password, email: `${this.userName}@sim.example` },
      'POST /api/account/register',
    )
    if (res.status === 429) throw new Error('registration was rate limited: start the server with TRUST_PROXY=true (players come from distinct X-Forwarded-For addresses)')
    if (res.status !== 200 || !this.browser.signedIn) throw new Error(`registration of ${this.userName}: ${res.status} ${res.text.slice(0, 200)}`)
  }

  async formTeam(): Promise<void> {
    if (this.captain) {
      const team = await this.browser.post<{ id: number }>('/api/team', { name: this.team.name, bio: 'simulated' }, 'POST /api/team')
      if (team.status !== 200) throw new Error(`team ${this.team.name}: ${team.status} ${team.text.slice(0, 200)}`)
      this.team.id = team.body.id
      const code = await this.browser.get<string>(`/api/team/${this.team.id}/invite`, 'GET /api/team/{id}/invite')
      if (code.status !== 200) throw new Error(`invite code of ${this.team.name}: ${code.status}`)
      this.team.setInviteCode(code.body)
    } else {
      const code = await this.team.inviteCode
      const res = await this.browser.post('/api/team/accept', code, 'POST /api/team/accept')
      if (res.status !== 200) throw new Error(`${this.userName} joining ${this.team.name}: ${res.status} ${res.text.slice(0, 200)}`)
    }
  }

  async joinGame(): Promise<void> {
    const res = await this.browser.post(`/api/game/${this.gameId}`, { teamId: this.team.id }, 'POST /api/game/{id} (join)')
    if (res.status !== 200) throw new Error(`${this.userName} joining the game: ${res.status} ${res.text.slice(0, 200)}`)
  }

  /* ------------------------------------------------------------------ the event */

  /** Arrive, play until the deadline, and leave (the socket stays open until `leave`). */
  async attend(arrivalDelayMs: number): Promise<void> {
    await sleep(arrivalDelayMs)
    await this.arrive()
    await this.play()
  }

  /** Run one step; a call that got no answer (recorded already) abandons the step, as a person would after an error. */
  private async step(what: () => Promise<unknown>): Promise<void> {
    try {
      await what()
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      this.stats.count('players: step abandoned after a call got no answer')
    }
  }

  leave(): void {
    if (this.refresher) clearInterval(this.refresher)
    this.refresher = null
    this.socket?.close()
    this.world.connected.delete(this)
  }

  private async arrive(): Promise<void> {
    const { options } = this.world
    if (Math.random() < options.loginShare) {
      // A sign-in that got no answer is tried again, as a person clicks again.
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const res = await this.browser.post('/api/account/login', { userName: this.userName, password: this.password }, 'POST /api/account/login')
          if (res.status !== 200) this.stats.count('players: sign-in refused')
          break
        } catch (error) {
          if (!(error instanceof TransportError)) throw error
          await sleep(2_000)
        }
      }
    }
    // The SPA's first screen: configuration, the signed-in profile, the game; the socket opens beside them.
    this.socket = this.connect()
    await this.step(() => Promise.all([this.browser.read('/api/config', 'GET /api/config'), this.readProfile(), this.readGame()]))
    this.refresher = setInterval(() => void this.refresh().catch(() => undefined), REFRESH_INTERVAL_MS)
  }

  private connect(): Socket {
    const world = this.world
    const socket = openHub(this.browser, world.pool.base, {
      gameId: this.gameId,
      stats: this.stats,
      role: 'player',
      onConnect: () => {
        world.connected.add(this)
        void this.resync().catch(() => undefined)
      },
      onWholeBoard: (version) => {
        this.stats.count('player sockets: whole boards received (not parsed)')
        this.scoreboard.fold({ version, scoreboard: { items: [] } })
      },
    })
    socket.on('disconnect', () => world.connected.delete(this))
    socket.on('ReceivedGameNotice', (notice: { type: string; content: string; values: string[] }) => {
      world.notices.observe(notice)
      if (notice.type === 'NewChallenge') this.readBoardAfterOpening(notice.values[0])
    })
    socket.on('ReceivedScoreboardUpdate', (update: BoardUpdate) => {
      world.solves.observe(update, this.key, 'every player, differences')
      // An opening's difference brings the new column: the SPA folds it into the team's board, so
      // the challenge update that follows names a challenge it knows and reads nothing
      // (useGameLive.ts `foldIntoTeamBoard`); the NewChallenge notice then reads the board.
      if (!this.scoreboard.fold(update)) return
      for (const { challenge } of update.delta?.added ?? []) this.board.set(challenge.id, challenge.title)
    })
    socket.on('ReceivedChallengeUpdate', (update: { challenges: { id: number }[] }) => {
      if (update.challenges.some((c) => !this.board.has(c.id))) void this.readBoard().catch(() => undefined)
    })
    socket.on('ReceivedSubmissionResult', (result: { id: number; challengeId: number; status: string }) => {
      if (result.status === 'Accepted') this.team.solved.add(result.challengeId)
      world.ledger.settle(result.id, result.status, 'push')
    })
    return socket
  }

  /** What the SPA refetches on every (re)connection to the game room. */
  private async resync(): Promise<void> {
    await Promise.all([this.scoreboard.read(), this.readBoard(), this.readNotices()])
  }

  /** The 10-second refresh of the SPA's queries. */
  private async refresh(): Promise<void> {
    const calls = [this.readProfile(), this.readGame()]
    if (!this.socket?.connected || this.world.options.pollBoard) calls.push(this.readBoard(), this.scoreboard.read(), this.readNotices())
    await Promise.all(calls)
  }

  private query(key: string, read: () => Promise<unknown>): Promise<unknown> {
    let running = this.inflight.get(key)
    if (!running) {
      running = read().finally(() => this.inflight.delete(key))
      this.inflight.set(key, running)
    }
    return running
  }

  private readGame() {
    return this.query('game', () => this.browser.read(`/api/game/${this.gameId}`, 'GET /api/game/{id}'))
  }

  private readProfile() {
    return this.query('profile', () => this.browser.read('/api/account/profile', 'GET /api/account/profile'))
  }

  private readNotices() {
    return this.query('notices', () => this.browser.read(`/api/game/${this.gameId}/notices`, 'GET /api/game/{id}/notices'))
  }

  private readBoard() {
    return this.query('board', () => this.fetchBoard())
  }

  /** As the SPA's `readBoardAfterOpening`: at once, or spread when the board shows the challenge already. */
  private readBoardAfterOpening(title: string | undefined): void {
    const read = () => void this.readBoard().catch(() => undefined)
    if (title === undefined || ![...this.board.values()].includes(title)) read()
    else setTimeout(read, Math.random() * OPENING_READ_SPREAD_MS)
  }

  private async fetchBoard(): Promise<void> {
    const res = await this.browser.read<Details>(`/api/game/${this.gameId}/details`, 'GET /api/game/{id}/details')
    if (res.status !== 200 || !res.body) return
    this.board = new Map(Object.values(res.body.challenges).flatMap((list) => list.map((c) => [c.id, c.title] as const)))
    this.team.rowId = res.body.rank.id
    for (const cell of res.body.rank.challenges) if (cell.type !== 'Unaccepted') this.team.solved.add(cell.id)
  }

  private async play(): Promise<void> {
    const { options, plan } = this.world
    const scale = options.thinkScale
    while (this.live()) {
      const choices = [...this.board.keys()].filter((id) => !this.team.solved.has(id))
      if (choices.length === 0) {
        await this.pause(between(20, 40) * scale)
        continue
      }
      const challengeId = choices[Math.floor(Math.random() * choices.length)]!
      const flag = plan.challenges.find((c) => c.id === challengeId)?.flag
      await this.step(() => this.browser.read(`/api/game/${this.gameId}/challenges/${challengeId}`, 'GET /api/game/{id}/challenges/{cid}'))
      await this.pause(between(20, 90) * scale)
      const attempts = 1 + Math.floor(Math.random() * 5)
      for (let i = 0; i < attempts && this.live() && !this.team.solved.has(challengeId); i++) {
        const right = flag !== undefined && Math.random() < options.rightShare
        const status = await this.submit(challengeId, right ? flag : `flag{guess_${Math.random().toString(36).slice(2, 10)}}`, right)
        if (status === 'Accepted') break
        await this.pause(between(5, 25) * scale)
      }
    }
  }

  private live(): boolean {
    return performance.now() < this.world.deadline
  }

  /** Sleep like a person, but not past the end of the event. */
  private pause(seconds: number): Promise<void> {
    return sleep(Math.max(0, Math.min(seconds * 1000, this.world.deadline - performance.now())))
  }

  private async submit(challengeId: number, flag: string, right: boolean): Promise<string | null> {
    const { ledger, solves } = this.world
    const sentAt = performance.now()
    const firstSolve = right && !this.team.solved.has(challengeId) && this.team.rowId !== null
    const takeBack = firstSolve ? solves.sending(this.team.rowId!, challengeId, sentAt) : () => undefined
    let res: Answer<number>
    try {
      res = await this.browser.post<number>(`/api/game/${this.gameId}/challenges/${challengeId}`, { flag }, 'POST /api/game/{id}/challenges/{cid} (submit)')
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      // The server may have queued it: the final count against the server's list allows for these.
      this.stats.count('submissions: sent without an answer')
      return null
    }
    if (res.status !== 200 || typeof res.body !== 'number') {
      takeBack()
      return null
    }
    const entry = ledger.add(res.body, challengeId, this.team.rowId, right, sentAt)
    // The verdict: the push, or after the grace the status call every 500 ms (client/src/stores/game.ts).
    let waiting = true
    const poll = async () => {
      await sleep(this.socket?.connected ? PUSH_GRACE_MS : 0)
      while (waiting && entry.status === null && performance.now() < this.world.settleBy) {
        try {
          const status = await this.browser.get<string>(`/api/game/${this.gameId}/challenges/${challengeId}/status/${entry.id}`, 'GET …/challenges/{cid}/status/{sid}')
          if (status.status === 200 && typeof status.body === 'string') ledger.settle(entry.id, status.body, 'poll')
        } catch {
          // recorded; try again
        }
        if (entry.status === null) await sleep(POLL_MS)
      }
    }
    const polling = poll()
    const status = await Promise.race([entry.settled, polling.then(() => entry.status)])
    waiting = false
    if (status === 'Accepted') this.team.solved.add(challengeId)
    return status
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
