/**
 * Group `game`, player side (docs/compatibility.md#group-game-reading-and-joining), typed with the shared schemas, plus the caller's
 * teams (GET /api/team, docs/compatibility.md#group-team) which the join form needs.
 * Their query keys are in ./queryKeys.ts.
 */
import { z } from 'zod'
import { AnswerResult } from '@flagwave/shared/enums'
import { BasicGameInfoModel, DetailedGameInfoModel, GameDetailModel, GameJoinCheckInfoModel, GameNotice, type GameJoinModel } from '@flagwave/shared/schemas/games'
import { ChallengeDetailModel } from '@flagwave/shared/schemas/play'
import { CostedHintState } from '@flagwave/shared/schemas/challengeRules'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import type { ScoreboardModel } from '@flagwave/shared/schemas/scoreboard'
import { ApiError, CLIENT_ERROR_MESSAGES, buildUrl, errorFromResponse, fetchOrThrow, http, lenientBody } from './http'

const paths = {
  list: '/api/game',
  detail: (id: number) => `/api/game/${id}`,
  details: (id: number) => `/api/game/${id}/details`,
  notices: (id: number) => `/api/game/${id}/notices`,
  challenge: (id: number, challengeId: number) => `/api/game/${id}/challenges/${challengeId}`,
  myTeams: '/api/team',
}

/** A scoreboard with the version the server stamped on it (`X-Scoreboard-Version` / `ETag`). */
export interface VersionedScoreboard {
  /** -1 when the server sent no version (a plain GZ::CTF-compatible server). */
  version: number
  scoreboard: ScoreboardModel
}

function versionOf(headers: Headers): number {
  const explicit = headers.get('X-Scoreboard-Version')
  if (explicit && /^\d+$/.test(explicit.trim())) return Number(explicit.trim())
  const etag = headers.get('ETag')?.match(/(\d+)/)
  return etag ? Number(etag[1]) : -1
}

/**
 * GET /api/game/{id}/scoreboard with its version. The browser's HTTP cache revalidates with
 * `If-None-Match` (the response is `no-cache` with an ETag), so an unchanged board costs a 304.
 * The body is not run through zod: it can be large, and pushes carry the same shape unparsed.
 */
async function fetchScoreboard(id: number, signal?: AbortSignal, view?: 'live'): Promise<VersionedScoreboard> {
  // `view=live`: staff's live board during a freeze (docs/scoring.md#freeze); others get the public one.
  const url = buildUrl(`/api/game/${id}/scoreboard${view === 'live' ? '?view=live' : ''}`)
  const response = await fetchOrThrow(url, { headers: { Accept: 'application/json' }, signal })
  const body = lenientBody(await response.text().catch(() => ''))
  if (!response.ok) throw errorFromResponse(response, body, false)
  if (!body || typeof body !== 'object' || !Array.isArray((body as ScoreboardModel).items)) {
    throw new ApiError('badResponse', CLIENT_ERROR_MESSAGES.badResponse, response.status, null, body)
  }
  return { version: versionOf(response.headers), scoreboard: body as ScoreboardModel }
}

export const gameApi = {
  /** The 10 most recent non-hidden games. */
  list: () => http.get(paths.list, { schema: z.array(BasicGameInfoModel) }),
  /** A game with the caller's participation (anonymous: `Unsubmitted`). */
  detail: (id: number) => http.get(paths.detail(id), { schema: DetailedGameInfoModel }),
  /** Join with one of my teams; 200 empty. */
  join: (id: number, body: z.input<typeof GameJoinModel>) => http.post(paths.detail(id), { json: body }),
  /** The caller's teams in the game and the divisions that take new teams (GZ::CTF 1.7's check). */
  check: (id: number) => http.get(`${paths.detail(id)}/check`, { schema: GameJoinCheckInfoModel }),
  /** Leave while Pending/Rejected; 200 empty. */
  leave: (id: number) => http.delete(paths.detail(id)),
  /** The team's board: challenges by tag, my team's row, team token. */
  details: (id: number) => http.get(paths.details(id), { schema: GameDetailModel }),
  notices: (id: number) => http.get(paths.notices(id), { schema: z.array(GameNotice) }),
  challenge: (id: number, challengeId: number) => http.get(paths.challenge(id, challengeId), { schema: ChallengeDetailModel }),
  /** Unlock a costed hint for the team (docs/challenge-rules.md#costed-hints); resolves to the challenge's hint states. */
  unlockHint: (id: number, challengeId: number, hintId: number) =>
    http.post(`${paths.challenge(id, challengeId)}/hints/${hintId}/unlock`, { schema: z.array(CostedHintState) }),
  /** Submit a flag; resolves to the submission id. */
  submit: (id: number, challengeId: number, flag: string) => http.post(paths.challenge(id, challengeId), { json: { flag }, schema: z.number().int() }),
  /** `FlagSubmitted` while judging, then `Accepted`, `WrongAnswer` or `NotFound`. */
  status: (id: number, challengeId: number, submissionId: number, signal?: AbortSignal) =>
    http.get(`/api/game/${id}/challenges/${challengeId}/status/${submissionId}`, { schema: z.enum(AnswerResult), signal }),
  scoreboard: fetchScoreboard,
  /** Start the team's container (ContainerInfoModel). */
  startContainer: (id: number, challengeId: number) => http.post(`/api/game/${id}/container/${challengeId}`, { schema: ContainerInfoModel }),
  prolongContainer: (id: number, challengeId: number) => http.post(`/api/game/${id}/container/${challengeId}/prolong`, { schema: ContainerInfoModel }),
  destroyContainer: (id: number, challengeId: number) => http.delete(`/api/game/${id}/container/${challengeId}`),
  /** Teams the caller belongs to. */
  myTeams: () => http.get(paths.myTeams, { schema: z.array(TeamInfoModel) }),
  /** Download links of the exports (Monitor+). */
  scoreboardSheetUrl: (id: number) => `/api/game/${id}/scoreboardsheet`,
  submissionSheetUrl: (id: number) => `/api/game/${id}/submissionsheet`,
}
