/**
 * `applyScoreboardDelta(board, delta)` — the next version of a scoreboard from the previous one and
 * the pushed difference (docs/realtime.md#scoreboard-versions-and-gap-repair). The server's engine (server/src/domain/scoreboard/engine.ts)
 * renders the same board from its own state; the rules below are the engine's, restated on the
 * contract shape, and tests fold every pushed delta to check that both agree member for member:
 *
 * - a solved cell is worth `solveScore(challenge score, its blood rank, bloodBonus)`, 0 when the
 *   row's division may not score that challenge (docs/scoring.md#divisions);
 * - a row's score is the sum of its cells less its `hintPenalty` (costed hints, carried by the
 *   delta when it changed; docs/challenge-rules.md#costed-hints), `solvedCount` the solved cells,
 *   `lastSubmissionTime` the latest solve (rows without a solve never change by a delta);
 * - rows are ranked by score descending, last submission ascending, team id ascending; the
 *   overall rank counts only rows of divisions ranked overall (0 for the others), division
 *   (organization) ranks count within each division in that order;
 * - timelines are the cumulative scores of the top ten (overall among ranked rows, and per
 *   division) in solve time order, ties by challenge id;
 * - a challenge that joined the board (`added`, an opening) is listed in its tag (tags in their
 *   enum order, ids ascending) and has an unsolved cell in every row but its `except` rows, cells
 *   in challenge id order.
 *
 * Pure and copy-on-write: unchanged rows, cells and challenges keep their identity, so React
 * re-renders only what moved.
 */
import type { ScoreboardUpdate } from './events.js'
import type { ChallengeChange, ChallengeInfo, ChallengeItem, ScoreboardDelta, ScoreboardItem, ScoreboardModel, TimeLine, TopTimeLine } from './schemas/scoreboard.js'
import { bloodRankOf, compareRanking, solveScore } from './scoring.js'
import { boardPermissions } from './divisions.js'
import { ChallengeTag } from './enums.js'

const isSolved = (item: Pick<ChallengeItem, 'type'>): boolean => item.type !== 'Unaccepted'

/** Scoreboard order (docs/scoring.md#ranking), made total by team id as the engine does. */
function compareRows(a: ScoreboardItem, b: ScoreboardItem): number {
  return compareRanking(a, b) || a.id - b.id
}

/** Solve order within a timeline: time ascending, then challenge id. */
function compareSolvedCells(a: ChallengeItem, b: ChallengeItem): number {
  const ta = Date.parse(a.time!)
  const tb = Date.parse(b.time!)
  return ta !== tb ? ta - tb : a.id - b.id
}

/** A row's timeline: its cumulative score after each solve. */
function rowTimeline(row: Pick<ScoreboardItem, 'id' | 'name' | 'challenges'>): TopTimeLine {
  let total = 0
  const items: TimeLine[] = row.challenges
    .filter(isSolved)
    .sort(compareSolvedCells)
    .map((cell) => ({ time: cell.time!, score: (total += cell.score) }))
  return { id: row.id, name: row.name, items }
}

