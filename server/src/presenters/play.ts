/**
 * Playing a game (docs/compatibility.md#play-shapes, #group-game-reading-and-joining): ChallengeDetailModel with the team's ClientFlagContext,
 * GameDetailModel and the synthetic scoreboard row of a team that is not on the board yet.
 */
import type { ChallengeDetailModel, ClientFlagContext } from '@flagwave/shared/schemas/play'
import type { GameDetailModel } from '@flagwave/shared/schemas/games'
import type { ScoreboardItem, ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { MIN_DATE_WIRE, toWireDate } from '@flagwave/shared/format'
import type { Challenge } from '../entities/Challenge.js'
import type { Game } from '../entities/Game.js'
import type { Team } from '../entities/Team.js'
import type { Participation } from '../entities/Participation.js'
import { assetUrl, avatarUrl } from '../lib/assetUrls.js'
import { JsonText } from '../lib/jsonText.js'
import { currentScore, presentContainerInfo } from './challenges.js'
import type { Attachment } from '../entities/Attachment.js'
import type { Container } from '../entities/Container.js'
import type { LocalFile } from '../entities/LocalFile.js'

/** What a team's challenge shows: the challenge, the team's container and attachment, and the stored file behind it. */
interface TeamChallenge {
  challenge: Challenge
  container: Container | null
  attachment: Attachment | null
  file: LocalFile | null
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

export function presentChallengeDetail(view: TeamChallenge): ChallengeDetailModel {
  const c: Challenge = view.challenge
  return {
    id: c.id,
    title: c.title,
    content: c.content,
    tag: c.tag,
    hints: c.hints ?? null,
    score: currentScore(c),
    type: c.type,
    context: presentFlagContext(view),
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
  }
}

/** The parts of GameDetailModel every team shares, serialised once per board version. */
interface BoardParts {
  challenges: string
  items: Map<number, ScoreboardItem>
  rows: Map<number, string>
}
const boardParts = new WeakMap<ScoreboardModel, BoardParts>()

function partsOf(scoreboard: ScoreboardModel): BoardParts {
  let parts = boardParts.get(scoreboard)
  if (!parts) {
    const items = new Map(scoreboard.items.map((item) => [item.id, item]))
    boardParts.set(scoreboard, (parts = { challenges: JSON.stringify(scoreboard.challenges), items, rows: new Map() }))
  }
  return parts
}

/**
 * GameDetailModel as JSON text: the challenges and the team's row are spliced in from the board
 * version's cached text (a board model is immutable once published, docs/scoring.md#snapshots-and-etag).
 */
export function presentGameDetail(game: Game, participation: Participation, team: Team, scoreboard: ScoreboardModel): JsonText {
  const parts = partsOf(scoreboard)
  let row = parts.rows.get(team.id)
  if (row === undefined) {
    const item = parts.items.get(team.id)
    row = JSON.stringify(item ?? syntheticScoreboardRow(team))
    // A team not on the board yet is not kept: its name or avatar may change before it is.
    if (item) parts.rows.set(team.id, row)
  }
  const rest: Omit<GameDetailModel, 'challenges' | 'rank'> = { teamToken: participation.token, wpddl: toWireDate(game.wpddl) }
  return new JsonText(`{"challenges":${parts.challenges},"rank":${row},${JSON.stringify(rest).slice(1)}`)
}
