/**
 * The incremental scoreboard of one game (docs/scoring.md#incremental-engine, #dynamic-score; docs/compatibility.md#scoreboard-shapes), pure and in memory:
 * scores, ranks and bloods as domain records. Its wire form is rendered by board.ts.
 *
 * `ScoreboardEngine.build(data)` is the full rebuild from what `load.ts` read in one pass;
 * `applySolve()` folds one counted solve in, touching only the teams whose points change — the
 * solver, the up to three blood holders whose rank shifts, and, when the challenge's current score
 * moved, every solver of that challenge — and re-places them in the ranking with binary searches
 * (O(changed · log teams) comparisons). `foldSolves()` folds a batch in with each touched challenge
 * re-scored once, and `unfoldSolves()` takes the latest solves out again (a replay's seeks,
 * docs/scoring.md#replay). `takeChanges()` tells a reader which cells and challenges changed since
 * it last asked, so it re-renders only those.
 *
 * Rules (docs/scoring.md#dynamic-score): only the earliest `Accepted` submission before the game end per team and challenge
 * counts; the board lists accepted teams that hold an instance of an enabled challenge, one
 * ChallengeItem per such instance; a challenge's current score follows its `acceptedCount`; the
 * first three solvers on the board get the blood factor (round half to even); ranking is score
 * descending, then last submission ascending (then team id, so the order is deterministic).
 *
 * Divisions (docs/scoring.md#divisions): a team's cells are the challenges its division may view;
 * the board lists the challenges some board team has a cell for (so only what some division may
 * view, or a team without a division); a solve without GetScore is worth 0, one
 * without GetBlood takes no blood (the bloods go to the first three solvers that may take them);
 * the counter moves only with solves whose division affects the dynamic score (the checkers count
 * so); the overall rank counts only teams of divisions ranked overall (0 for the others).
 *
 * Costed hints (docs/challenge-rules.md#costed-hints): `applyHintUnlock()` takes a team's unlock
 * off its score (a fixed number of points, fixed when it unlocked, whether or not it solves),
 * counted when the team has a cell for the challenge and the unlock came before the end, like a
 * solve; `hintPenalty` is the sum. Unlocks never move `last` (ranking ties stay on solves) nor
 * the timelines (they plot solve points).
 *
 */
import { ChallengeTag } from '@flagwave/shared/enums'
import { challengeScore, solveScore, type BloodRank } from '@flagwave/shared/scoring'
import { DivisionPermissions, type DivisionRules } from '@flagwave/shared/divisions'

/** A division of the game: its name (v0.17.6's organization) and its permissions. */
export interface DivisionMeta extends DivisionRules {
  name: string
}

export interface GameMeta {
  id: number
  /** Epoch milliseconds. */
  start: number
  end: number
  bloodBonus: number
  /** The game's divisions, ascending id (one ranking and timeline each). */
  divisions: DivisionMeta[]
}

/** An enabled challenge of the game. */
export interface ChallengeData {
  id: number
  title: string
  tag: ChallengeTag
  originalScore: number
  minScoreRate: number
  difficulty: number
  /** Teams (of any status) whose first correct submission came before the end (the stored counter). */
  acceptedCount: number
  /** Challenges a team must solve first (docs/challenge-rules.md#prerequisites); disabled ones do not count. */
  prerequisites?: readonly number[]
  /** Last submission time, epoch milliseconds (docs/challenge-rules.md#deadline); shown on the board only. */
  deadline?: number | null
}

/** An accepted participation. */
export interface TeamData {
  participationId: number
  teamId: number
  name: string
  bio: string | null
  avatarHash: string | null
  /** The team's division (null: none, every permission). */
  divisionId: number | null
}

/** A settled Accepted submission. */
export interface SolveData {
  participationId: number
  challengeId: number
  submissionId: number
  /** Submission time, epoch milliseconds. */
  time: number
  userName: string | null
  /** The challenge's `acceptedCount` right after this solve was counted, when known. */
  acceptedCount?: number
  /** Whether the solving team belongs on the board (accepted participation, enabled challenge) — a hint that an unknown pair needs a rebuild. */
  board?: boolean
}