export function applyScoreboardDelta(before: ScoreboardModel, delta: ScoreboardDelta): ScoreboardModel {
  const board = delta.added?.length ? withColumns(before, delta.added) : before
  const permissions = boardPermissions(board.divisions)
  const challenges = patchChallengeInfos(board.challenges, delta.challenges)
  // Challenges whose current score may have moved: every solved cell of theirs is re-scored.
  const rescored = new Map(delta.challenges.map((c) => [c.id, c.score]))
  const cellChanges = new Map(delta.items.map((row) => [row.id, new Map(row.challenges.map((cell) => [cell.id, cell]))]))
  const penalties = new Map(delta.items.flatMap((row) => (row.hintPenalty === undefined ? [] : [[row.id, row.hintPenalty] as const])))

  let reordered = false
  const rows = board.items.map((row) => {
    const explicit = cellChanges.get(row.id)
    let cells: ChallengeItem[] | null = null
    row.challenges.forEach((cell, i) => {
      let next = explicit?.get(cell.id) ?? cell
      const base = rescored.get(next.id)
      if (base !== undefined && isSolved(next)) {
        const score = permissions.may(row.divisionId, 'GetScore', next.id) ? solveScore(base, bloodRankOf(next.type), board.bloodBonus) : 0
        if (score !== next.score) next = { ...next, score }
      }
      if (next !== cell) (cells ??= row.challenges.slice())[i] = next
    })
    const penalty = penalties.get(row.id)
    if (cells === null && (penalty === undefined || penalty === (row.hintPenalty ?? 0))) return row
    reordered = true
    const list = cells ?? row.challenges
    const hintPenalty = penalty ?? row.hintPenalty ?? 0
    return { ...row, ...totals(list, row.lastSubmissionTime, hintPenalty), hintPenalty, challenges: list, solvedChallenges: list }
  })

  if (reordered) rows.sort(compareRows)
  const divisionCounters = new Map<number, number>()
  let overall = 0
  const items = rows.map((row) => {
    const rank = permissions.may(row.divisionId, 'RankOverall') ? ++overall : 0
    let divisionRank: number | null = null
    if (row.divisionId !== null) {
      divisionRank = (divisionCounters.get(row.divisionId) ?? 0) + 1
      divisionCounters.set(row.divisionId, divisionRank)
    }
    return row.rank === rank && row.divisionRank === divisionRank ? row : { ...row, rank, divisionRank, organizationRank: divisionRank }
  })

  const { timeLines, byDivision } = timelines(items, board)
  return {
    updateTimeUTC: delta.updateTimeUTC,
    bloodBonus: board.bloodBonus,
    timeLines,
    items,
    challenges,
    updateTimeUtc: delta.updateTimeUTC,
    timelines: byDivision,
    challengeCount: board.challengeCount,
    divisions: board.divisions,
    // The freeze view never changes by a delta: freezing and unfreezing push whole boards (docs/scoring.md#freeze).
    ...(board.frozen !== undefined ? { frozen: board.frozen, freezeTime: board.freezeTime ?? null } : {}),
    ...(board.live ? { live: true } : {}),
  }
}

/** The unsolved cell of a challenge, as the server renders it in every row that has none solved. */
const unsolvedCell = (id: number): ChallengeItem => ({ id, score: 0, type: 'Unaccepted', userName: null, time: null })

/**
 * The board with new challenge columns (an opening, docs/realtime.md#scoreboard-versions-and-gap-repair):
 * each challenge in its tag's list (tags in their enum order, ids ascending), and an unsolved cell
 * in every row but its `except` rows (cells in challenge id order). No score, rank or timeline
 * moves: nobody solved them yet.
 */
function withColumns(board: ScoreboardModel, added: NonNullable<ScoreboardDelta['added']>): ScoreboardModel {
  const lists = new Map<string, ChallengeInfo[]>(Object.entries(board.challenges).map(([tag, list]) => [tag, list ? [...list] : []]))
  for (const { challenge } of added) {
    const list = lists.get(challenge.tag) ?? []
    list.splice(lowerIndex(list, challenge.id, (c) => c.id), 0, challenge)
    lists.set(challenge.tag, list)
  }
  const challenges: Partial<Record<string, ChallengeInfo[]>> = {}
  for (const tag of ChallengeTag) if (lists.has(tag)) challenges[tag] = lists.get(tag)
  const except = added.map(({ challenge, except }) => ({ id: challenge.id, except: new Set(except) }))
  const items = board.items.map((row) => {
    let cells: ChallengeItem[] | null = null
    for (const column of except) {
      if (column.except.has(row.id)) continue
      cells ??= row.challenges.slice()
      cells.splice(lowerIndex(cells, column.id, (c) => c.id), 0, unsolvedCell(column.id))
    }
    return cells ? { ...row, challenges: cells, solvedChallenges: cells } : row
  })
  return { ...board, items, challenges: challenges as ScoreboardModel['challenges'], challengeCount: board.challengeCount + added.length }
}

/** First index of a list sorted by `key` whose key is not below `id`. */
function lowerIndex<T>(list: readonly T[], id: number, key: (item: T) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (key(list[mid]!) < id) lo = mid + 1
    else hi = mid
  }
  return lo
}

