/**
 * Group `game`, monitor side (docs/compatibility.md#group-game-monitors): events, submissions, cheat
 * reports, traffic captures and the two spreadsheet exports. Every call requires Monitor+.
 *
 * Query keys are in ./queryKeys.ts (`queryKeys.monitor`); the live tables keep their first page
 * under that key and page further back with `count`/`skip` outside the cache.
 * Downloads go through `downloadFile`, so that a failed export shows the server's title verbatim
 * instead of navigating to a JSON error body.
 */
import { z } from 'zod'
import type { AnswerResult } from '@flagwave/shared/enums'
import { GameEvent } from '@flagwave/shared/schemas/games'
import { CheatInfoModel, Submission } from '@flagwave/shared/schemas/play'
import { ChallengeTrafficModel, FileRecord, TeamTrafficModel } from '@flagwave/shared/schemas/admin'
import { ApiError, CLIENT_ERROR_MESSAGES, buildUrl, errorFromResponse, fetchOrThrow, http, lenientBody, xsrfHeaders } from './http'

export interface EventsFilter {
  /** Drop ContainerStart / ContainerDestroy (server side). */
  hideContainer: boolean
}

export interface SubmissionsFilter {
  /** Only submissions of this status (server side); null = all. */
  type: AnswerResult | null
}


const paths = {
  cheatInfo: (gameId: number) => `/api/game/${gameId}/cheatinfo`,
  captures: (gameId: number) => `/api/game/games/${gameId}/captures`,
  challengeCaptures: (challengeId: number) => `/api/game/captures/${challengeId}`,
  teamCaptures: (challengeId: number, partId: number) => `/api/game/captures/${challengeId}/${partId}`,
}

export const monitorPaths = {
  scoreboardSheet: (gameId: number) => `/api/game/${gameId}/scoreboardsheet`,
  submissionSheet: (gameId: number) => `/api/game/${gameId}/submissionsheet`,
  captureFile: (challengeId: number, partId: number, fileName: string) => `/api/game/captures/${challengeId}/${partId}/${encodeURIComponent(fileName)}`,
  captureArchive: (challengeId: number, partId: number) => `/api/game/captures/${challengeId}/${partId}/all`,
}

export const monitorApi = {
  /** Newest first (GameEvent has no id on the wire). */
  events: (gameId: number, filter: EventsFilter, count: number, skip: number) =>
    http.get(`/api/game/${gameId}/events`, { query: { hideContainer: filter.hideContainer, count, skip }, schema: z.array(GameEvent) }),
  /** Newest first; `count` ≤ 0 would return everything, so callers always page. */
  submissions: (gameId: number, filter: SubmissionsFilter, count: number, skip: number) =>
    http.get(`/api/game/${gameId}/submissions`, { query: { type: filter.type, count, skip }, schema: z.array(Submission) }),
  cheatInfo: (gameId: number) => http.get(paths.cheatInfo(gameId), { schema: z.array(CheatInfoModel) }),
  /** Challenges with traffic capture enabled (unknown game → []). */
  captures: (gameId: number) => http.get(paths.captures(gameId), { schema: z.array(ChallengeTrafficModel) }),
  /** Teams (participations) with captured traffic for a challenge. */
  challengeCaptures: (challengeId: number) => http.get(paths.challengeCaptures(challengeId), { schema: z.array(TeamTrafficModel) }),
  /** One team's capture files for a challenge. */
  teamCaptures: (challengeId: number, partId: number) => http.get(paths.teamCaptures(challengeId, partId), { schema: z.array(FileRecord) }),
}

/** The file name of a `Content-Disposition` header (RFC 6266: `filename*` wins over `filename`). */
function dispositionFileName(header: string | null): string | null {
  if (!header) return null
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!.trim().replace(/^"|"$/g, ''))
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header)
  if (!plain) return null
  return (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!).trim() || null
}

/**
 * Download a file endpoint (sheets, captures) as the signed-in user and save it under the
 * server's download name. Failures throw an ApiError carrying the server's title.
 */
export async function downloadFile(path: string, fallbackName: string, signal?: AbortSignal, post?: { json?: unknown }): Promise<string> {
  const url = buildUrl(path)
  const init: RequestInit = post
    ? { method: 'POST', headers: { ...xsrfHeaders(), ...(post.json === undefined ? {} : { 'Content-Type': 'application/json' }) }, body: post.json === undefined ? undefined : JSON.stringify(post.json) }
    : {}
  const response = await fetchOrThrow(url, { ...init, signal })
  if (!response.ok) throw errorFromResponse(response, lenientBody(await response.text().catch(() => '')), false)
  const type = response.headers.get('content-type') ?? ''
  // An unknown API path answers the SPA page with 200 (docs/compatibility.md#paths-and-routing): not a download.
  if (/text\/html/i.test(type)) throw new ApiError('badResponse', CLIENT_ERROR_MESSAGES.badResponse, response.status)
  const blob = await response.blob()
  const name = dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName
  const href = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = href
  anchor.download = name
  anchor.style.display = 'none'
  document.body.appendChild(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(href), 60_000)
  return name
}
