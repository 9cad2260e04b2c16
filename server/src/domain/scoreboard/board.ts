/**
 * The board of one game: the engine's state (engine.ts) and its wire form, the contract's
 * ScoreboardModel and its JSON. A read model: `snapshot()` re-renders and
 * re-serialises only the rows, cells and challenges the engine reports changed since the last
 * snapshot, and keeps the serialised pieces of the others.
 *
 * Snapshots are immutable: a row or item that changes gets a new object, unchanged ones are
 * shared between versions, so a caller may keep an old `model` while the state moves on. A
 * JSON-only state (a replay's, `StateOptions.jsonOnly`) keeps no model and changes its rows' pieces
 * in place; its snapshots' JSON strings are immutable all the same.
 */
import type { ChallengeInfo, ChallengeItem, ChallengesByTag, ScoreboardDivision, ScoreboardItem, ScoreboardModel, TopTimeLine } from '@flagwave/shared/schemas/scoreboard'
import { toWireDate } from '@flagwave/shared/format'
import { presentChallengeInfo, presentChallengeItem, presentRowHead, presentScoreboardDivision, presentTimeline } from '../../presenters/scoreboard.js'
import { ScoreboardEngine, type ApplyResult, type ChallengeRecord, type GameData, type GameMeta, type HintUnlockData, type SolveData, type TeamRecord, type UnfoldSolve } from './engine.js'

/** Per team, cells that changed (and its hint deductions when they did): the `items` of a ScoreboardDelta. */
type CellChanges = { id: number; challenges: ChallengeItem[]; hintPenalty?: number }[]

export interface Snapshot {
  model: ScoreboardModel
  json: string
  /**
   * Per team, the cells whose solve, blood type or solver changed since the previous snapshot
   * (the `items` of a ScoreboardDelta); null for the first snapshot of a state, which has no
   * previous one to differ from.
   */
  changedCells: CellChanges | null
  /** Every challenge on the board with its serialised info, for change detection. */
  challenges: { info: ChallengeInfo; json: string }[]
  /** Participation id → challenges unlocked for it by solves since the previous snapshot (docs/challenge-rules.md#prerequisites). */
  unlocked: Map<number, number[]>
}

/** What the last snapshot rendered of a team. */
interface RenderedRow {
  rank: number
  divisionRank: number | null
  items: ChallengeItem[]
  itemJsons: string[]
  challengesJson: string
  row: ScoreboardItem
  json: string
}

/**
 * What the last snapshot of a JSON-only state rendered of a team (see `StateOptions.jsonOnly`): its
 * cells' JSON, kept in place, and joined by chunks of `CHUNK` cells, so a changed cell re-joins only
 * its chunk. `cells` and `chunks` are null while the row is the shared row of unsolved cells.
 */
interface JsonRow {
  rank: number
  divisionRank: number | null
  hintPenalty: number
  cells: string[] | null
  chunks: string[] | null
  challengesJson: string
  json: string
}

/** Cells per chunk of a JSON-only row. */
const CHUNK = 10

export interface StateOptions {
  /**
   * Render the JSON only (a replay's states, docs/scoring.md#replay): no model objects nor cell
   * changes are kept, rows are re-rendered in place, and a snapshot's `model` is parsed from its JSON
   * when read; `changedCells` is always null.
   */
  jsonOnly?: boolean
}

interface RenderedChallenge {
  info: ChallengeInfo
  json: string
}

/**
 * Which board a snapshot is (docs/scoring.md#freeze): the frozen public one, or the live one —
 * `live` when the public board is frozen meanwhile (what staff read) — and the freeze time.
 */
export interface BoardView {
  frozen: boolean
  /** Epoch milliseconds; null without a freeze. */
  freezeTime: number | null
  live: boolean
}

const LIVE_VIEW: BoardView = { frozen: false, freezeTime: null, live: false }

export class ScoreboardState {
  private readonly rows = new Map<TeamRecord, RenderedRow>()
  private readonly jsonRows = new Map<TeamRecord, JsonRow>()
  private readonly infos = new Map<ChallengeRecord, RenderedChallenge>()
  /** Challenge id → its unsolved cell, the same in every row (most cells of a large board). */
  private readonly unsolved = new Map<number, { item: ChallengeItem; json: string }>()
  /** A team's `cids` (shared by teams with the same cells) → its row's cells with none solved. */
  private readonly unsolvedRows = new WeakMap<readonly number[], Pick<RenderedRow, 'items' | 'itemJsons' | 'challengesJson'>>()
  /** No snapshot taken yet: the next one cannot be described as a difference. */
  private fresh = true
  /** Division id → name (v0.17.6's organization). */
  private readonly divisionNames: Map<number, string>
  /** The `divisions` member, serialised once per state (divisions change only by a rebuild). */
  private readonly divisions: ScoreboardDivision[]
  private readonly divisionsJson: string