function totals(cells: ChallengeItem[], previousLast: string, hintPenalty: number): Pick<ScoreboardItem, 'score' | 'solvedCount' | 'lastSubmissionTime'> {
  let score = -hintPenalty
  let solvedCount = 0
  let last = previousLast
  let lastMs = -Infinity
  for (const cell of cells) {
    if (!isSolved(cell)) continue
    score += cell.score
    solvedCount += 1
    const at = Date.parse(cell.time!)
    if (at > lastMs) {
      lastMs = at
      last = cell.time!
    }
  }
  return { score, solvedCount, lastSubmissionTime: last }
}

/**
 * Challenge changes (of a delta or a `ReceivedChallengeUpdate`) applied to a challenges-by-tag
 * map: the same map when none of its challenges changed, otherwise unchanged challenges keep
 * their identity.
 */
export function patchChallengeInfos<M extends Partial<Record<string, ChallengeInfo[]>>>(map: M, changes: readonly ChallengeChange[]): M {
  if (changes.length === 0) return map
  const byId = new Map(changes.map((c) => [c.id, c]))
  let changed = false
  const next: Partial<Record<string, ChallengeInfo[]>> = {}
  for (const [tag, list] of Object.entries(map)) {
    if (!list) continue
    next[tag] = list.map((info) => {
      const change = byId.get(info.id)
      if (!change) return info
      changed = true
      return { ...info, score: change.score, solved: change.solved, bloods: change.bloods ?? info.bloods }
    })
  }
  return changed ? (next as M) : map
}

/** The top ten overall (`all`, rows ranked overall) and per division of the board, by name and by id (0 = overall). */
function timelines(items: ScoreboardItem[], board: ScoreboardModel): Pick<ScoreboardModel, 'timeLines'> & { byDivision: ScoreboardModel['timelines'] } {
  const overall: TopTimeLine[] = []
  const perDivision = new Map<number, TopTimeLine[]>(board.divisions.map((d) => [d.id, []]))
  for (const row of items) {
    if (row.rank > 0 && overall.length < 10) overall.push(rowTimeline(row))
    const list = row.divisionId !== null ? perDivision.get(row.divisionId) : undefined
    if (list && list.length < 10) list.push(rowTimeline(row))
  }
  const timeLines: Record<string, TopTimeLine[]> = { all: overall }
  for (const d of board.divisions) timeLines[d.name] = perDivision.get(d.id)!
  return { timeLines, byDivision: [{ divisionId: 0, teams: overall }, ...board.divisions.map((d) => ({ divisionId: d.id, teams: perDivision.get(d.id)! }))] }
}

/** A board and its version, as a client holds it (`version` -1 when unknown, e.g. after reconnecting). */
export interface HeldScoreboard {
  version: number
  scoreboard: ScoreboardModel | null
}

/**
 * `applied`: the update is now held; `gap`: versions were missed (refetch the board — after a
 * delta the held board is kept, a whole board is taken anyway); `stale`: older than what is held;
 * `fetch`: a newer version was announced without its board (refetch it; the held board is kept
 * until the answer arrives).
 */
export type UpdateOutcome = 'applied' | 'gap' | 'stale' | 'fetch'

/** What a client holds after a pushed `ReceivedScoreboardUpdate` (shared/src/events.ts). */
export function applyScoreboardUpdate(held: HeldScoreboard, update: ScoreboardUpdate): HeldScoreboard & { outcome: UpdateOutcome } {
  if (held.version >= 0 && update.version <= held.version) return { ...held, outcome: 'stale' }
  if ('refetch' in update) return { ...held, outcome: 'fetch' }
  if ('delta' in update) {
    if (held.version !== update.base || !held.scoreboard) return { ...held, outcome: 'gap' }
    return { version: update.version, scoreboard: applyScoreboardDelta(held.scoreboard, update.delta), outcome: 'applied' }
  }
  const gap = held.version >= 0 && update.version > held.version + 1
  return { version: update.version, scoreboard: update.scoreboard, outcome: gap ? 'gap' : 'applied' }
}
