/**
 * The incremental scoreboard of one game (DESIGN §6, CONTRACT §4.9 + §7.6), pure and in memory.
 *
 * `ScoreboardState.build(data)` is the full rebuild from what `load.ts` read in one pass;
 * `applySolve()` folds one counted solve in, touching only the teams whose points change — the
 * solver, the up to three blood holders whose rank shifts, and, when the challenge's current score
 * moved, every solver of that challenge — and re-places them in the ranking with binary searches
 * (O(changed · log teams) comparisons). `snapshot()` renders the contract's ScoreboardModel and its
 * JSON, re-serialising only the rows and challenge items that changed since the last snapshot.
 *
 * Rules (§7.6): only the earliest `Accepted` submission before the game end per team and challenge
 * counts; the board lists accepted teams that hold an instance of an enabled challenge, one
 * ChallengeItem per such instance; a challenge's current score follows its `acceptedCount`; the
 * first three solvers on the board get the blood factor (round half to even); ranking is score
 * descending, then last submission ascending (then team id, so the order is deterministic).
 *
 * Snapshots are immutable: a row or item that changes gets a new object, unchanged ones are
 * shared between versions, so a caller may keep an old `model` while the state moves on.
 */
import { ChallengeTag } from '@flagwave/shared/enums'
import type { ChallengeInfo, ChallengeItem, ChallengesByTag, ScoreboardItem, ScoreboardModel, TopTimeLine } from '@flagwave/shared/schemas/scoreboard'
import { challengeScore, solveScore, type BloodRank } from '@flagwave/shared/scoring'
import { toWireDate } from '@flagwave/shared/format'
import { avatarUrl } from '../../lib/assetUrls.js'
import { presentBlood, presentChallengeItem, presentTimeline } from '../../presenters/scoreboard.js'

export interface GameMeta {
  id: number
  /** Epoch milliseconds. */
  start: number
  end: number
  bloodBonus: number
  /** The organizations the game lists (one timeline per organization), or null. */
  organizations: string[] | null
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
}

/** An accepted participation. */
export interface TeamData {
  participationId: number
  teamId: number
  name: string
  bio: string | null
  avatarHash: string | null
  organization: string | null
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

export interface GameData {
  game: GameMeta
  challenges: ChallengeData[]
  teams: TeamData[]
  /** Participation id → ids of the enabled challenges it holds an instance of. */
  instances: Map<number, number[]>
  /** Accepted submissions (any order; later ones of a pair and ones after the end are ignored). */
  solves: SolveData[]
}

/** What `applySolve` did: `unknown` means the pair belongs on the board but the state does not know it (rebuild). */
export type ApplyResult = 'applied' | 'ignored' | 'unknown'

export interface Snapshot {
  model: ScoreboardModel
  json: string
  /**
   * Per team, the cells whose solve, blood type or solver changed since the previous snapshot
   * (the `items` of a ScoreboardDelta); null for the first snapshot of a state, which has no
   * previous one to differ from.
   */
  changedCells: { id: number; challenges: ChallengeItem[] }[] | null
  /** Every challenge on the board with its serialised info, for change detection. */
  challenges: { info: ChallengeInfo; json: string }[]
}

interface Solve {
  participationId: number
  challengeId: number
  submissionId: number
  time: number
  userName: string | null
  /** Points this solve is currently worth (blood bonus included). */
  points: number
  blood: BloodRank | null
}

interface Chal {
  data: ChallengeData
  acceptedCount: number
  score: number
  /** Board solvers, earliest first (time, then submission id). */
  solvers: Solve[]
  /** Held by at least one board team. */
  onBoard: boolean
  infoDirty: boolean
  info: ChallengeInfo | null
  infoJson: string
}

interface Team {
  data: TeamData
  /** Held challenge ids, ascending: the order of the row's `challenges`. */
  cids: number[]
  slot: Map<number, number>
  solves: Map<number, Solve>
  score: number
  last: number
  solved: number
  rank: number
  orgRank: number | null
  itemObjs: ChallengeItem[]
  itemStrs: string[]
  /** Slots whose ChallengeItem must be re-rendered. */
  dirtySlots: Set<number> | null
  rowDirty: boolean
  row: ScoreboardItem | null
  rowJson: string
  challengesJson: string
}

const newSolve = (s: SolveData): Solve => ({
  participationId: s.participationId,
  challengeId: s.challengeId,
  submissionId: s.submissionId,
  time: s.time,
  userName: s.userName ?? null,
  points: 0,
  blood: null,
})

const compareSolves = (a: { time: number; submissionId: number }, b: { time: number; submissionId: number }): number =>
  a.time !== b.time ? a.time - b.time : a.submissionId - b.submissionId

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

export class ScoreboardState {
  readonly game: GameMeta
  private readonly chals = new Map<number, Chal>()
  private readonly teams = new Map<number, Team>()
  /** Board teams in rank order. */
  private order: Team[] = []
  /** Board challenges by tag, ascending ids. */
  private readonly byTag = new Map<ChallengeTag, Chal[]>()
  private dirty = true
  /** No snapshot taken yet: the next one cannot be described as a difference. */
  private fresh = true
  /** Cells changed (beyond their score) since the last snapshot, per team. */
  private cellChanges = new Map<Team, ChallengeItem[]>()
  /** Point deltas to commit in `reorder` (kept apart so the old key still finds the team in `order`). */
  private readonly pendingDelta = new Map<Team, number>()
  /** New `last` values to commit in `reorder`. */
  private readonly pendingLast = new Map<Team, number>()

