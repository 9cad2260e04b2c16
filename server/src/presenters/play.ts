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

export function presentGameDetail(game: Game, participation: Participation, team: Team, scoreboard: ScoreboardModel): GameDetailModel {
  const row = scoreboard.items.find((item) => item.id === team.id) ?? syntheticScoreboardRow(team)
  return {
    challenges: scoreboard.challenges,
    rank: row,
    teamToken: participation.token,
    wpddl: toWireDate(game.wpddl),
  }
}