/** A costed hint a team unlocked (a row of the append-only `hint_unlocks`). */
export interface HintUnlockData {
  /** The row id: an unlock is folded in once. */
  unlockId: number
  participationId: number
  challengeId: number
  /** Unlock time, epoch milliseconds. */
  time: number
  /** Points it cost, fixed at the moment of unlocking. */
  cost: number
}

export interface GameData {
  game: GameMeta
  challenges: ChallengeData[]
  teams: TeamData[]
  /** Participation id → ids of the enabled challenges it holds an instance of. */
  instances: Map<number, number[]>
  /** Accepted submissions (any order; later ones of a pair and ones after the end are ignored). */
  solves: SolveData[]
  /** Costed hint unlocks (any order; absent: none). A board at time t passes those before t. */
  unlocks?: HintUnlockData[]
  /**
   * The teams' cells as `ScoreboardEngine.layout` computed them from these same teams, instances,
   * challenges and divisions (absent: computed by the build). A replay reuses them between the builds
   * of one epoch.
   */
  layout?: BoardLayout
}

/** Per participation: the cells of its row (shared by teams with the same cells), and the held challenges its division may not view. */
export type BoardLayout = ReadonlyMap<number, { cids: number[]; slot: Map<number, number>; hidden: Set<number> | null }>

/** A counted solve to take out of a state again (`unfoldSolves`), with its challenge's counter before it. */
export interface UnfoldSolve extends Pick<SolveData, 'participationId' | 'challengeId' | 'submissionId' | 'time'> {
  countBefore: number
}

/** What `applySolve` did: `unknown` means the pair belongs on the board but the state does not know it (rebuild). */
export type ApplyResult = 'applied' | 'ignored' | 'unknown'

/** A counted solve on the board and what it is currently worth. */
export interface SolveRecord {
  readonly participationId: number
  readonly challengeId: number
  readonly submissionId: number
  readonly time: number
  readonly userName: string | null
  /** Points this solve is currently worth (blood bonus included). */
  readonly points: number
  readonly blood: BloodRank | null
}

/** A challenge on the board: its current score and counter, and its solvers, earliest first. */
export interface ChallengeRecord {
  readonly data: ChallengeData
  readonly acceptedCount: number
  readonly score: number
  readonly solvers: readonly SolveRecord[]
}

/** A team on the board. */
export interface TeamRecord {
  readonly data: TeamData
  /** Held challenge ids, ascending: the order of the row's cells (a cell's index is its slot); the same array for teams with the same cells. */
  readonly cids: readonly number[]
  /** Challenge id → the team's counted solve. */
  readonly solves: ReadonlyMap<number, SolveRecord>
  readonly score: number
  /** The latest counted solve (the game start without one), epoch milliseconds. */
  readonly last: number
  readonly solved: number
  /** Points taken off `score` for costed hints the team unlocked. */
  readonly hintPenalty: number
  /** 1-based, as of the last `ranking()`. */
  readonly rank: number
  /** 1-based among the teams of its division, as of the last `ranking()`; null without one. */
  readonly divisionRank: number | null
}

/** Who took one of a challenge's bloods, and when. */
export interface BloodRecord {
  team: TeamData
  time: number
}

/** What changed since a reader last asked (see `takeChanges`). */
export interface Changes {
  /** Per team, the slots of the cells whose points, blood or solve changed, in the order they changed. */
  cells: Map<TeamRecord, Set<number>>
  /** Challenges whose score, counter or bloods changed. */
  challenges: Set<ChallengeRecord>
  /** Teams whose `hintPenalty` changed. */
  penalties: Set<TeamRecord>
  /** Participation id → challenges a new solve unlocked for it (all their prerequisites now solved). */
  unlocked: Map<number, number[]>
}

interface Solve extends SolveRecord {
  points: number
  blood: BloodRank | null
  /** The solver's division may score this challenge (GetScore) and take its bloods (GetBlood). */
  readonly scores: boolean
  readonly bloods: boolean
}

interface Chal extends ChallengeRecord {
  acceptedCount: number
  score: number
  /** Board solvers, earliest first (time, then submission id). */
  solvers: Solve[]
  /** The solvers that may take bloods, in the same order. */
  bloodSolvers: Solve[]
  /** Held by at least one board team. */
  onBoard: boolean
}

interface Team extends TeamRecord {
  slot: Map<number, number>
  solves: Map<number, Solve>
  score: number
  last: number
  solved: number
  hintPenalty: number
  rank: number
  divisionRank: number | null
}

