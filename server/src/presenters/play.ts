/**
 * Playing a game (docs/compatibility.md#play-shapes, #group-game-reading-and-joining): ChallengeDetailModel with the team's ClientFlagContext,
 * GameDetailModel and the synthetic scoreboard row of a team that is not on the board yet.
 */
import type { ChallengeDetailModel, ClientFlagContext } from '@flagwave/shared/schemas/play'
import type { GameDetailModel } from '@flagwave/shared/schemas/games'
import type { ChallengeInfo, ChallengesByTag, ScoreboardItem, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import type { ChallengeTag } from '@flagwave/shared/enums'
import { boardPermissions } from '@flagwave/shared/divisions'
import { MIN_DATE_WIRE, toWireDate } from '@flagwave/shared/format'
import type { Challenge } from '../entities/Challenge.js'
import type { Game } from '../entities/Game.js'
import type { Team } from '../entities/Team.js'
import type { Participation } from '../entities/Participation.js'
import type { CostedHintState } from '@flagwave/shared/schemas/challengeRules'
import { lockedChallenges, solvedCells, type GameRules } from '../domain/challenges/prerequisites.js'
import { assetUrl, avatarUrl } from '../lib/assetUrls.js'
import { JsonText, msTimesJson, msTimesOfText } from '../lib/jsonText.js'
import { currentScore, presentContainerInfo } from './challenges.js'
import type { Attachment } from '../entities/Attachment.js'
import type { LocalFile } from '../entities/LocalFile.js'

/** What a team's challenge shows: the challenge, the team's container and attachment, and the stored file behind it (entities or plain rows). */
interface TeamChallenge {
  challenge: Pick<Challenge, 'id' | 'title' | 'content' | 'tag' | 'hints' | 'type' | 'originalScore' | 'minScoreRate' | 'difficulty' | 'acceptedCount' | 'submissionLimit' | 'deadlineUtc' | 'fileName'>
  container: Parameters<typeof presentContainerInfo>[0] | null
  attachment: Pick<Attachment, 'type' | 'remoteUrl' | 'fileName'> | null
  file: Pick<LocalFile, 'hash' | 'name' | 'fileSize'> | null
}

/**
 * The team-specific part of a challenge: its container (when one exists) and its attachment —
 * the team's own flag attachment for `DynamicAttachment` (linked with the challenge's file
 * name), the challenge attachment otherwise.
 */
function presentFlagContext(view: TeamChallenge): ClientFlagContext {
  const container = view.container && view.container.status !== 'Destroyed' ? presentContainerInfo(view.container) : null
  const attachment = view.attachment
  let url: string | null = null
  let fileSize: number | null = null
  if (attachment && attachment.type === 'Remote') url = attachment.remoteUrl ?? null
  else if (attachment && attachment.type === 'Local' && view.file) {
    const name = view.challenge.type === 'DynamicAttachment' ? view.challenge.fileName : (attachment.fileName ?? view.file.name)
    url = assetUrl(view.file.hash, name)
    fileSize = Number(view.file.fileSize)
  }
  return {
    closeTime: container ? container.expectStopAt : null,
    instanceEntry: container ? container.entry : null,
    url,
    fileSize,
  }
}

/**
 * A team's challenge. `hints` (v0.17.6) lists the free hints and then the costed hints the team
 * unlocked; `costedHints` every costed hint with its cost and state (docs/challenge-rules.md#costed-hints);
 * `attempts` the team's submissions to the challenge, every status (docs/challenge-rules.md#attempt-limits).
 */
export function presentChallengeDetail(view: TeamChallenge, extra: { attempts?: number; costedHints?: CostedHintState[] } = {}): ChallengeDetailModel {
  const { attempts = 0, costedHints = [] } = extra
  const c = view.challenge
  const unlocked = costedHints.flatMap((h) => (h.content === null ? [] : [h.content]))
  return {
    id: c.id,
    title: c.title,
    content: c.content,
    tag: c.tag,
    hints: unlocked.length > 0 ? [...(c.hints ?? []), ...unlocked] : (c.hints ?? null),
    score: currentScore(c),
    type: c.type,
    context: presentFlagContext(view),
    // Newer members (docs/compatibility.md#newer-gzctf-versions), the challenge rules (docs/challenge-rules.md).
    category: c.tag,
    limit: c.submissionLimit ?? 0,
    attempts,
    deadline: c.deadlineUtc ? toWireDate(c.deadlineUtc) : null,
    costedHints,
  }
}

/** The row of a team that has no scoreboard row yet (docs/compatibility.md#group-game-reading-and-joining). */
function syntheticScoreboardRow(team: Pick<Team, 'id' | 'name' | 'avatarHash'>): ScoreboardItem {
  return {
    id: team.id,
    name: team.name,
    bio: '',
    organization: null,
    avatar: avatarUrl(team.avatarHash),
    score: 0,
    rank: 0,
    organizationRank: null,
    solvedCount: 0,
    lastSubmissionTime: MIN_DATE_WIRE,
    challenges: [],
    solvedChallenges: [],
    divisionId: null,
    divisionRank: null,
    hintPenalty: 0,
  }
}

/** The parts of GameDetailModel every team shares, serialised once per board version (and once more with millisecond times). */
interface BoardParts {
  /** Per division id (null: a team without one), the challenges it may view (docs/scoring.md#divisions). */
  views: Map<number | null, DivisionView>
  items: Map<number, ScoreboardItem>
  rows: Map<number, string>
  rowsMs: Map<number, string>
}
const boardParts = new WeakMap<ScoreboardModel, BoardParts>()

interface DivisionView {
  /** The challenges as listed, for a team whose locked challenges hide their titles. */
  list: ChallengesByTag
  ids: Set<number>
  challenges: string
  challengesMs: string | undefined
  challengeCount: number
}

function partsOf(scoreboard: ScoreboardModel): BoardParts {
  let parts = boardParts.get(scoreboard)
  if (!parts) {
    const items = new Map(scoreboard.items.map((item) => [item.id, item]))
    parts = { views: new Map(), items, rows: new Map(), rowsMs: new Map() }
    boardParts.set(scoreboard, parts)
  }
  return parts
}

/** The board's challenges a division may view, serialised once per board version and division. */
function viewOf(scoreboard: ScoreboardModel, parts: BoardParts, divisionId: number | null): DivisionView {
  let view = parts.views.get(divisionId)
  if (!view) {
    let challenges: ChallengesByTag = scoreboard.challenges
    if (divisionId !== null) {
      const permissions = boardPermissions(scoreboard.divisions)
      challenges = {}
      for (const [tag, list] of Object.entries(scoreboard.challenges) as [ChallengeTag, ChallengeInfo[]][]) {
        const visible = list.filter((c) => permissions.may(divisionId, 'ViewChallenge', c.id))
        if (visible.length > 0) challenges[tag] = visible
      }
    }
    const challengeCount = Object.values(challenges).reduce((n, list) => n + (list?.length ?? 0), 0)
    const ids = new Set(Object.values(challenges).flatMap((list) => list?.map((c) => c.id) ?? []))
    view = { list: challenges, ids, challenges: JSON.stringify(challenges), challengesMs: undefined, challengeCount }
    parts.views.set(divisionId, view)
  }
  return view
}

/** A team's own view where locked challenges hide their titles (an empty title), serialised per request. */
function hideTitles(view: DivisionView, hidden: ReadonlySet<number>): DivisionView {
  const list: ChallengesByTag = {}
  for (const [tag, infos] of Object.entries(view.list) as [ChallengeTag, ChallengeInfo[]][]) list[tag] = infos.map((c) => (hidden.has(c.id) ? { ...c, title: '' } : c))
  return { ...view, list, challenges: JSON.stringify(list), challengesMs: undefined }
}

/** A short hash for validators of small texts (FNV-1a, 32 bits). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

/**
 * GameDetailModel as JSON text: the challenges and the team's row are spliced in from the board
 * version's cached text (a board model is immutable once published, docs/scoring.md#snapshots-and-etag).
 * Its validator is the board version with the team and a hash of the team's own members, so a
 * poll that changes nothing is a 304 without any serialisation.
 */
export function presentGameDetail(
  game: Pick<Game, 'wpddl' | 'writeupRequired'>,
  participation: Pick<Participation, 'token' | 'division'>,
  team: Pick<Team, 'id' | 'name' | 'avatarHash'>,
  board: { model: ScoreboardModel; version: number },
  options: {
    /** The game's prerequisites (docs/challenge-rules.md#prerequisites). */
    rules?: GameRules
    /** While frozen: the team's own challenges solved after the freeze (docs/scoring.md#freeze). */
    solvedAfterFreeze?: readonly number[] | null
  } = {},
): JsonText {
  const { rules, solvedAfterFreeze = null } = options
  const parts = partsOf(board.model)
  let view = viewOf(board.model, parts, (participation.division as { id: number } | null)?.id ?? null)
  const item = parts.items.get(team.id)
  // Prerequisites (docs/challenge-rules.md#prerequisites): locked by the team's solved cells of this
  // board version, and while frozen by its own solves since the freeze, which the frozen board leaves out.
  const solved = solvedCells(item?.challenges ?? [])
  for (const id of solvedAfterFreeze ?? []) solved.add(id)
  const locked = rules ? lockedChallenges(rules, solved).filter((l) => view.ids.has(l.id)) : []
  const hidden = new Set(locked.filter((l) => !l.titleVisible).map((l) => l.id))
  if (hidden.size > 0) view = hideTitles(view, hidden)
  let row = parts.rows.get(team.id)
  if (row === undefined) {
    row = JSON.stringify(item ?? syntheticScoreboardRow(team))
    // A team not on the board yet is not kept: its name or avatar may change before it is.
    if (item) parts.rows.set(team.id, row)
  }
  const wpddl = toWireDate(game.wpddl)
  const rest: Omit<GameDetailModel, 'challenges' | 'rank'> = {
    teamToken: participation.token,
    wpddl,
    writeupDeadline: wpddl,
    writeupRequired: game.writeupRequired,
    challengeCount: view.challengeCount,
    lockedChallenges: locked.map(({ id, requires }) => ({ id, requires })),
  }
  if (solvedAfterFreeze) rest.solvedAfterFreeze = [...solvedAfterFreeze]
  const restJson = JSON.stringify(rest).slice(1)
  const etag = `W/"${board.version}-${team.id}-${shortHash(item ? restJson : row + restJson)}"`
  const rowText = row
  return new JsonText(`{"challenges":${view.challenges},"rank":${rowText},${restJson}`, etag, () => {
    view.challengesMs ??= msTimesOfText(view.challenges)
    let rowMs = parts.rowsMs.get(team.id)
    if (rowMs === undefined) {
      rowMs = msTimesOfText(rowText)
      if (item) parts.rowsMs.set(team.id, rowMs)
    }
    return `{"challenges":${view.challengesMs},"rank":${rowMs},${msTimesJson(rest).slice(1)}`
  })
}