  private constructor(
    private readonly engine: ScoreboardEngine,
    private readonly jsonOnly = false,
  ) {
    this.divisionNames = new Map(engine.game.divisions.map((d) => [d.id, d.name]))
    this.divisions = engine.game.divisions.map(presentScoreboardDivision)
    this.divisionsJson = JSON.stringify(this.divisions)
  }

  /** The full rebuild. */
  static build(data: GameData, options: StateOptions = {}): ScoreboardState {
    return new ScoreboardState(ScoreboardEngine.build(data), options.jsonOnly ?? false)
  }

  get game(): GameMeta {
    return this.engine.game
  }

  /** Whether something changed since the last snapshot. */
  get changed(): boolean {
    return this.engine.changed
  }

  /** Fold one settled Accepted submission in (see `ScoreboardEngine.applySolve`). */
  applySolve(s: SolveData): ApplyResult {
    return this.engine.applySolve(s)
  }

  /** Fold a batch of solves in, each challenge re-scored once (see `ScoreboardEngine.foldSolves`). */
  foldSolves(solves: readonly SolveData[]): void {
    this.engine.foldSolves(solves)
  }

  /** Take the latest solves out again, newest first (see `ScoreboardEngine.unfoldSolves`). */
  unfoldSolves(solves: readonly UnfoldSolve[]): void {
    this.engine.unfoldSolves(solves)
  }

  /** Take a folded hint unlock out again (see `ScoreboardEngine.unfoldHintUnlock`). */
  unfoldHintUnlock(u: HintUnlockData): ApplyResult {
    return this.engine.unfoldHintUnlock(u)
  }

  /** Fold one costed hint unlock in (see `ScoreboardEngine.applyHintUnlock`). */
  applyHintUnlock(u: HintUnlockData): ApplyResult {
    return this.engine.applyHintUnlock(u)
  }

