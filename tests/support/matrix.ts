/**
 * The permission matrix (brief: trust & scale): every route of `allRoutes` joined with its
 * docs/compatibility.md#routes-by-group row, the request each caller sends (path parameters pointing at the fixtures of
 * tests/support/fixtures.ts) and the outcome class the contract prescribes for each caller.
 *
 * Requests are chosen so that a permitted caller passes authorization without wrecking the world
 * for the rows that follow: bodies that fail validation (authorization is decided first, docs/compatibility.md#sessions-and-roles), or a "spare" fixture for the endpoints that delete something (phase 1), or — for the
 * captain and context-gate checks, which run after validation — a valid body on a locked team.
 */
import type { RouteSpec } from '../../server/src/http/route.js'
import { roleRank, type Role } from '@flagwave/shared/enums'
import { ALL_ENDPOINTS, type ContractEndpoint } from './contract.js'
import { CALLER_ROLE, PDF_BYTES, type Caller, type World } from './fixtures.js'
import type { ApiClient, ApiResponse } from './client.js'

/** A normalized `METHOD /path` with every parameter as `{}` (both `:id` and `{id}` styles). */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.toLowerCase().replace(/\{[^}]+\}|:\w+/g, '{}')}`

export type MatrixRequest =
  | { json: unknown }
  | { raw: string; contentType: string }
  | { upload: [field: string, name: string, data: Uint8Array | string, type?: string][] }
  | Record<string, never>

export interface MatrixRow {
  path: (w: World) => string
  request?: (w: World, caller: Caller) => MatrixRequest
  /** 0 = harmless; 1 = deletes or rewrites a fixture (runs after every phase-0 row); 2 = ends sessions (runs last). */
  phase?: 0 | 1 | 2
}

const g = (w: World) => w.game.id
/** An id no row has: the routes that act on one token answer 404 to a permitted caller. */
const MISSING_ID = '00000000-0000-4000-8000-000000000000'
const notAnImage = (name = 'a.png'): MatrixRequest => ({ upload: [['file', name, 'this is not an image', 'image/png']] })

/** Keyed by the route's own `METHOD /path` (Koa style, as declared in server/src/routes). */
export const MATRIX: Record<string, MatrixRow> = {
  /* ---------------------------------------------------------------- account */
  'POST /api/account/register': { path: () => '/api/account/register', request: () => ({ json: {} }) },
  'POST /api/account/recovery': { path: () => '/api/account/recovery', request: () => ({ json: {} }) },
  'POST /api/account/passwordreset': { path: () => '/api/account/passwordreset', request: () => ({ json: {} }) },
  'POST /api/account/verify': { path: () => '/api/account/verify', request: () => ({ json: {} }) },
  'POST /api/account/login': { path: () => '/api/account/login', request: () => ({ json: { userName: '', password: '' } }) },
  'POST /api/account/logout': { path: () => '/api/account/logout', phase: 2 },
  'PUT /api/account/update': { path: () => '/api/account/update', request: () => ({ json: { bio: 5 } }) },
  'PUT /api/account/changepassword': { path: () => '/api/account/changepassword', request: () => ({ json: {} }) },
  'PUT /api/account/changeemail': { path: () => '/api/account/changeemail', request: () => ({ json: {} }) },
  'POST /api/account/mailchangeconfirm': { path: () => '/api/account/mailchangeconfirm', request: () => ({ json: {} }) },
  'GET /api/account/profile': { path: () => '/api/account/profile' },
  'PUT /api/account/avatar': { path: () => '/api/account/avatar', request: () => notAnImage() },

  /* ------------------------------------------------------------------ admin */
  'GET /api/admin/config': { path: () => '/api/admin/config' },
  // Refused by validation: a stored change would push ReceivedConfigUpdate to every node sharing Redis.
  'PUT /api/admin/config': { path: () => '/api/admin/config', request: () => ({ json: { globalConfig: { title: 7 } } }) },
  'GET /api/admin/users': { path: () => '/api/admin/users?count=5&skip=0' },
  'POST /api/admin/users': { path: () => '/api/admin/users', request: () => ({ json: {} }) },
  'POST /api/admin/users/search': { path: () => '/api/admin/users/search?hint=u' },
  'GET /api/admin/teams': { path: () => '/api/admin/teams?count=5&skip=0' },
  'POST /api/admin/teams/search': { path: () => '/api/admin/teams/search?hint=Team' },
  'PUT /api/admin/teams/:id': { path: (w) => `/api/admin/teams/${w.teams.b.id}`, request: () => ({ json: {} }) },
  'PUT /api/admin/users/:userid': { path: (w) => `/api/admin/users/${w.users.spareForPassword.user.id}`, request: () => ({ json: {} }) },
  'DELETE /api/admin/users/:userid/password': { path: (w) => `/api/admin/users/${w.users.spareForPassword.user.id}/password`, phase: 1 },
  'DELETE /api/admin/users/:userid': { path: (w) => `/api/admin/users/${w.users.spareForDelete.user.id}`, phase: 1 },
  'DELETE /api/admin/teams/:id': { path: (w) => `/api/admin/teams/${w.teams.spare.id}`, phase: 1 },
  'GET /api/admin/users/:userid': { path: (w) => `/api/admin/users/${w.users.user.user.id}` },
  'GET /api/admin/logs': { path: () => '/api/admin/logs?level=All&count=5&skip=0' },
  'PUT /api/admin/participation/:id/:status': { path: (w) => `/api/admin/participation/${w.participations.a.id}/Accepted` },
  'GET /api/admin/writeups/:id': { path: (w) => `/api/admin/writeups/${g(w)}` },
  'GET /api/admin/writeups/:id/all': { path: (w) => `/api/admin/writeups/${g(w)}/all` },
  'GET /api/admin/instances': { path: () => '/api/admin/instances' },
  'DELETE /api/admin/instances/:id': { path: (w) => `/api/admin/instances/${w.containerId}`, phase: 1 },
  'GET /api/admin/files': { path: () => '/api/admin/files?count=5&skip=0' },

  /* ----------------------------------------------------------------- assets */
  'GET /assets/:hash/:filename': { path: (w) => `/assets/${w.files.main}/world.txt` },
  'POST /api/assets': { path: () => '/api/assets', request: () => ({ upload: [['files', 'matrix.txt', 'matrix upload', 'text/plain']] }) },
  'DELETE /api/assets/:hash': { path: (w) => `/api/assets/${w.files.spare}`, phase: 1 },

  /* ------------------------------------------------------------------- edit */
  'POST /api/edit/posts': { path: () => '/api/edit/posts', request: () => ({ json: {} }) },
  'PUT /api/edit/posts/:id': { path: (w) => `/api/edit/posts/${w.posts.main}`, request: () => ({ json: {} }) },
  'DELETE /api/edit/posts/:id': { path: (w) => `/api/edit/posts/${w.posts.spare}`, phase: 1 },
  'POST /api/edit/games': { path: () => '/api/edit/games', request: () => ({ json: {} }) },
  'GET /api/edit/games': { path: () => '/api/edit/games?count=5&skip=0' },
  'GET /api/edit/games/:id': { path: (w) => `/api/edit/games/${g(w)}` },
  'GET /api/edit/games/:id/teamhashsalt': { path: (w) => `/api/edit/games/${g(w)}/teamhashsalt` },
  'PUT /api/edit/games/:id': { path: (w) => `/api/edit/games/${g(w)}`, request: () => ({ json: {} }) },
  'DELETE /api/edit/games/:id': { path: (w) => `/api/edit/games/${w.spareGame.id}`, phase: 1 },
  'DELETE /api/edit/games/:id/writeups': { path: (w) => `/api/edit/games/${w.spareGame.id}/writeups` },
  'PUT /api/edit/games/:id/poster': { path: (w) => `/api/edit/games/${g(w)}/poster`, request: () => notAnImage('poster.png') },
  'POST /api/edit/games/:id/notices': { path: (w) => `/api/edit/games/${g(w)}/notices`, request: () => ({ json: {} }) },
  'GET /api/edit/games/:id/notices': { path: (w) => `/api/edit/games/${g(w)}/notices` },
  'PUT /api/edit/games/:id/notices/:noticeId': { path: (w) => `/api/edit/games/${g(w)}/notices/${w.notices.normal}`, request: () => ({ json: {} }) },
  'DELETE /api/edit/games/:id/notices/:noticeId': { path: (w) => `/api/edit/games/${g(w)}/notices/${w.notices.spare}`, phase: 1 },
  'POST /api/edit/games/:id/challenges': { path: (w) => `/api/edit/games/${g(w)}/challenges`, request: () => ({ json: {} }) },
  'GET /api/edit/games/:id/challenges': { path: (w) => `/api/edit/games/${g(w)}/challenges` },
  'GET /api/edit/games/:id/challenges/:cId': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}` },
  'PUT /api/edit/games/:id/challenges/:cId': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}`, request: () => ({ json: { title: '' } }) },
  'GET /api/edit/games/:id/challenges/:cId/hints': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/hints` },
  'PUT /api/edit/games/:id/challenges/:cId/hints': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/hints`, request: () => ({ json: { hints: 5 } }) },
  'GET /api/edit/games/:id/challenges/:cId/prerequisites': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/prerequisites` },
  'PUT /api/edit/games/:id/challenges/:cId/prerequisites': {
    path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/prerequisites`,
    request: () => ({ json: { prerequisites: 'x' } }),
  },
  'POST /api/edit/games/:id/challenges/:cId/container': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.container.id}/container` },
  'DELETE /api/edit/games/:id/challenges/:cId/container': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.container.id}/container` },
  'DELETE /api/edit/games/:id/challenges/:cId': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.spare.id}`, phase: 1 },
  'POST /api/edit/games/:id/challenges/:cId/attachment': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/attachment`, request: () => ({ json: [] }) },
  'POST /api/edit/games/:id/challenges/:cId/flags': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.static.id}/flags`, request: () => ({ json: {} }) },
  // Flagwave additions (docs/archive.md): an import that is not an archive is refused after authorization;
  // export and clone of the spare game write nothing the other rows read; the running game is refused an archive.
  'POST /api/edit/games/import': { path: () => '/api/edit/games/import', request: () => ({ upload: [['file', 'game.zip', 'not a zip', 'application/zip']] }) },
  'POST /api/edit/games/:id/export': { path: (w) => `/api/edit/games/${w.spareGame.id}/export` },
  'POST /api/edit/games/:id/clone': { path: (w) => `/api/edit/games/${w.spareGame.id}/clone` },
  'POST /api/edit/games/:id/archive': { path: (w) => `/api/edit/games/${g(w)}/archive`, request: () => ({ json: {} }) },
  'DELETE /api/edit/games/:id/challenges/:cId/flags/:fId': { path: (w) => `/api/edit/games/${g(w)}/challenges/${w.challenges.spare.id}/flags/${w.flags.spare.id}`, phase: 1 },
  // Flagwave's webhooks and CTFtime switch (docs/webhooks.md); bodies fail validation unless harmless.
  'GET /api/edit/games/:id/webhooks': { path: (w) => `/api/edit/games/${g(w)}/webhooks` },
  'POST /api/edit/games/:id/webhooks': { path: (w) => `/api/edit/games/${g(w)}/webhooks`, request: () => ({ json: {} }) },
  'PUT /api/edit/games/:id/webhooks/:webhookId': { path: (w) => `/api/edit/games/${g(w)}/webhooks/${w.webhooks.main}`, request: () => ({ json: {} }) },
  'DELETE /api/edit/games/:id/webhooks/:webhookId': { path: (w) => `/api/edit/games/${g(w)}/webhooks/${w.webhooks.spare}`, phase: 1 },
  'POST /api/edit/games/:id/webhooks/:webhookId/test': { path: (w) => `/api/edit/games/${g(w)}/webhooks/${w.webhooks.main}/test` },
  'GET /api/edit/games/:id/webhooks/:webhookId/deliveries': { path: (w) => `/api/edit/games/${g(w)}/webhooks/${w.webhooks.main}/deliveries` },
  'GET /api/edit/games/:id/ctftime': { path: (w) => `/api/edit/games/${g(w)}/ctftime` },
  'PUT /api/edit/games/:id/ctftime': { path: (w) => `/api/edit/games/${g(w)}/ctftime`, request: () => ({ json: { enabled: 'on' } }) },
  'GET /api/game/:id/ctftime': { path: (w) => `/api/game/${g(w)}/ctftime` },
  // The staged reveal (docs/scoring.md#staged-reveal): the world's game is not frozen, so a permitted admin gets 400.
  'GET /api/game/:id/reveal': { path: (w) => `/api/game/${g(w)}/reveal` },
  'POST /api/edit/games/:id/reveal': { path: (w) => `/api/edit/games/${g(w)}/reveal` },
  'POST /api/edit/games/:id/reveal/next': { path: (w) => `/api/edit/games/${g(w)}/reveal/next` },
  'POST /api/edit/games/:id/reveal/back': { path: (w) => `/api/edit/games/${g(w)}/reveal/back` },
  'PUT /api/edit/games/:id/reveal/auto': { path: (w) => `/api/edit/games/${g(w)}/reveal/auto`, request: () => ({ json: { intervalMs: 1 } }) },
  'POST /api/edit/games/:id/reveal/finish': { path: (w) => `/api/edit/games/${g(w)}/reveal/finish` },
  // A game that does not exist: a permitted caller gets 404 and the world's board is not frozen.
  'POST /api/edit/games/:id/freeze': { path: () => '/api/edit/games/999999/freeze' },
  'POST /api/edit/games/:id/unfreeze': { path: () => '/api/edit/games/999999/unfreeze' },

  /* ------------------------------------------------------------------- game */
  'GET /api/game': { path: () => '/api/game' },
  'GET /api/game/:id': { path: (w) => `/api/game/${g(w)}` },
  'POST /api/game/:id': { path: (w) => `/api/game/${g(w)}`, request: (w) => ({ json: { teamId: w.teams.a.id } }) },
  'DELETE /api/game/:id': { path: (w) => `/api/game/${g(w)}` },
  'GET /api/game/:id/scoreboard': { path: (w) => `/api/game/${g(w)}/scoreboard` },
  'GET /api/game/:id/notices': { path: (w) => `/api/game/${g(w)}/notices` },
  'GET /api/game/:id/events': { path: (w) => `/api/game/${g(w)}/events` },
  'GET /api/game/:id/submissions': { path: (w) => `/api/game/${g(w)}/submissions` },
  'GET /api/game/:id/cheatinfo': { path: (w) => `/api/game/${g(w)}/cheatinfo` },
  'GET /api/game/games/:id/captures': { path: (w) => `/api/game/games/${g(w)}/captures` },
  'GET /api/game/captures/:challengeId': { path: (w) => `/api/game/captures/${w.capture.challengeId}` },
  'GET /api/game/captures/:challengeId/:partId': { path: (w) => `/api/game/captures/${w.capture.challengeId}/${w.capture.participationId}` },
  'GET /api/game/captures/:challengeId/:partId/all': { path: (w) => `/api/game/captures/${w.capture.challengeId}/${w.capture.participationId}/all` },
  'GET /api/game/captures/:challengeId/:partId/:filename': { path: (w) => `/api/game/captures/${w.capture.challengeId}/${w.capture.participationId}/${w.capture.fileName}` },
  'GET /api/game/:id/details': { path: (w) => `/api/game/${g(w)}/details` },
  'GET /api/game/:id/participations': { path: (w) => `/api/game/${g(w)}/participations` },
  'GET /api/game/:id/scoreboardsheet': { path: (w) => `/api/game/${g(w)}/scoreboardsheet` },
  'GET /api/game/:id/submissionsheet': { path: (w) => `/api/game/${g(w)}/submissionsheet` },
  'GET /api/game/:id/challenges/:challengeId': { path: (w) => `/api/game/${g(w)}/challenges/${w.challenges.static.id}` },
  'POST /api/game/:id/challenges/:challengeId': { path: (w) => `/api/game/${g(w)}/challenges/${w.challenges.static.id}`, request: () => ({ json: { flag: 'flag{matrix}' } }) },
  // A hint that does not exist: a permitted caller passes the gate and gets 404, nobody's score moves.
  'POST /api/game/:id/challenges/:challengeId/hints/:hintId/unlock': { path: (w) => `/api/game/${g(w)}/challenges/${w.challenges.static.id}/hints/999999/unlock` },
  'GET /api/game/:id/challenges/:challengeId/status/:submitId': { path: (w) => `/api/game/${g(w)}/challenges/${w.challenges.static.id}/status/${w.submissionId}` },
  'GET /api/game/:id/writeup': { path: (w) => `/api/game/${g(w)}/writeup` },
  'POST /api/game/:id/writeup': { path: (w) => `/api/game/${g(w)}/writeup`, request: () => ({ upload: [['file', 'writeup.pdf', PDF_BYTES, 'application/pdf']] }) },
  'POST /api/game/:id/container/:challengeId': { path: (w) => `/api/game/${g(w)}/container/${w.challenges.container.id}` },
  'POST /api/game/:id/container/:challengeId/prolong': { path: (w) => `/api/game/${g(w)}/container/${w.challenges.container.id}/prolong` },
  'DELETE /api/game/:id/container/:challengeId': { path: (w) => `/api/game/${g(w)}/container/${w.challenges.container.id}`, phase: 1 },

  /* ------------------------------------------------------------------- info */
  'GET /api/posts/latest': { path: () => '/api/posts/latest' },
  'GET /api/posts': { path: () => '/api/posts' },
  'GET /api/posts/:id': { path: (w) => `/api/posts/${w.posts.main}` },
  'GET /api/config': { path: () => '/api/config' },
  'GET /api/captcha': { path: () => '/api/captcha' },

  /* ------------------------------------------------------------------ proxy */
  'GET /api/proxy/:id': { path: (w) => `/api/proxy/${w.containerId}` },
  'GET /api/proxy/noinst/:id': { path: (w) => `/api/proxy/noinst/${w.containerId}` },

  /* ------------------------------------------------------------------- team */
  'GET /api/team/:id': { path: (w) => `/api/team/${w.teams.a.id}` },
  'GET /api/team': { path: () => '/api/team' },
  'POST /api/team': { path: () => '/api/team', request: () => ({ json: { name: 'x'.repeat(40) } }) },
  'PUT /api/team/:id': { path: (w) => `/api/team/${w.teams.a.id}`, request: (w) => ({ json: { name: w.teams.a.name, bio: 'matrix' } }) },
  'PUT /api/team/:id/transfer': { path: (w) => `/api/team/${w.teams.a.id}/transfer`, request: (w) => ({ json: { newCaptainId: w.users.captain.user.id } }) },
  'GET /api/team/:id/invite': { path: (w) => `/api/team/${w.teams.a.id}/invite` },
  'PUT /api/team/:id/invite': { path: (w) => `/api/team/${w.teams.a.id}/invite` },
  'POST /api/team/:id/kick/:userid': { path: (w) => `/api/team/${w.teams.a.id}/kick/${w.users.user.user.id}` },
  'POST /api/team/accept': { path: () => '/api/team/accept', request: () => ({ json: 'not an invite code' }) },
  'POST /api/team/:id/leave': { path: (w) => `/api/team/${w.teams.a.id}/leave` },
  'PUT /api/team/:id/avatar': { path: (w) => `/api/team/${w.teams.a.id}/avatar`, request: () => notAnImage('team.png') },
  'DELETE /api/team/:id': { path: (w) => `/api/team/${w.teams.a.id}`, phase: 1 },

  /* ------------------------------------------- single sign-on (Flagwave) */
  'GET /api/account/sso': { path: () => '/api/account/sso' },
  'GET /api/account/sso/:provider': { path: () => '/api/account/sso/nope' },
  'GET /api/account/sso/:provider/callback': { path: () => '/api/account/sso/nope/callback?code=x&state=y' },
  'POST /api/account/sso/:provider/link': { path: () => '/api/account/sso/nope/link' },
  'GET /api/account/identities': { path: () => '/api/account/identities' },
  'DELETE /api/account/identities/:provider': { path: () => '/api/account/identities/nope' },
  'GET /api/admin/sso': { path: () => '/api/admin/sso' },
  'PUT /api/admin/sso': { path: () => '/api/admin/sso', request: () => ({ json: { ssoOnly: 'yes' } }) },
  'POST /api/admin/sso/providers': { path: () => '/api/admin/sso/providers', request: () => ({ json: {} }) },
  'PUT /api/admin/sso/providers/:provider': { path: () => '/api/admin/sso/providers/nope', request: () => ({ json: {} }) },
  'DELETE /api/admin/sso/providers/:provider': { path: () => '/api/admin/sso/providers/nope' },
  'POST /api/admin/config/logo': { path: () => '/api/admin/config/logo', request: () => notAnImage('logo.png') },
  'DELETE /api/admin/config/logo': { path: () => '/api/admin/config/logo' },
  'GET /api/edit/containers/provider': { path: () => '/api/edit/containers/provider' },

  /* ------------------------------------------------- Flagwave additions (ops) */
  // The matrix server sets neither METRICS_TOKEN nor METRICS_ALLOW: no session, not even Admin's, opens /metrics.
  'GET /metrics': { path: () => '/metrics' },
  'GET /readyz': { path: () => '/readyz' },

  /* ------------------------------------------- Flagwave: two-factor, tokens */
  'GET /api/account/2fa': { path: () => '/api/account/2fa' },
  'POST /api/account/2fa/enrol': { path: () => '/api/account/2fa/enrol' },
  'POST /api/account/2fa/confirm': { path: () => '/api/account/2fa/confirm', request: () => ({ json: { code: 'x' } }) },
  'POST /api/account/2fa/disable': { path: () => '/api/account/2fa/disable', request: () => ({ json: {} }) },
  'POST /api/account/2fa/recovery': { path: () => '/api/account/2fa/recovery', request: () => ({ json: {} }) },
  'DELETE /api/account/2fa/devices': { path: () => '/api/account/2fa/devices' },
  'POST /api/account/2fa/login': { path: () => '/api/account/2fa/login', request: () => ({ json: {} }) },
  'GET /api/account/tokens': { path: () => '/api/account/tokens' },
  'POST /api/account/tokens': { path: () => '/api/account/tokens', request: () => ({ json: {} }) },
  'DELETE /api/account/tokens/:id': { path: () => `/api/account/tokens/${MISSING_ID}` },
  'GET /api/tokens': { path: () => '/api/tokens' },
  'POST /api/tokens': { path: () => '/api/tokens', request: () => ({ json: {} }) },
  'POST /api/tokens/:id/restore': { path: () => `/api/tokens/${MISSING_ID}/restore` },
  'DELETE /api/tokens/:id': { path: () => `/api/tokens/${MISSING_ID}` },

  /* ------------------------------------------- newer GZ::CTF (tests/support/contract.ts NEWER_ENDPOINTS) */
  'GET /api/game/recent': { path: () => '/api/game/recent' },
  'GET /api/game/:id/check': { path: (w) => `/api/game/${g(w)}/check` },
  'POST /api/team/verify': { path: () => '/api/team/verify', request: () => ({ json: {} }) },
  'PUT /api/admin/participation/:id': { path: (w) => `/api/admin/participation/${w.participations.a.id}`, request: () => ({ json: { status: 'Nonsense' } }) },
  'POST /api/game/:id/container/:challengeId/extend': { path: (w) => `/api/game/${g(w)}/container/${w.challenges.container.id}/extend` },
  'GET /api/edit/games/:id/hashsalt': { path: (w) => `/api/edit/games/${g(w)}/hashsalt` },
  'POST /api/edit/games/:id/scoreboard/flush': { path: (w) => `/api/edit/games/${g(w)}/scoreboard/flush` },
  'GET /api/edit/games/:id/divisions': { path: (w) => `/api/edit/games/${g(w)}/divisions` },
  // Harmless for a permitted caller: a team with no captures, a file that does not exist (404).
  'DELETE /api/game/captures/:challengeId/:partId/all': { path: (w) => `/api/game/captures/${w.capture.challengeId}/999999/all` },
  'DELETE /api/game/captures/:challengeId/:partId/:filename': { path: (w) => `/api/game/captures/${w.capture.challengeId}/${w.capture.participationId}/missing.pcap` },
  'POST /api/edit/games/:id/divisions': { path: (w) => `/api/edit/games/${g(w)}/divisions`, request: () => ({ json: { name: '' } }) },
  'PUT /api/edit/games/:id/divisions/:divisionId': { path: (w) => `/api/edit/games/${g(w)}/divisions/999999`, request: () => ({ json: { name: 'x' } }) },
  'DELETE /api/edit/games/:id/divisions/:divisionId': { path: (w) => `/api/edit/games/${g(w)}/divisions/999999` },
}