  private constructor(game: GameMeta) {
    this.game = game
  }

  /** The full rebuild. */
  static build(data: GameData): ScoreboardState {
    const state = new ScoreboardState({ ...data.game, organizations: data.game.organizations?.length ? [...data.game.organizations] : null })
    for (const c of data.challenges) {
      state.chals.set(c.id, {
        data: c,
        acceptedCount: c.acceptedCount,
        score: challengeScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount),
        solvers: [],
        onBoard: false,
        infoDirty: true,
        info: null,
        infoJson: '',
      })
    }
    for (const t of data.teams) {
      const cids = [...new Set(data.instances.get(t.participationId) ?? [])].filter((id) => state.chals.has(id)).sort((a, b) => a - b)
      if (cids.length === 0) continue
      const team: Team = {
        data: t,
        cids,
        slot: new Map(cids.map((id, i) => [id, i])),
        solves: new Map(),
        score: 0,
        last: state.game.start,
        solved: 0,
        rank: 0,
        orgRank: null,
        itemObjs: [],
        itemStrs: [],
        dirtySlots: null,
        rowDirty: true,
        row: null,
        rowJson: '',
        challengesJson: '',
      }
      state.teams.set(t.participationId, team)
      for (const id of cids) state.chals.get(id)!.onBoard = true
    }
    for (const s of data.solves) {
      if (s.time >= state.game.end) continue
      const team = state.teams.get(s.participationId)
      if (!team || !team.slot.has(s.challengeId)) continue
      const existing = team.solves.get(s.challengeId)
      if (existing && compareSolves(existing, s) <= 0) continue
      team.solves.set(s.challengeId, newSolve(s))
    }
    for (const team of state.teams.values()) {
      for (const solve of team.solves.values()) state.chals.get(solve.challengeId)!.solvers.push(solve)
    }
    for (const c of state.chals.values()) {
      c.solvers.sort(compareSolves)
      c.solvers.forEach((solve, i) => {
        solve.blood = i < 3 ? (i as BloodRank) : null
        solve.points = solveScore(c.score, solve.blood, state.game.bloodBonus)
      })
    }
    for (const team of state.teams.values()) {
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

  /** Whether something changed since the last snapshot. */
  get changed(): boolean {
    return this.dirty
  }

  /** Number of counted solves on the board. */
  get solveCount(): number {
    let n = 0
    for (const c of this.chals.values()) n += c.solvers.length
    return n
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
      const moved = s.acceptedCount !== undefined && s.acceptedCount > c.acceptedCount
      if (moved) this.setAcceptedCount(c, s.acceptedCount!, changed)
      this.reorder(changed)
      if (s.board) return 'unknown'
      return moved ? 'applied' : 'ignored'
    }
    const existing = team.solves.get(c.data.id)
    if (existing && compareSolves(existing, s) <= 0) {
      if (s.acceptedCount !== undefined && s.acceptedCount > c.acceptedCount) {
        this.setAcceptedCount(c, s.acceptedCount, changed)
        this.reorder(changed)
        return 'applied'
      }
      return 'ignored'
    }
    if (existing) {
      // An earlier submission of the same pair arrived late: it replaces the known one.
      c.solvers.splice(lowerBound(c.solvers, existing, compareSolves), 1)
      this.pendingDelta.set(team, (this.pendingDelta.get(team) ?? 0) - existing.points)
    }
    const solve = newSolve(s)
    const at = lowerBound(c.solvers, solve, compareSolves)
    c.solvers.splice(at, 0, solve)
    team.solves.set(c.data.id, solve)
    changed.add(team)
    this.markSlot(team, c.data.id)
    const count = s.acceptedCount !== undefined ? Math.max(c.acceptedCount, s.acceptedCount) : existing ? c.acceptedCount : c.acceptedCount + 1
    if (!this.setAcceptedCount(c, count, changed)) {
      // Same base score: only the new solve, the blood holders and the one pushed out of the bloods can change.
      for (let i = 0; i < Math.min(4, c.solvers.length); i++) this.rescore(c, i, changed)
      if (at >= 4) this.rescore(c, at, changed)
    }
    c.infoDirty = true
    // The solver's totals: a replaced solve may have been its latest.
    this.pendingLast.set(team, existing ? this.latestOf(team) : Math.max(team.last, solve.time))
    this.reorder(changed)
    return 'applied'
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
      c.infoDirty = true
      this.dirty = true
    }
    const score = challengeScore(c.data.originalScore, c.data.minScoreRate, c.data.difficulty, count)
    if (score === c.score) return false
    c.score = score
    for (let i = 0; i < c.solvers.length; i++) this.rescore(c, i, changed)
    return true
  }