  /** Render the contract's ScoreboardModel (and its JSON) at `now`. */
  snapshot(now: number = Date.now(), view: BoardView = LIVE_VIEW): Snapshot {
    const changes = this.engine.takeChanges()
    const ranked = this.engine.ranking()
    const items: ScoreboardItem[] = new Array(ranked.length)
    const rowJsons: string[] = new Array(ranked.length)
    const changedCells: CellChanges = []
    for (let index = 0; index < ranked.length; index++) {
      const team = ranked[index]!
      const slots = changes.cells.get(team)
      if (this.jsonOnly) {
        let row = this.jsonRows.get(team)
        if (!row || slots || row.hintPenalty !== team.hintPenalty || row.rank !== team.rank || row.divisionRank !== team.divisionRank) {
          row = this.renderJsonRow(team, row, slots)
          this.jsonRows.set(team, row)
        }
        rowJsons[index] = row.json
        continue
      }
      let rendered = this.rows.get(team)
      if (!rendered || slots || changes.penalties.has(team) || rendered.rank !== team.rank || rendered.divisionRank !== team.divisionRank) {
        rendered = this.renderRow(team, rendered, slots, changedCells)
        this.rows.set(team, rendered)
      }
      items[index] = rendered.row
      rowJsons[index] = rendered.json
    }

    const challenges: ChallengesByTag = {}
    const challengeParts: string[] = []
    const infos: Snapshot['challenges'] = []
    for (const [tag, list] of this.engine.boardChallenges()) {
      const parts: string[] = []
      challenges[tag] = list.map((c) => {
        let rendered = this.infos.get(c)
        if (!rendered || changes.challenges.has(c)) {
          const info = presentChallengeInfo(c.data, c.score, c.acceptedCount, this.engine.bloods(c))
          rendered = { info, json: JSON.stringify(info) }
          this.infos.set(c, rendered)
        }
        parts.push(rendered.json)
        infos.push(rendered)
        return rendered.info
      })
      challengeParts.push(`${JSON.stringify(tag)}:[${parts.join(',')}]`)
    }

    // Top ten overall (teams ranked overall only) and per division (docs/scoring.md#divisions).
    const overall: TopTimeLine[] = []
    const perDivision = new Map<number, TopTimeLine[]>(this.engine.game.divisions.map((d) => [d.id, []]))
    for (const team of ranked) {
      if (team.rank > 0 && overall.length < 10) overall.push(this.timeline(team))
      const list = team.data.divisionId !== null ? perDivision.get(team.data.divisionId) : undefined
      if (list && list.length < 10) list.push(this.timeline(team))
    }
    const timeLines: Record<string, TopTimeLine[]> = { all: overall }
    for (const [id, list] of perDivision) timeLines[this.divisionNames.get(id)!] = list
    // The newer GZ::CTF members follow the v0.17.6 ones (docs/compatibility.md#newer-gzctf-versions):
    // the same time and timelines by division id (0 = overall), the divisions.
    const timelines = [{ divisionId: 0, teams: overall }, ...[...perDivision].map(([divisionId, teams]) => ({ divisionId, teams }))]

    const { bloodBonus } = this.engine.game
    const updateTimeUTC = toWireDate(now)
    const modelItems = this.jsonOnly ? [] : items
    const model: ScoreboardModel = {
      updateTimeUTC,
      bloodBonus,
      timeLines,
      items: modelItems,
      challenges,
      updateTimeUtc: updateTimeUTC,
      timelines,
      challengeCount: infos.length,
      divisions: this.divisions,
      frozen: view.frozen,
      freezeTime: view.freezeTime === null ? null : toWireDate(view.freezeTime),
    }
    if (view.live) model.live = true
    const viewJson = `"frozen":${view.frozen},"freezeTime":${JSON.stringify(model.freezeTime)}${view.live ? ',"live":true' : ''}`
    const timeLinesJson = JSON.stringify(timeLines)
    const time = JSON.stringify(updateTimeUTC)
    const json =
      `{"updateTimeUTC":${time},"bloodBonus":${bloodBonus},"timeLines":${timeLinesJson},` +
      `"items":[${rowJsons.join(',')}],"challenges":{${challengeParts.join(',')}},` +
      `"updateTimeUtc":${time},"timelines":${JSON.stringify(timelines)},"challengeCount":${infos.length},"divisions":${this.divisionsJson},${viewJson}}`
    const delta = this.fresh || this.jsonOnly ? null : changedCells
    this.fresh = false
    if (this.jsonOnly) {
      let parsed: ScoreboardModel | undefined
      return {
        get model() {
          return (parsed ??= JSON.parse(json) as ScoreboardModel)
        },
        json,
        changedCells: null,
        challenges: infos,
        unlocked: changes.unlocked,
      }
    }
    return { model, json, changedCells: delta, challenges: infos, unlocked: changes.unlocked }
  }

  /** A JSON-only state's row: its changed cells (all of them the first time) re-rendered in place, and its head. */
  private renderJsonRow(team: TeamRecord, before: JsonRow | undefined, slots: Set<number> | undefined): JsonRow {
    let row: JsonRow
    if (!before && team.solves.size === 0) {
      row = { rank: 0, divisionRank: null, hintPenalty: 0, cells: null, chunks: null, challengesJson: this.unsolvedRow(team.cids).challengesJson, json: '' }
    } else if (!before || slots) {
      row = before ?? { rank: 0, divisionRank: null, hintPenalty: 0, cells: null, chunks: null, challengesJson: '', json: '' }
      let cells = row.cells
      let chunks = row.chunks
      const all = !before || !cells || !chunks
      if (!cells || !chunks) {
        // From the shared row of unsolved cells, to be changed in place from now on.
        cells = this.unsolvedRow(team.cids).itemJsons.slice()
        chunks = new Array<string>(Math.ceil(cells.length / CHUNK))
        row.cells = cells
        row.chunks = chunks
      }
      const dirty = all ? null : new Set<number>()
      for (const slot of all ? team.cids.keys() : slots!) {
        const id = team.cids[slot]!
        const solve = team.solves.get(id)
        // Serialised natively into one flat string: a kept template result would be a tree of string pieces for the collector to walk.
        cells[slot] = solve ? JSON.stringify(presentChallengeItem(id, solve)) : this.unsolvedCell(id).json
        dirty?.add(Math.floor(slot / CHUNK))
      }
      for (const k of dirty ?? chunks.keys()) chunks[k] = cells.slice(k * CHUNK, (k + 1) * CHUNK).join(',')
      row.challengesJson = `[${chunks.join(',')}]`
    } else {
      row = before
    }
    row.rank = team.rank
    row.divisionRank = team.divisionRank
    row.hintPenalty = team.hintPenalty
    const head = presentRowHead(team.data, team.data.divisionId === null ? null : (this.divisionNames.get(team.data.divisionId) ?? null), team)
    row.json = `${JSON.stringify(head).slice(0, -1)},"challenges":${row.challengesJson},"solvedChallenges":${row.challengesJson}}`
    return row
  }