/** What the contract prescribes for one caller on one endpoint. */
export type Outcome =
  /** 401 `{"title":"请先登录","status":401}` */
  | 'unauthorized'
  /** 403 `{"title":"无权访问","status":403}` */
  | 'forbidden'
  /** The context gate's 400 `{"title":"您尚未参赛","status":400}` */
  | 'notJoined'
  /** Anything but 401/403 (and never a 5xx). */
  | 'permitted'
  /** 404 ProblemDetails `Not Found`, as for a path that does not exist (`/metrics` without its token or address). */
  | 'hidden'

export function expectedOutcome(route: RouteSpec, contract: ContractEndpoint, caller: Caller): Outcome {
  const role = CALLER_ROLE[caller]
  if (contract.extra.includes('metrics')) return 'hidden'
  if (!route.role) return 'permitted'
  if (role === null) return 'unauthorized'
  if (roleRank(role) < roleRank(route.role as Role)) return 'forbidden'
  if (contract.extra.includes('captain')) return caller === 'captain' ? 'permitted' : 'forbidden'
  if (contract.extra.includes('gate')) return caller === 'captain' || caller === 'user' ? 'permitted' : 'notJoined'
  return 'permitted'
}


export const contractRowOf = (route: RouteSpec): ContractEndpoint | undefined => ALL_ENDPOINTS.find((e) => routeKey(e.method, e.path) === routeKey(route.method, route.path))