const compareSolves = (a: { time: number; submissionId: number }, b: { time: number; submissionId: number }): number =>
  a.time !== b.time ? a.time - b.time : a.submissionId - b.submissionId

/** A settled solve carrying a higher counter than the challenge holds: the counter moves, whatever happens to the solve. */
const raisesCounter = (c: Chal, s: SolveData): boolean => s.acceptedCount !== undefined && s.acceptedCount > c.acceptedCount

/** Ranking order: score descending, last submission ascending, team id ascending. */
function compareTeams(a: Team, b: Team): number {
  if (a.score !== b.score) return b.score - a.score
  if (a.last !== b.last) return a.last - b.last
  return a.data.teamId - b.data.teamId
}

/** First index whose element does not sort before `probe`. */
function lowerBound<T>(list: T[], probe: T, cmp: (a: T, b: T) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cmp(list[mid]!, probe) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Insert into a list sorted by `compareSolves` (at the end when it is the latest, as in time order). */
function insertSorted(list: Solve[], solve: Solve): void {
  const tail = list[list.length - 1]
  if (!tail || compareSolves(tail, solve) < 0) list.push(solve)
  else list.splice(lowerBound(list, solve, compareSolves), 0, solve)
}

export class ScoreboardEngine {
  readonly game: GameMeta
  private readonly chals = new Map<number, Chal>()
  private readonly teams = new Map<number, Team>()
  /** Participation id → held challenges its division may not view (no cells, docs/scoring.md#divisions). */
  private readonly hidden = new Map<number, Set<number>>()
  /** Board teams in rank order. */
  private order: Team[] = []
  /** Board challenges by tag, ascending ids. */
  private readonly byTag = new Map<ChallengeTag, Chal[]>()
  private dirty = true
  /** Cells and challenges changed since the last `takeChanges()`. */
  private changedCells = new Map<TeamRecord, Set<number>>()
  private changedChallenges = new Set<ChallengeRecord>()
  private changedPenalties = new Set<TeamRecord>()
  /** Ids of the hint unlocks folded in. */
  private readonly unlocks = new Set<number>()
  /** Challenge id → the board challenges that require it. */
  private readonly dependents = new Map<number, number[]>()
  private unlockedNow = new Map<number, number[]>()
  /** Point deltas to commit in `reorder` (kept apart so the old key still finds the team in `order`). */
  private readonly pendingDelta = new Map<Team, number>()
  /** New `last` values to commit in `reorder`. */
  private readonly pendingLast = new Map<Team, number>()

  readonly permissions: DivisionPermissions

  private constructor(game: GameMeta) {
    this.game = game
    this.permissions = new DivisionPermissions(game.divisions)
  }

  private newSolve(s: SolveData, team: TeamData): Solve {
    return {
      participationId: s.participationId,
      challengeId: s.challengeId,
      submissionId: s.submissionId,
      time: s.time,
      userName: s.userName ?? null,
      points: 0,
      blood: null,
      scores: this.permissions.may(team.divisionId, 'GetScore', s.challengeId),
      bloods: this.permissions.may(team.divisionId, 'GetBlood', s.challengeId),
    }
  }

  /** The full rebuild. */
  static build(data: GameData): ScoreboardEngine {
    const state = new ScoreboardEngine({ ...data.game, divisions: [...data.game.divisions].sort((a, b) => a.id - b.id) })
    for (const c of data.challenges) {
      state.chals.set(c.id, {
        data: c,
        acceptedCount: c.acceptedCount,
        score: challengeScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount),
        solvers: [],
        bloodSolvers: [],
        onBoard: false,
      })
    }
    for (const c of data.challenges) {
      for (const p of c.prerequisites ?? []) {
        if (!state.chals.has(p) || p === c.id) continue
        const list = state.dependents.get(p)
        if (list) list.push(c.id)
        else state.dependents.set(p, [c.id])
      }
    }
    const layout = data.layout ?? ScoreboardEngine.layout(data)
    for (const t of data.teams) {
      const { cids, slot, hidden } = layout.get(t.participationId)!
      if (hidden) state.hidden.set(t.participationId, hidden)
      if (cids.length === 0) continue
      const team: Team = {
        data: t,
        cids,
        slot,
        solves: new Map(),
        score: 0,
        last: state.game.start,
        solved: 0,
        hintPenalty: 0,
        rank: 0,
        divisionRank: null,
      }
      state.teams.set(t.participationId, team)
      for (const id of cids) state.chals.get(id)!.onBoard = true
    }
    // Solves in the order given (time order when replayed), so the challenges' lists below need little sorting.
    const given: Solve[] = []
    for (const s of data.solves) {
      if (s.time >= state.game.end) continue
      const team = state.teams.get(s.participationId)
      if (!team || !team.slot.has(s.challengeId)) continue
      const existing = team.solves.get(s.challengeId)
      if (existing && compareSolves(existing, s) <= 0) continue
      const solve = state.newSolve(s, team.data)
      team.solves.set(s.challengeId, solve)
      given.push(solve)
    }
    for (const solve of given) {
      // A solve replaced by an earlier one of the same pair is not counted.
      if (state.teams.get(solve.participationId)!.solves.get(solve.challengeId) === solve) state.chals.get(solve.challengeId)!.solvers.push(solve)
    }
    for (const c of state.chals.values()) {
      c.solvers.sort(compareSolves)
      c.bloodSolvers = c.solvers.filter((s) => s.bloods)
      c.bloodSolvers.forEach((solve, i) => {
        solve.blood = i < 3 ? (i as BloodRank) : null
      })
      for (const solve of c.solvers) solve.points = solve.scores ? solveScore(c.score, solve.blood, state.game.bloodBonus) : 0
    }
    for (const u of data.unlocks ?? []) {
      const team = state.unlockTeam(u)
      if (!team) continue
      state.unlocks.add(u.unlockId)
      team.hintPenalty += u.cost
    }
    for (const team of state.teams.values()) {
      team.score -= team.hintPenalty
      for (const solve of team.solves.values()) {
        team.score += solve.points
        if (solve.time > team.last) team.last = solve.time
      }
      team.solved = team.solves.size
      state.order.push(team)
    }
    state.order.sort(compareTeams)
    for (const tag of ChallengeTag) {
      const list = [...state.chals.values()].filter((c) => c.onBoard && c.data.tag === tag).sort((a, b) => a.data.id - b.data.id)
      if (list.length > 0) state.byTag.set(tag, list)
    }
    return state
  }

  /** The teams' cells (see `GameData.layout`). */
  static layout(data: Pick<GameData, 'game' | 'challenges' | 'teams' | 'instances'>): BoardLayout {
    const may = new DivisionPermissions(data.game.divisions)
    const enabled = new Set(data.challenges.map((c) => c.id))
    // Teams with the same cells share one `cids` array and slot map (the board renders a row of unsolved cells once per array).
    const interned = new Map<string, { cids: number[]; slot: Map<number, number> }>()
    const layout = new Map<number, { cids: number[]; slot: Map<number, number>; hidden: Set<number> | null }>()
    for (const t of data.teams) {
      const held = [...new Set(data.instances.get(t.participationId) ?? [])].filter((id) => enabled.has(id))
      const visible = held.filter((id) => may.may(t.divisionId, 'ViewChallenge', id)).sort((a, b) => a - b)
      const key = visible.join(',')
      let cells = interned.get(key)
      if (!cells) interned.set(key, (cells = { cids: visible, slot: new Map(visible.map((id, i) => [id, i])) }))
      const hidden = cells.cids.length < held.length ? new Set(held.filter((id) => !cells.cids.includes(id))) : null
      layout.set(t.participationId, { ...cells, hidden })
    }
    return layout
  }

  /** Whether something changed since the last `takeChanges()`. */
  get changed(): boolean {
    return this.dirty
  }

  /** Fold one settled Accepted submission in. Idempotent: a solve already known (or a later one of the same pair) changes nothing. */
  applySolve(s: SolveData): ApplyResult {
    if (s.time >= this.game.end) return 'ignored'
    const c = this.chals.get(s.challengeId)
    if (!c) return s.board ? 'unknown' : 'ignored'
    const team = this.teams.get(s.participationId)
    const changed = new Set<Team>()
    if (!team || !team.slot.has(c.data.id)) {
      // Not on the board (suspended team, no instance): only the challenge's counter may move.
      const moved = raisesCounter(c, s)
      if (moved) this.setAcceptedCount(c, s.acceptedCount!, changed)
      this.reorder(changed)
      // A board team whose division may not view the challenge has no cell for it: nothing unknown.
      if (s.board && !this.hidden.get(s.participationId)?.has(c.data.id)) return 'unknown'
      return moved ? 'applied' : 'ignored'
    }
    const existing = team.solves.get(c.data.id)
    if (existing && compareSolves(existing, s) <= 0) {
      if (raisesCounter(c, s)) {
        this.setAcceptedCount(c, s.acceptedCount!, changed)
        this.reorder(changed)
        return 'applied'
      }
      return 'ignored'
    }
    const { solve, count } = this.placeSolve(c, team, s, existing, changed)
    if (!this.setAcceptedCount(c, count, changed)) {
      // Same base score: only the new solve, the blood holders and the one pushed out of the bloods can change.
      for (let i = 0; i < Math.min(4, c.bloodSolvers.length); i++) this.rescore(c, c.bloodSolvers[i]!, i < 3 ? (i as BloodRank) : null, changed)
      if (!solve.bloods || c.bloodSolvers.indexOf(solve) >= 4) this.rescore(c, solve, null, changed)
    }
    this.changedChallenges.add(c)
    if (!existing) this.noteUnlocks(team, c.data.id)
    // The solver's totals: a replaced solve may have been its latest.
    this.pendingLast.set(team, existing ? this.latestOf(team) : Math.max(team.last, solve.time))
    this.reorder(changed)
    return 'applied'
  }

  /**
   * Fold a batch of counted solves in at once (a replay's seek forward, docs/scoring.md#replay):
   * the same state as `applySolve` of each in turn, but each challenge a solve touched is re-scored
   * once, after the whole batch, and the ranking is re-sorted once. Unlike `applySolve` it does not
   * report pairs it does not know (a replay's state knows every board pair).
   */
  foldSolves(solves: readonly SolveData[]): void {
    const changed = new Set<Team>()
    const touched = new Set<Chal>()
    for (const s of solves) {
      if (s.time >= this.game.end) continue
      const c = this.chals.get(s.challengeId)
      if (!c) continue
      const team = this.teams.get(s.participationId)
      const onBoard = team !== undefined && team.slot.has(c.data.id)
      const existing = onBoard ? team.solves.get(c.data.id) : undefined
      // Not on the board, or no earlier than the solve held: only the counter may move.
      if (!onBoard || (existing && compareSolves(existing, s) <= 0)) {
        if (raisesCounter(c, s)) {
          c.acceptedCount = s.acceptedCount!
          touched.add(c)
        }
        continue
      }
      const { solve, count } = this.placeSolve(c, team, s, existing, changed)
      c.acceptedCount = count
      touched.add(c)
      if (!existing) this.noteUnlocks(team, c.data.id)
      const last = this.pendingLast.get(team) ?? team.last
      this.pendingLast.set(team, existing ? this.latestOf(team) : Math.max(last, solve.time))
    }
    for (const c of touched) this.rescoreAll(c, changed)
    this.reorder(changed)
  }

  /**
   * Take the latest counted solves out again (a replay's seek back, docs/scoring.md#replay), newest
   * first, each with the challenge's counter before it: the state is then the one that held only the
   * solves before them. A solve the state does not hold only sets the counter.
   */
  unfoldSolves(solves: readonly UnfoldSolve[]): void {
    const changed = new Set<Team>()
    const touched = new Set<Chal>()
    const shortened = new Set<Team>()
    for (const s of solves) {
      if (s.time >= this.game.end) continue
      const c = this.chals.get(s.challengeId)
      if (!c) continue
      if (c.acceptedCount !== s.countBefore) {
        c.acceptedCount = s.countBefore
        touched.add(c)
      }
      const team = this.teams.get(s.participationId)
      const held = team?.solves.get(c.data.id)
      if (!team || !held || held.submissionId !== s.submissionId) continue
      c.solvers.splice(lowerBound(c.solvers, held, compareSolves), 1)
      if (held.bloods) c.bloodSolvers.splice(lowerBound(c.bloodSolvers, held, compareSolves), 1)
      team.solves.delete(c.data.id)
      this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) - held.points)
      changed.add(team)
      shortened.add(team)
      touched.add(c)
      this.markSlot(team, c.data.id)
    }
    for (const team of shortened) this.pendingLast.set(team, this.latestOf(team))
    for (const c of touched) this.rescoreAll(c, changed)
    this.reorder(changed)
  }

  /** Take a folded costed hint unlock out again (a replay's seek back); `ignored` when it was not folded in. */
  unfoldHintUnlock(u: HintUnlockData): ApplyResult {
    if (!this.unlocks.delete(u.unlockId)) return 'ignored'
    const team = this.teams.get(u.participationId)
    if (!team || u.cost === 0) return 'ignored'
    team.hintPenalty -= u.cost
    this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) + u.cost)
    this.changedPenalties.add(team)
    this.reorder(new Set([team]))
    return 'applied'
  }

  /**
   * Put a team's counted solve of `c` in its lists, in place of `existing` (an earlier submission of
   * the same pair that arrived late replaces the known one); returns it and the challenge's counter
   * after it. Points and totals are left to the caller's re-scoring.
   */
  private placeSolve(c: Chal, team: Team, s: SolveData, existing: Solve | undefined, changed: Set<Team>): { solve: Solve; count: number } {
    if (existing) {
      c.solvers.splice(lowerBound(c.solvers, existing, compareSolves), 1)
      if (existing.bloods) c.bloodSolvers.splice(lowerBound(c.bloodSolvers, existing, compareSolves), 1)
      this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) - existing.points)
    }
    const solve = this.newSolve(s, team.data)
    insertSorted(c.solvers, solve)
    if (solve.bloods) insertSorted(c.bloodSolvers, solve)
    team.solves.set(c.data.id, solve)
    changed.add(team)
    this.markSlot(team, c.data.id)
    // Without the checker's counter, this solve counts when its division affects the dynamic score.
    const affects = this.permissions.may(team.data.divisionId, 'AffectDynamicScore', c.data.id)
    const count = s.acceptedCount !== undefined ? Math.max(c.acceptedCount, s.acceptedCount) : existing || !affects ? c.acceptedCount : c.acceptedCount + 1
    return { solve, count }
  }

  /** Re-score every solver of a challenge from its counter and its blood order (after a batch). */
  private rescoreAll(c: Chal, changed: Set<Team>): void {
    c.score = challengeScore(c.data.originalScore, c.data.minScoreRate, c.data.difficulty, c.acceptedCount)
    this.changedChallenges.add(c)
    this.dirty = true
    c.bloodSolvers.forEach((solve, i) => this.rescore(c, solve, i < 3 ? (i as BloodRank) : null, changed))
    for (const solve of c.solvers) if (!solve.bloods) this.rescore(c, solve, null, changed)
  }

  /**
   * Fold one costed hint unlock in: its cost comes off the team's score. Idempotent by unlock id;
   * `ignored` when the team has no cell for the challenge, or after the end.
   */
  applyHintUnlock(u: HintUnlockData): ApplyResult {
    const team = this.unlockTeam(u)
    if (!team) return 'ignored'
    this.unlocks.add(u.unlockId)
    if (u.cost === 0) return 'ignored'
    team.hintPenalty += u.cost
    this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) - u.cost)
    this.changedPenalties.add(team)
    this.reorder(new Set([team]))
    return 'applied'
  }

  /** The board team an unlock counts for, or null (already folded in, after the end, no cell). */
  private unlockTeam(u: HintUnlockData): Team | null {
    if (this.unlocks.has(u.unlockId) || u.time >= this.game.end) return null
    const team = this.teams.get(u.participationId)
    return team && team.slot.has(u.challengeId) ? team : null
  }

  /** The challenges this team's new solve of `challengeId` unlocked: held, and every enabled prerequisite solved. */
  private noteUnlocks(team: Team, challengeId: number): void {
    for (const d of this.dependents.get(challengeId) ?? []) {
      if (!team.slot.has(d)) continue
      const prerequisites = this.chals.get(d)!.data.prerequisites ?? []
      if (!prerequisites.every((p) => !this.chals.has(p) || team.solves.has(p))) continue
      const list = this.unlockedNow.get(team.data.participationId)
      if (list) list.push(d)
      else this.unlockedNow.set(team.data.participationId, [d])
    }
  }

  private latestOf(team: Team): number {
    let last = this.game.start
    for (const solve of team.solves.values()) if (solve.time > last) last = solve.time
    return last
  }

  /** Set a challenge's counter; when its current score moves, re-score every solver. Returns whether the score moved. */
  private setAcceptedCount(c: Chal, count: number, changed: Set<Team>): boolean {
    if (count !== c.acceptedCount) {
      c.acceptedCount = count
      this.changedChallenges.add(c)
      this.dirty = true
    }
    const score = challengeScore(c.data.originalScore, c.data.minScoreRate, c.data.difficulty, count)
    if (score === c.score) return false
    c.score = score
    c.bloodSolvers.forEach((solve, i) => this.rescore(c, solve, i < 3 ? (i as BloodRank) : null, changed))
    for (const solve of c.solvers) if (!solve.bloods) this.rescore(c, solve, null, changed)
    return true
  }

  private rescore(c: Chal, solve: Solve, blood: BloodRank | null, changed: Set<Team>): void {
    const points = solve.scores ? solveScore(c.score, blood, this.game.bloodBonus) : 0
    if (points === solve.points && blood === solve.blood) return
    const team = this.teams.get(solve.participationId)!
    this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) + points - solve.points)
    solve.points = points
    solve.blood = blood
    changed.add(team)
    this.markSlot(team, c.data.id)
  }

  private markSlot(team: Team, challengeId: number): void {
    const slot = team.slot.get(challengeId)!
    let slots = this.changedCells.get(team)
    if (!slots) this.changedCells.set(team, (slots = new Set()))
    slots.add(slot)
  }

  /** Commit pending totals and move the changed teams to their new places. */
  private reorder(changed: Set<Team>): void {
    if (changed.size === 0) {
      this.pendingDelta.clear()
      this.pendingLast.clear()
      return
    }
    this.dirty = true
    const commit = (team: Team) => {
      team.score += this.pendingDelta.get(team) ?? 0
      const last = this.pendingLast.get(team)
      if (last !== undefined) team.last = last
      team.solved = team.solves.size
    }
    if (changed.size * 8 > this.order.length) {
      for (const team of changed) commit(team)
      this.order.sort(compareTeams) // nearly sorted: TimSort runs in close to linear time
    } else {
      for (const team of changed) this.order.splice(lowerBound(this.order, team, compareTeams), 1)
      for (const team of changed) {
        commit(team)
        this.order.splice(lowerBound(this.order, team, compareTeams), 0, team)
      }
    }
    this.pendingDelta.clear()
    this.pendingLast.clear()
  }

  /**
   * The board teams in rank order, with `rank` (0 for teams of divisions not ranked overall) and
   * `divisionRank` brought up to date.
   */
  ranking(): readonly TeamRecord[] {
    const divisionCounters = new Map<number, number>()
    let overall = 0
    for (const team of this.order) {
      const division = team.data.divisionId
      team.rank = this.permissions.may(division, 'RankOverall') ? ++overall : 0
      if (division === null) team.divisionRank = null
      else {
        const rank = (divisionCounters.get(division) ?? 0) + 1
        divisionCounters.set(division, rank)
        team.divisionRank = rank
      }
    }
    return this.order
  }

  /** The board challenges by tag (tags in their enum order, ids ascending). */
  boardChallenges(): ReadonlyMap<ChallengeTag, readonly ChallengeRecord[]> {
    return this.byTag
  }

  /** The first three board solvers of a challenge that may take bloods. */
  bloods(challenge: ChallengeRecord): BloodRecord[] {
    return (challenge as Chal).bloodSolvers.slice(0, 3).map((s) => ({ team: this.teams.get(s.participationId)!.data, time: s.time }))
  }

  /** A team's solves in time order, ties by challenge id — the order clients rebuild timelines in (shared/src/scoreboardDelta.ts). */
  solvesInTimeOrder(team: TeamRecord): SolveRecord[] {
    return [...team.solves.values()].sort((a, b) => a.time - b.time || a.challengeId - b.challengeId)
  }

  /** The cells and challenges that changed since the last call (everything is new to a first reader); clears `changed`. */
  takeChanges(): Changes {
    const changes: Changes = { cells: this.changedCells, challenges: this.changedChallenges, penalties: this.changedPenalties, unlocked: this.unlockedNow }
    this.unlockedNow = new Map()
    this.changedCells = new Map()
    this.changedChallenges = new Set()
    this.changedPenalties = new Set()
    this.dirty = false
    return changes
  }
}
