/**
 * The realtime protocol (docs/realtime.md; docs/compatibility.md#realtime-hubs): namespaces, room names and the typed event
 * maps shared by the server's one emitter, the SPA and the tests.
 */
import type { AnswerResult, ContainerStatus, ParticipationStatus } from './enums.js'
import type { GameNotice, GameEvent, Submission, LogMessageModel, ScoreboardModel, GlobalConfig, TeamInfoModel } from './schemas/wire.js'
import type { ChallengeChange, ScoreboardDelta } from './schemas/scoreboard.js'
import type { RevealState } from './schemas/replay.js'

export const NAMESPACES = { user: '/hub/user', monitor: '/hub/monitor', admin: '/hub/admin' } as const
export type NamespaceName = keyof typeof NAMESPACES

export const rooms = {
  game: (gameId: number) => `Game_${gameId}`,
  team: (gameId: number, participationId: number) => `Game_${gameId}_Team_${participationId}`,
  /**
   * Every socket of one user, whatever game it watches: bans and role changes disconnect them, and
   * what only that user may read (their own participation's review) is pushed here.
   */
  user: (userId: string) => `User_${userId}`,
  /** Members of one team watching their team page (membership changes). */
  teamMembers: (teamId: number) => `Team_${teamId}`,
  admins: 'Admins',
  everyone: 'Everyone',
} as const

/**
 * A new version of a game's scoreboard. Usually the difference from version `base` (fold it with
 * `applyScoreboardDelta`; a client holding another version refetches the board); after a rebuild
 * (an edit, an opening, a review, a freeze, a restart) the full board — or, when the full board is
 * large, only its announcement: read version `version` over REST (`GET /api/game/{id}/scoreboard`,
 * served gzipped from the read cache), docs/realtime.md#scoreboard-versions-and-gap-repair.
 */
export type ScoreboardUpdate = ScoreboardDeltaUpdate | ScoreboardFullUpdate | ScoreboardAnnouncement

interface ScoreboardAnnouncement {
  gameId: number
  version: number
  /** The board changed in a way a difference cannot carry (e.g. a new challenge column): fetch it. */
  refetch: true
}

interface ScoreboardDeltaUpdate {
  gameId: number
  version: number
  base: number
  delta: ScoreboardDelta
}

interface ScoreboardFullUpdate {
  gameId: number
  version: number
  scoreboard: ScoreboardModel
}

/** Current scores after a solve or an edit; `bloods` only when they changed. */
export interface ChallengeUpdate {
  gameId: number
  challenges: ChallengeChange[]
}

export interface SubmissionResult {
  id: number
  challengeId: number
  status: AnswerResult
}

export interface ContainerUpdate {
  challengeId: number
  status: ContainerStatus
  entry: string | null
  expectStopAt: string | null
  /** started | prolonged | expiring | destroyed */
  reason: 'started' | 'prolonged' | 'expiring' | 'destroyed'
}

export interface TeamUpdate {
  teamId: number
  /** The team after the change, or null when it was deleted. */
  team: TeamInfoModel | null
}

/**
 * The review of a participation changed its status (`PUT /api/admin/participation/{id}/{status}`, or
 * a join accepted without review); sent to each member registered through it, the status being what
 * `GET /api/game/{gameId}` now answers them.
 */
export interface ParticipationUpdate {
  gameId: number
  participationId: number
  status: ParticipationStatus
}

/**
 * Flagwave: a solve of the team unlocked challenges that required it (docs/challenge-rules.md#prerequisites),
 * sent to the team's room after the board version that shows the solve; refetch the game detail.
 */
export interface ChallengeUnlock {
  gameId: number
  challengeIds: number[]
}

/** Why a hub refused a socket, sent just before it is disconnected (the client then stops reconnecting). */
export interface Refusal {
  reason: 'banned' | 'game' | 'role'
}

/** The server is shutting down; reconnect after `retryMs`. */
interface ShutdownHint {
  retryMs: number
}

/** Events every hub sends. */
interface CommonHubEvents {
  Refused: (refusal: Refusal) => void
  ServerShutdown: (hint: ShutdownHint) => void
}

interface UserHubEvents extends CommonHubEvents {
  ReceivedGameNotice: (notice: GameNotice) => void
  ReceivedScoreboardUpdate: (update: ScoreboardUpdate) => void
  ReceivedChallengeUpdate: (update: ChallengeUpdate) => void
  ReceivedSubmissionResult: (result: SubmissionResult) => void
  ReceivedContainerUpdate: (update: ContainerUpdate) => void
  ReceivedTeamUpdate: (update: TeamUpdate) => void
  ReceivedParticipationUpdate: (update: ParticipationUpdate) => void
  ReceivedChallengeUnlock: (update: ChallengeUnlock) => void
  ReceivedConfigUpdate: (config: GlobalConfig) => void
  /** The staged reveal of the game moved (docs/scoring.md#staged-reveal), to `Game_{id}`. */
  ReceivedRevealUpdate: (state: RevealState) => void
}

interface MonitorHubEvents extends CommonHubEvents {
  ReceivedGameEvent: (event: GameEvent) => void
  ReceivedSubmissions: (submission: Submission) => void
  /** Flagwave: the live board for staff while the public one is frozen (docs/realtime.md#freeze). */
  ReceivedScoreboardUpdate: (update: ScoreboardUpdate) => void
  ReceivedChallengeUpdate: (update: ChallengeUpdate) => void
}

interface AdminHubEvents extends CommonHubEvents {
  ReceivedLog: (log: LogMessageModel) => void
}

export interface HubEvents {
  user: UserHubEvents
  monitor: MonitorHubEvents
  admin: AdminHubEvents
}