export const specKey = (route: RouteSpec) => `${route.method} ${route.path}`

/** Send a matrix request with a caller's client. */
export function send(client: ApiClient, method: string, path: string, request: MatrixRequest = {}): Promise<ApiResponse> {
  if ('json' in request) return client.request(method, path, { json: request.json })
  if ('raw' in request) return client.request(method, path, { body: request.raw, headers: { 'content-type': request.contentType } })
  if ('upload' in request) return client.upload(method as 'POST' | 'PUT', path, request.upload)
  return client.request(method, path)
}

/** Why `res` is not what `outcome` prescribes, or null when it is (the permission and token-scope matrices). */
export function outcomeProblem(outcome: Outcome, res: { status: number; body: unknown; text: string }): string | null {
  const body = JSON.stringify(res.body)
  const is = (status: number, want: object) => (res.status === status && body === JSON.stringify(want) ? null : `expected ${status} ${JSON.stringify(want)}, got ${res.status} ${res.text.slice(0, 200)}`)
  switch (outcome) {
    case 'unauthorized':
      return is(401, { title: '请先登录', status: 401 })
    case 'forbidden':
      return is(403, { title: '无权访问', status: 403 })
    case 'notJoined':
      return is(400, { title: '您尚未参赛', status: 400 })
    case 'hidden':
      return res.status === 404 && (res.body as { title?: string } | null)?.title === 'Not Found' ? null : `expected 404 Not Found, got ${res.status} ${res.text.slice(0, 200)}`
    case 'permitted':
      return res.status !== 401 && res.status !== 403 && res.status < 500 ? null : `expected to pass authorization, got ${res.status} ${res.text.slice(0, 200)}`
  }
}