  /**
   * Render a team's row: its changed cells (all of them the first time), noting in `changedCells`
   * those whose solve, blood type or solver changed, and its head.
   */
  private renderRow(team: TeamRecord, before: RenderedRow | undefined, slots: Set<number> | undefined, changedCells: CellChanges): RenderedRow {
    let items: ChallengeItem[]
    let itemJsons: string[]
    let challengesJson: string
    if (!before && team.solves.size === 0) {
      ;({ items, itemJsons, challengesJson } = this.unsolvedRow(team.cids))
    } else if (!before || slots) {
      // A new pair of arrays: the row rendered before (and the shared row of unsolved cells) stays as it was.
      items = before ? before.items.slice() : new Array(team.cids.length)
      itemJsons = before ? before.itemJsons.slice() : new Array(team.cids.length)
      const all = !before
      let cells: ChallengeItem[] | null = null
      for (const slot of all ? team.cids.keys() : slots!) {
        const id = team.cids[slot]!
        const solve = team.solves.get(id)
        const unsolved = solve ? null : this.unsolvedCell(id)
        const item = unsolved ? unsolved.item : presentChallengeItem(id, solve)
        const previous = items[slot]
        if (!all && previous && (previous.type !== item.type || previous.userName !== item.userName || previous.time !== item.time)) {
          if (!cells) changedCells.push({ id: team.data.teamId, challenges: (cells = []) })
          cells.push(item)
        }
        items[slot] = item
        itemJsons[slot] = unsolved ? unsolved.json : cellJson(item)
      }
      challengesJson = `[${itemJsons.join(',')}]`
    } else {
      ;({ items, itemJsons, challengesJson } = before)
    }
    // A changed hint deduction travels with the row's cell changes (docs/challenge-rules.md#costed-hints).
    if (before && (before.row.hintPenalty ?? 0) !== team.hintPenalty) {
      let entry = changedCells.find((e) => e.id === team.data.teamId)
      if (!entry) changedCells.push((entry = { id: team.data.teamId, challenges: [] }))
      entry.hintPenalty = team.hintPenalty
    }
    const head = presentRowHead(team.data, team.data.divisionId === null ? null : (this.divisionNames.get(team.data.divisionId) ?? null), team)
    return {
      rank: team.rank,
      divisionRank: team.divisionRank,
      items,
      itemJsons,
      challengesJson,
      row: { ...head, challenges: items, solvedChallenges: items },
      // `solvedChallenges` is GZ::CTF 0.23's name of `challenges`: the same cells, serialised once.
      json: `${JSON.stringify(head).slice(0, -1)},"challenges":${challengesJson},"solvedChallenges":${challengesJson}}`,
    }
  }

  private unsolvedRow(cids: readonly number[]): Pick<RenderedRow, 'items' | 'itemJsons' | 'challengesJson'> {
    let row = this.unsolvedRows.get(cids)
    if (!row) {
      const cells = cids.map((id) => this.unsolvedCell(id))
      const itemJsons = cells.map((c) => c.json)
      row = { items: cells.map((c) => c.item), itemJsons, challengesJson: `[${itemJsons.join(',')}]` }
      this.unsolvedRows.set(cids, row)
    }
    return row
  }

  private unsolvedCell(challengeId: number): { item: ChallengeItem; json: string } {
    let cell = this.unsolved.get(challengeId)
    if (!cell) {
      const item = presentChallengeItem(challengeId, undefined)
      this.unsolved.set(challengeId, (cell = { item, json: JSON.stringify(item) }))
    }
    return cell
  }

  private timeline(team: TeamRecord): TopTimeLine {
    return presentTimeline(team.data, this.engine.solvesInTimeOrder(team))
  }
}

/** `JSON.stringify(item)` of a cell, written out (most of a full render of a large board is its solved cells). */
function cellJson(item: ChallengeItem): string {
  return `{"id":${item.id},"score":${item.score},"type":"${item.type}","userName":${item.userName === null ? 'null' : JSON.stringify(item.userName)},"time":${item.time === null ? 'null' : `"${item.time}"`}}`
}
