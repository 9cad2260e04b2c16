/**
 * Every query key of the app, in one place. A key is the request path split at `/` (plus its
 * query parameters as a last object member), so a path prefix names everything under it:
 * invalidating `queryKeys.edit.game(5)` also reaches that game's challenges and notices, and the
 * same resource read by two screens shares one cache entry.
 */
import type { QueryKey } from '@tanstack/react-query'
import type { LogLevelFilter } from './adminConfig'
import type { EventsFilter, SubmissionsFilter } from './monitor'

type Params = Record<string, string | number | boolean | null | undefined>

/** `'/api/game/5/notices'` → `['api', 'game', '5', 'notices']`; defined parameters become a last object. */
function pathKey(path: string, params?: Params): QueryKey {
  const segments: unknown[] = path.split('/').filter(Boolean)
  if (params) {
    const defined = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null && value !== undefined))
    segments.push(defined)
  }
  return segments
}

const game = (id: number) => `/api/game/${id}`
const editGame = (id: number) => `/api/edit/games/${id}`

export const queryKeys = {
  profile: pathKey('/api/account/profile'),
  config: pathKey('/api/config'),
  /** The caller's teams (GET /api/team): the teams screen and the game join dialog share it. */
  teams: pathKey('/api/team'),
  /** Single sign-on: the sign-in page's providers, the caller's linked identities. */
  sso: pathKey('/api/account/sso'),
  identities: pathKey('/api/account/identities'),
  /** The caller's API tokens and two-factor status (profile page). */
  tokens: pathKey('/api/account/tokens'),
  twoFactor: pathKey('/api/account/2fa'),

  posts: {
    list: pathKey('/api/posts'),
    latest: pathKey('/api/posts/latest'),
    detail: (id: string) => pathKey(`/api/posts/${encodeURIComponent(id)}`),
  },

  game: {
    list: pathKey('/api/game'),
    detail: (id: number) => pathKey(game(id)),
    details: (id: number) => pathKey(`${game(id)}/details`),
    notices: (id: number) => pathKey(`${game(id)}/notices`),
    /** Every challenge detail of the game (a new hint refetches the open one). */
    challenges: (id: number) => pathKey(`${game(id)}/challenges`),
    challenge: (id: number, challengeId: number) => pathKey(`${game(id)}/challenges/${challengeId}`),
    /** `{ version, scoreboard, … }` as the live board holds it (not the bare body), hence its own member. */
    scoreboard: (id: number) => [...pathKey(`${game(id)}/scoreboard`), 'live'] as QueryKey,
    /** Staff's `view=live` board while the public one is frozen (docs/scoring.md#freeze). */
    scoreboardStaffLive: (id: number) => [...pathKey(`${game(id)}/scoreboard`), 'staff-live'] as QueryKey,
    participations: (id: number) => pathKey(`${game(id)}/participations`),
    /** The caller's teams in the game and the divisions open to joining (join dialog). */
    check: (id: number) => pathKey(`${game(id)}/check`),
  },

  monitor: {
    events: (gameId: number, filter: EventsFilter, count: number) => pathKey(`${game(gameId)}/events`, { hideContainer: filter.hideContainer, count, skip: 0 }),
    submissions: (gameId: number, filter: SubmissionsFilter, count: number) => pathKey(`${game(gameId)}/submissions`, { type: filter.type, count, skip: 0 }),
    cheatInfo: (gameId: number) => pathKey(`${game(gameId)}/cheatinfo`),
    captures: (gameId: number) => pathKey(`/api/game/games/${gameId}/captures`),
    challengeCaptures: (challengeId: number) => pathKey(`/api/game/captures/${challengeId}`),
    teamCaptures: (challengeId: number, partId: number) => pathKey(`/api/game/captures/${challengeId}/${partId}`),
  },

  edit: {
    /** Every edit key: the game lists and every game's editor screens. */
    all: pathKey('/api/edit/games'),
    /** The paged game lists (any page size). */
    gameLists: [...pathKey('/api/edit/games'), 'list'] as QueryKey,
    games: (count: number, skip: number) => [...pathKey('/api/edit/games'), 'list', { count, skip }] as QueryKey,
    game: (id: number) => pathKey(editGame(id)),
    salt: (id: number) => pathKey(`${editGame(id)}/teamhashsalt`),
    notices: (id: number) => pathKey(`${editGame(id)}/notices`),
    divisions: (id: number) => pathKey(`${editGame(id)}/divisions`),
    challenges: (id: number) => pathKey(`${editGame(id)}/challenges`),
    challenge: (id: number, challengeId: number) => pathKey(`${editGame(id)}/challenges/${challengeId}`),
    challengeHints: (id: number, challengeId: number) => pathKey(`${editGame(id)}/challenges/${challengeId}/hints`),
    challengePrerequisites: (id: number, challengeId: number) => pathKey(`${editGame(id)}/challenges/${challengeId}/prerequisites`),
    writeups: (id: number) => pathKey(`/api/admin/writeups/${id}`),
    webhooks: (id: number) => pathKey(`${editGame(id)}/webhooks`),
    deliveries: (id: number, webhookId: number) => pathKey(`${editGame(id)}/webhooks/${webhookId}/deliveries`),
    ctftime: (id: number) => pathKey(`${editGame(id)}/ctftime`),
    containerProvider: pathKey('/api/edit/containers/provider'),
  },

  admin: {
    users: (count: number, skip: number) => pathKey('/api/admin/users', { count, skip }),
    userSearch: (hint: string) => pathKey('/api/admin/users/search', { hint }),
    teams: (count: number, skip: number) => pathKey('/api/admin/teams', { count, skip }),
    teamSearch: (hint: string) => pathKey('/api/admin/teams/search', { hint }),
    files: (count: number, skip: number) => pathKey('/api/admin/files', { count, skip }),
    config: pathKey('/api/admin/config'),
    logs: (level: LogLevelFilter, count: number) => pathKey('/api/admin/logs', { level, count, skip: 0 }),
    instances: pathKey('/api/admin/instances'),
    sso: pathKey('/api/admin/sso'),
  },
}

/** Keys kept when the session changes (public data). */
export const isPublicKey = (key: QueryKey): boolean => key.length === 2 && key[0] === 'api' && (key[1] === 'config' || key[1] === 'captcha')