  private rescore(c: Chal, index: number, changed: Set<Team>): void {
    const solve = c.solvers[index]!
    const blood = index < 3 ? (index as BloodRank) : null
    const points = solveScore(c.score, blood, this.game.bloodBonus)
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
    if (team.dirtySlots === null) team.dirtySlots = new Set()
    team.dirtySlots.add(slot)
    team.rowDirty = true
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
      team.rowDirty = true
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

  /** Render the contract's ScoreboardModel (and its JSON) at `now`. */
  snapshot(now: number = Date.now()): Snapshot {
    const items: ScoreboardItem[] = new Array(this.order.length)
    const rowJsons: string[] = new Array(this.order.length)
    const orgCounters = new Map<string, number>()
    this.order.forEach((team, index) => {
      const rank = index + 1
      let orgRank: number | null = null
      if (team.data.organization !== null) {
        orgRank = (orgCounters.get(team.data.organization) ?? 0) + 1
        orgCounters.set(team.data.organization, orgRank)
      }
      if (team.row === null || team.dirtySlots !== null) this.renderItems(team)
      if (team.rowDirty || team.rank !== rank || team.orgRank !== orgRank || team.row === null) {
        team.rank = rank
        team.orgRank = orgRank
        const head: Omit<ScoreboardItem, 'challenges'> = {
          id: team.data.teamId,
          name: team.data.name,
          bio: team.data.bio ?? null,
          organization: team.data.organization ?? null,
          avatar: avatarUrl(team.data.avatarHash),
          score: team.score,
          rank,
          organizationRank: orgRank,
          solvedCount: team.solved,
          lastSubmissionTime: toWireDate(team.last),
        }
        team.row = { ...head, challenges: team.itemObjs.slice() }
        team.rowJson = `${JSON.stringify(head).slice(0, -1)},"challenges":${team.challengesJson}}`
        team.rowDirty = false
      }
      items[index] = team.row
      rowJsons[index] = team.rowJson
    })

    const challenges: ChallengesByTag = {}
    const challengeParts: string[] = []
    const infos: Snapshot['challenges'] = []
    for (const [tag, list] of this.byTag) {
      const parts: string[] = []
      challenges[tag] = list.map((c) => {
        if (c.infoDirty || c.info === null) {
          c.info = {
            id: c.data.id,
            title: c.data.title,
            tag: c.data.tag,
            score: c.score,
            solved: c.acceptedCount,
            bloods: c.solvers.slice(0, 3).map((s) => presentBlood(this.teams.get(s.participationId)!.data, s.time)),
          }
          c.infoJson = JSON.stringify(c.info)
          c.infoDirty = false
        }
        parts.push(c.infoJson)
        infos.push({ info: c.info, json: c.infoJson })
        return c.info
      })
      challengeParts.push(`${JSON.stringify(tag)}:[${parts.join(',')}]`)
    }

    const timeLines: Record<string, TopTimeLine[]> = { all: this.order.slice(0, 10).map((t) => this.timeline(t)) }
    const orgs = this.game.organizations
    if (orgs) {
      const wanted = new Map<string, TopTimeLine[]>(orgs.map((o) => [o, []]))
      for (const team of this.order) {
        const list = team.data.organization !== null ? wanted.get(team.data.organization) : undefined
        if (list && list.length < 10) list.push(this.timeline(team))
      }
      for (const [org, list] of wanted) timeLines[org] = list
    }

    const updateTimeUTC = toWireDate(now)
    const model: ScoreboardModel = { updateTimeUTC, bloodBonus: this.game.bloodBonus, timeLines, items, challenges }
    const json =
      `{"updateTimeUTC":${JSON.stringify(updateTimeUTC)},"bloodBonus":${this.game.bloodBonus},"timeLines":${JSON.stringify(timeLines)},` +
      `"items":[${rowJsons.join(',')}],"challenges":{${challengeParts.join(',')}}}`
    const changedCells = this.fresh ? null : [...this.cellChanges].map(([team, cells]) => ({ id: team.data.teamId, challenges: cells }))
    this.cellChanges.clear()
    this.fresh = false
    this.dirty = false
    return { model, json, changedCells, challenges: infos }
  }

  private renderItems(team: Team): void {
    const all = team.row === null || team.dirtySlots === null
    const slots = all ? team.cids.map((_, i) => i) : [...team.dirtySlots!]
    if (team.itemObjs.length !== team.cids.length) {
      team.itemObjs = new Array(team.cids.length)
      team.itemStrs = new Array(team.cids.length)
    }
    for (const slot of slots) {
      const id = team.cids[slot]!
      const item = presentChallengeItem(id, team.solves.get(id))
      const before = team.itemObjs[slot]
      if (!all && before && (before.type !== item.type || before.userName !== item.userName || before.time !== item.time)) {
        let cells = this.cellChanges.get(team)
        if (!cells) this.cellChanges.set(team, (cells = []))
        cells.push(item)
      }
      team.itemObjs[slot] = item
      team.itemStrs[slot] = JSON.stringify(item)
    }
    team.challengesJson = `[${team.itemStrs.join(',')}]`
    team.dirtySlots = null
    team.rowDirty = true
  }

  /** Solves in time order, ties by challenge id — the order clients rebuild timelines in (shared/src/scoreboardDelta.ts). */
  private timeline(team: Team): TopTimeLine {
    return presentTimeline(team.data, [...team.solves.values()].sort((a, b) => a.time - b.time || a.challengeId - b.challengeId))
  }
}
