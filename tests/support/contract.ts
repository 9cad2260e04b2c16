/**
 * docs/compatibility.md#routes-by-group, the endpoint index of GZ::CTF v0.17.6 (105 endpoints), as data for the
 * permission matrix and the conformance test (copied from the contract so the suite runs anywhere).
 */
type ContractCaller = 'anon' | 'User' | 'Monitor' | 'Admin'

export interface ContractEndpoint {
  n: number
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  caller: ContractCaller
  /** Extra checks: context gate, captain only, team member, own submission; `metrics`: only METRICS_TOKEN or METRICS_ALLOW, never a session (404 otherwise). */
  extra: ('gate' | 'captain' | 'member' | 'own' | 'metrics')[]
  rateLimit: string | null
  success: string
}

export const CONTRACT_ENDPOINTS: ContractEndpoint[] = [
  { n: 1, method: 'POST', path: '/api/account/register', caller: 'anon', extra: [], rateLimit: 'Register', success: 'RequestResponse<RegisterStatus>' },
  { n: 2, method: 'POST', path: '/api/account/recovery', caller: 'anon', extra: [], rateLimit: 'Register', success: 'RequestResponse' },
  { n: 3, method: 'POST', path: '/api/account/passwordreset', caller: 'anon', extra: [], rateLimit: 'Register', success: 'empty' },
  { n: 4, method: 'POST', path: '/api/account/verify', caller: 'anon', extra: [], rateLimit: null, success: 'empty (+cookie)' },
  { n: 5, method: 'POST', path: '/api/account/login', caller: 'anon', extra: [], rateLimit: null, success: 'empty (+cookie)' },
  { n: 6, method: 'POST', path: '/api/account/logout', caller: 'User', extra: [], rateLimit: null, success: 'empty (cookie cleared)' },
  { n: 7, method: 'PUT', path: '/api/account/update', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 8, method: 'PUT', path: '/api/account/changepassword', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 9, method: 'PUT', path: '/api/account/changeemail', caller: 'User', extra: [], rateLimit: 'Register', success: 'RequestResponse<bool>' },
  { n: 10, method: 'POST', path: '/api/account/mailchangeconfirm', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 11, method: 'GET', path: '/api/account/profile', caller: 'User', extra: [], rateLimit: null, success: 'ProfileUserInfoModel' },
  { n: 12, method: 'PUT', path: '/api/account/avatar', caller: 'User', extra: [], rateLimit: null, success: 'string (URL)' },
  { n: 13, method: 'GET', path: '/api/admin/config', caller: 'Admin', extra: [], rateLimit: null, success: 'ConfigEditModel' },
  { n: 14, method: 'PUT', path: '/api/admin/config', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 15, method: 'GET', path: '/api/admin/users', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<UserInfoModel>' },
  { n: 16, method: 'POST', path: '/api/admin/users', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 17, method: 'POST', path: '/api/admin/users/search', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<UserInfoModel>' },
  { n: 18, method: 'GET', path: '/api/admin/teams', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<TeamInfoModel>' },
  { n: 19, method: 'POST', path: '/api/admin/teams/search', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<TeamInfoModel>' },
  { n: 20, method: 'PUT', path: '/api/admin/teams/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 21, method: 'PUT', path: '/api/admin/users/{userid}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 22, method: 'DELETE', path: '/api/admin/users/{userid}/password', caller: 'Admin', extra: [], rateLimit: null, success: 'string (password)' },
  { n: 23, method: 'DELETE', path: '/api/admin/users/{userid}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 24, method: 'DELETE', path: '/api/admin/teams/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 25, method: 'GET', path: '/api/admin/users/{userid}', caller: 'Admin', extra: [], rateLimit: null, success: 'ProfileUserInfoModel' },
  { n: 26, method: 'GET', path: '/api/admin/logs', caller: 'Admin', extra: [], rateLimit: null, success: 'LogMessageModel[]' },
  { n: 27, method: 'PUT', path: '/api/admin/participation/{id}/{status}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 28, method: 'GET', path: '/api/admin/writeups/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'WriteupInfoModel[]' },
  { n: 29, method: 'GET', path: '/api/admin/writeups/{id}/all', caller: 'Admin', extra: [], rateLimit: null, success: 'zip file' },
  { n: 30, method: 'GET', path: '/api/admin/instances', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<ContainerInstanceModel>' },
  { n: 31, method: 'DELETE', path: '/api/admin/instances/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 32, method: 'GET', path: '/api/admin/files', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<LocalFile>' },
  { n: 33, method: 'GET', path: '/assets/{hash}/{filename}', caller: 'anon', extra: [], rateLimit: null, success: 'file bytes' },
  { n: 34, method: 'POST', path: '/api/assets', caller: 'Admin', extra: [], rateLimit: null, success: 'LocalFile[]' },
  { n: 35, method: 'DELETE', path: '/api/assets/{hash}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 36, method: 'POST', path: '/api/edit/posts', caller: 'Admin', extra: [], rateLimit: null, success: 'string (post id)' },
  { n: 37, method: 'PUT', path: '/api/edit/posts/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'PostDetailModel' },
  { n: 38, method: 'DELETE', path: '/api/edit/posts/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 39, method: 'POST', path: '/api/edit/games', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 40, method: 'GET', path: '/api/edit/games', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<GameInfoModel>' },
  { n: 41, method: 'GET', path: '/api/edit/games/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 42, method: 'GET', path: '/api/edit/games/{id}/teamhashsalt', caller: 'Admin', extra: [], rateLimit: null, success: 'string' },
  { n: 43, method: 'PUT', path: '/api/edit/games/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 44, method: 'DELETE', path: '/api/edit/games/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 45, method: 'DELETE', path: '/api/edit/games/{id}/writeups', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 46, method: 'PUT', path: '/api/edit/games/{id}/poster', caller: 'Admin', extra: [], rateLimit: null, success: 'string (URL)' },
  { n: 47, method: 'POST', path: '/api/edit/games/{id}/notices', caller: 'Admin', extra: [], rateLimit: null, success: 'GameNotice' },
  { n: 48, method: 'GET', path: '/api/edit/games/{id}/notices', caller: 'Admin', extra: [], rateLimit: null, success: 'GameNotice[]' },
  { n: 49, method: 'PUT', path: '/api/edit/games/{id}/notices/{noticeId}', caller: 'Admin', extra: [], rateLimit: null, success: 'GameNotice' },
  { n: 50, method: 'DELETE', path: '/api/edit/games/{id}/notices/{noticeId}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 51, method: 'POST', path: '/api/edit/games/{id}/challenges', caller: 'Admin', extra: [], rateLimit: null, success: 'ChallengeEditDetailModel' },
  { n: 52, method: 'GET', path: '/api/edit/games/{id}/challenges', caller: 'Admin', extra: [], rateLimit: null, success: 'ChallengeInfoModel[]' },
  { n: 53, method: 'GET', path: '/api/edit/games/{id}/challenges/{cId}', caller: 'Admin', extra: [], rateLimit: null, success: 'ChallengeEditDetailModel' },
  { n: 54, method: 'PUT', path: '/api/edit/games/{id}/challenges/{cId}', caller: 'Admin', extra: [], rateLimit: null, success: 'ChallengeEditDetailModel' },
  { n: 55, method: 'POST', path: '/api/edit/games/{id}/challenges/{cId}/container', caller: 'Admin', extra: [], rateLimit: null, success: 'ContainerInfoModel' },
  { n: 56, method: 'DELETE', path: '/api/edit/games/{id}/challenges/{cId}/container', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 57, method: 'DELETE', path: '/api/edit/games/{id}/challenges/{cId}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 58, method: 'POST', path: '/api/edit/games/{id}/challenges/{cId}/attachment', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 59, method: 'POST', path: '/api/edit/games/{id}/challenges/{cId}/flags', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 60, method: 'DELETE', path: '/api/edit/games/{id}/challenges/{cId}/flags/{fId}', caller: 'Admin', extra: [], rateLimit: null, success: 'TaskStatus (string)' },
  { n: 61, method: 'GET', path: '/api/game', caller: 'anon', extra: [], rateLimit: null, success: 'BasicGameInfoModel[]' },
  { n: 62, method: 'GET', path: '/api/game/{id}', caller: 'anon', extra: [], rateLimit: null, success: 'DetailedGameInfoModel' },
  { n: 63, method: 'POST', path: '/api/game/{id}', caller: 'User', extra: ['member'], rateLimit: null, success: 'empty' },
  { n: 64, method: 'DELETE', path: '/api/game/{id}', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 65, method: 'GET', path: '/api/game/{id}/scoreboard', caller: 'anon', extra: [], rateLimit: null, success: 'ScoreboardModel' },
  { n: 66, method: 'GET', path: '/api/game/{id}/notices', caller: 'anon', extra: [], rateLimit: null, success: 'GameNotice[]' },
  { n: 67, method: 'GET', path: '/api/game/{id}/events', caller: 'Monitor', extra: [], rateLimit: null, success: 'GameEvent[]' },
  { n: 68, method: 'GET', path: '/api/game/{id}/submissions', caller: 'Monitor', extra: [], rateLimit: null, success: 'Submission[]' },
  { n: 69, method: 'GET', path: '/api/game/{id}/cheatinfo', caller: 'Monitor', extra: [], rateLimit: null, success: 'CheatInfoModel[]' },
  { n: 70, method: 'GET', path: '/api/game/games/{id}/captures', caller: 'Monitor', extra: [], rateLimit: null, success: 'ChallengeTrafficModel[]' },
  { n: 71, method: 'GET', path: '/api/game/captures/{challengeId}', caller: 'Monitor', extra: [], rateLimit: null, success: 'TeamTrafficModel[]' },
  { n: 72, method: 'GET', path: '/api/game/captures/{challengeId}/{partId}', caller: 'Monitor', extra: [], rateLimit: null, success: 'FileRecord[]' },
  { n: 73, method: 'GET', path: '/api/game/captures/{challengeId}/{partId}/all', caller: 'Monitor', extra: [], rateLimit: null, success: 'zip file' },
  { n: 74, method: 'GET', path: '/api/game/captures/{challengeId}/{partId}/{filename}', caller: 'Monitor', extra: [], rateLimit: null, success: 'pcap file' },
  { n: 75, method: 'GET', path: '/api/game/{id}/details', caller: 'User', extra: ['gate'], rateLimit: null, success: 'GameDetailModel' },
  { n: 76, method: 'GET', path: '/api/game/{id}/participations', caller: 'Admin', extra: [], rateLimit: null, success: 'ParticipationInfoModel[]' },
  { n: 77, method: 'GET', path: '/api/game/{id}/scoreboardsheet', caller: 'Monitor', extra: [], rateLimit: null, success: 'xlsx file' },
  { n: 78, method: 'GET', path: '/api/game/{id}/submissionsheet', caller: 'Monitor', extra: [], rateLimit: null, success: 'xlsx file' },
  { n: 79, method: 'GET', path: '/api/game/{id}/challenges/{challengeId}', caller: 'User', extra: ['gate'], rateLimit: null, success: 'ChallengeDetailModel' },
  { n: 80, method: 'POST', path: '/api/game/{id}/challenges/{challengeId}', caller: 'User', extra: ['gate'], rateLimit: 'Submit', success: 'int (submission id)' },
  { n: 81, method: 'GET', path: '/api/game/{id}/challenges/{challengeId}/status/{submitId}', caller: 'User', extra: ['own'], rateLimit: null, success: 'AnswerResult (string)' },
  { n: 82, method: 'GET', path: '/api/game/{id}/writeup', caller: 'User', extra: ['gate'], rateLimit: null, success: 'BasicWriteupInfoModel' },
  { n: 83, method: 'POST', path: '/api/game/{id}/writeup', caller: 'User', extra: ['gate'], rateLimit: null, success: 'empty' },
  { n: 84, method: 'POST', path: '/api/game/{id}/container/{challengeId}', caller: 'User', extra: ['gate'], rateLimit: 'Container', success: 'ContainerInfoModel' },
  { n: 85, method: 'POST', path: '/api/game/{id}/container/{challengeId}/prolong', caller: 'User', extra: ['gate'], rateLimit: 'Container', success: 'ContainerInfoModel' },
  { n: 86, method: 'DELETE', path: '/api/game/{id}/container/{challengeId}', caller: 'User', extra: ['gate'], rateLimit: 'Container', success: 'empty' },
  { n: 87, method: 'GET', path: '/api/posts/latest', caller: 'anon', extra: [], rateLimit: null, success: 'PostInfoModel[]' },
  { n: 88, method: 'GET', path: '/api/posts', caller: 'anon', extra: [], rateLimit: null, success: 'PostInfoModel[]' },
  { n: 89, method: 'GET', path: '/api/posts/{id}', caller: 'anon', extra: [], rateLimit: null, success: 'PostDetailModel' },
  { n: 90, method: 'GET', path: '/api/config', caller: 'anon', extra: [], rateLimit: null, success: 'GlobalConfig' },
  { n: 91, method: 'GET', path: '/api/captcha', caller: 'anon', extra: [], rateLimit: null, success: 'ClientCaptchaInfoModel' },
  { n: 92, method: 'GET', path: '/api/proxy/{id}', caller: 'anon', extra: [], rateLimit: null, success: '101 / 204' },
  { n: 93, method: 'GET', path: '/api/proxy/noinst/{id}', caller: 'anon', extra: [], rateLimit: null, success: '101 / 204' },
  { n: 94, method: 'GET', path: '/api/team/{id}', caller: 'anon', extra: [], rateLimit: null, success: 'TeamInfoModel' },
  { n: 95, method: 'GET', path: '/api/team', caller: 'User', extra: [], rateLimit: null, success: 'TeamInfoModel[]' },
  { n: 96, method: 'POST', path: '/api/team', caller: 'User', extra: [], rateLimit: 'Concurrency', success: 'TeamInfoModel' },
  { n: 97, method: 'PUT', path: '/api/team/{id}', caller: 'User', extra: ['captain'], rateLimit: null, success: 'TeamInfoModel' },
  { n: 98, method: 'PUT', path: '/api/team/{id}/transfer', caller: 'User', extra: ['captain'], rateLimit: null, success: 'TeamInfoModel' },
  { n: 99, method: 'GET', path: '/api/team/{id}/invite', caller: 'User', extra: ['captain'], rateLimit: null, success: 'string (invite code)' },
  { n: 100, method: 'PUT', path: '/api/team/{id}/invite', caller: 'User', extra: ['captain'], rateLimit: null, success: 'string (invite code)' },
  { n: 101, method: 'POST', path: '/api/team/{id}/kick/{userid}', caller: 'User', extra: ['captain'], rateLimit: null, success: 'TeamInfoModel' },
  { n: 102, method: 'POST', path: '/api/team/accept', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 103, method: 'POST', path: '/api/team/{id}/leave', caller: 'User', extra: ['member'], rateLimit: null, success: 'empty' },
  { n: 104, method: 'PUT', path: '/api/team/{id}/avatar', caller: 'User', extra: ['captain'], rateLimit: null, success: 'string (URL)' },
  { n: 105, method: 'DELETE', path: '/api/team/{id}', caller: 'User', extra: ['captain'], rateLimit: null, success: 'empty' },
]

/**
 * Endpoints Flagwave adds beyond the contract (docs/compatibility.md#scope), with the same
 * columns, so the permission matrix and the route-table test cover them too.
 */
export const FLAGWAVE_ENDPOINTS: ContractEndpoint[] = [
  { n: 1001, method: 'GET', path: '/api/edit/games/{id}/webhooks', caller: 'Admin', extra: [], rateLimit: null, success: 'WebhookModel[]' },
  { n: 1002, method: 'POST', path: '/api/edit/games/{id}/webhooks', caller: 'Admin', extra: [], rateLimit: null, success: 'WebhookModel' },
  { n: 1003, method: 'PUT', path: '/api/edit/games/{id}/webhooks/{webhookId}', caller: 'Admin', extra: [], rateLimit: null, success: 'WebhookModel' },
  { n: 1004, method: 'DELETE', path: '/api/edit/games/{id}/webhooks/{webhookId}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 1005, method: 'POST', path: '/api/edit/games/{id}/webhooks/{webhookId}/test', caller: 'Admin', extra: [], rateLimit: null, success: 'WebhookDeliveryModel' },
  { n: 1006, method: 'GET', path: '/api/edit/games/{id}/webhooks/{webhookId}/deliveries', caller: 'Admin', extra: [], rateLimit: null, success: 'ArrayResponse<WebhookDeliveryModel>' },
  { n: 1007, method: 'GET', path: '/api/edit/games/{id}/ctftime', caller: 'Admin', extra: [], rateLimit: null, success: 'CtftimeSetting' },
  { n: 1008, method: 'PUT', path: '/api/edit/games/{id}/ctftime', caller: 'Admin', extra: [], rateLimit: null, success: 'CtftimeSetting' },
  { n: 1009, method: 'GET', path: '/api/game/{id}/ctftime', caller: 'anon', extra: [], rateLimit: null, success: 'CtftimeFeed' },
  { n: 1010, method: 'POST', path: '/api/edit/games/{id}/freeze', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 1011, method: 'POST', path: '/api/edit/games/{id}/unfreeze', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 1101, method: 'POST', path: '/api/edit/games/import', caller: 'Admin', extra: [], rateLimit: null, success: 'GameImportResult' },
  { n: 1102, method: 'POST', path: '/api/edit/games/{id}/export', caller: 'Admin', extra: [], rateLimit: null, success: 'zip file' },
  { n: 1103, method: 'POST', path: '/api/edit/games/{id}/clone', caller: 'Admin', extra: [], rateLimit: null, success: 'GameInfoModel' },
  { n: 1104, method: 'POST', path: '/api/edit/games/{id}/archive', caller: 'Admin', extra: [], rateLimit: null, success: 'zip file' },
  { n: 1201, method: 'GET', path: '/api/account/sso', caller: 'anon', extra: [], rateLimit: null, success: 'SsoInfoModel' },
  { n: 1202, method: 'GET', path: '/api/account/sso/{provider}', caller: 'anon', extra: [], rateLimit: 'Login', success: '302 to the provider' },
  { n: 1203, method: 'GET', path: '/api/account/sso/{provider}/callback', caller: 'anon', extra: [], rateLimit: 'Login', success: '302 to the return path (+cookie)' },
  { n: 1204, method: 'POST', path: '/api/account/sso/{provider}/link', caller: 'User', extra: [], rateLimit: 'Login', success: 'SsoLinkResponse' },
  { n: 1205, method: 'GET', path: '/api/account/identities', caller: 'User', extra: [], rateLimit: null, success: 'SsoIdentityModel[]' },
  { n: 1206, method: 'DELETE', path: '/api/account/identities/{provider}', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 1207, method: 'GET', path: '/api/admin/sso', caller: 'Admin', extra: [], rateLimit: null, success: 'SsoAdminModel' },
  { n: 1208, method: 'PUT', path: '/api/admin/sso', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 1209, method: 'PUT', path: '/api/admin/sso/providers/{provider}', caller: 'Admin', extra: [], rateLimit: null, success: 'SsoProviderAdminModel' },
  { n: 1211, method: 'POST', path: '/api/admin/sso/providers', caller: 'Admin', extra: [], rateLimit: null, success: 'SsoProviderAdminModel' },
  { n: 1210, method: 'DELETE', path: '/api/admin/sso/providers/{provider}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 1301, method: 'GET', path: '/metrics', caller: 'anon', extra: ['metrics'], rateLimit: null, success: 'Prometheus text' },
  { n: 1302, method: 'GET', path: '/readyz', caller: 'anon', extra: [], rateLimit: null, success: 'ReadinessModel' },
  { n: 1401, method: 'GET', path: '/api/account/2fa', caller: 'User', extra: [], rateLimit: null, success: 'TwoFactorStatusModel' },
  { n: 1402, method: 'POST', path: '/api/account/2fa/enrol', caller: 'User', extra: [], rateLimit: null, success: 'TwoFactorEnrolmentModel' },
  { n: 1403, method: 'POST', path: '/api/account/2fa/confirm', caller: 'User', extra: [], rateLimit: 'Login', success: 'RecoveryCodesModel' },
  { n: 1404, method: 'POST', path: '/api/account/2fa/disable', caller: 'User', extra: [], rateLimit: 'Login', success: 'empty' },
  { n: 1405, method: 'POST', path: '/api/account/2fa/recovery', caller: 'User', extra: [], rateLimit: 'Login', success: 'RecoveryCodesModel' },
  { n: 1406, method: 'DELETE', path: '/api/account/2fa/devices', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 1407, method: 'POST', path: '/api/account/2fa/login', caller: 'anon', extra: [], rateLimit: 'Login', success: 'empty (+cookie)' },
  { n: 1408, method: 'GET', path: '/api/account/tokens', caller: 'User', extra: [], rateLimit: null, success: 'TokenInfoModel[]' },
  { n: 1409, method: 'POST', path: '/api/account/tokens', caller: 'User', extra: [], rateLimit: null, success: 'TokenCreatedModel' },
  { n: 1410, method: 'DELETE', path: '/api/account/tokens/{id}', caller: 'User', extra: [], rateLimit: null, success: 'empty' },
  { n: 1411, method: 'GET', path: '/api/tokens', caller: 'Admin', extra: [], rateLimit: null, success: 'GzTokenModel[]' },
  { n: 1412, method: 'POST', path: '/api/tokens', caller: 'Admin', extra: [], rateLimit: null, success: 'GzTokenCreatedModel' },
  { n: 1413, method: 'POST', path: '/api/tokens/{id}/restore', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 1414, method: 'DELETE', path: '/api/tokens/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  // 1901+: branding (newer GZ::CTF's logo routes).
  { n: 1901, method: 'POST', path: '/api/admin/config/logo', caller: 'Admin', extra: [], rateLimit: null, success: 'string (URL)' },
  { n: 1902, method: 'DELETE', path: '/api/admin/config/logo', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  // 1951+: container diagnostics.
  { n: 1951, method: 'GET', path: '/api/edit/containers/provider', caller: 'Admin', extra: [], rateLimit: null, success: 'ContainerProviderModel' },
  // 1701+: the staged reveal (docs/scoring.md#staged-reveal).
  { n: 1701, method: 'GET', path: '/api/game/{id}/reveal', caller: 'anon', extra: [], rateLimit: null, success: 'RevealState' },
  { n: 1702, method: 'POST', path: '/api/edit/games/{id}/reveal', caller: 'Admin', extra: [], rateLimit: null, success: 'RevealState' },
  { n: 1703, method: 'POST', path: '/api/edit/games/{id}/reveal/next', caller: 'Admin', extra: [], rateLimit: null, success: 'RevealState' },
  { n: 1704, method: 'POST', path: '/api/edit/games/{id}/reveal/back', caller: 'Admin', extra: [], rateLimit: null, success: 'RevealState' },
  { n: 1705, method: 'PUT', path: '/api/edit/games/{id}/reveal/auto', caller: 'Admin', extra: [], rateLimit: null, success: 'RevealState' },
  { n: 1706, method: 'POST', path: '/api/edit/games/{id}/reveal/finish', caller: 'Admin', extra: [], rateLimit: null, success: 'RevealState' },
  // 2101+: challenge rules (docs/challenge-rules.md): costed hints and prerequisites.
  { n: 2101, method: 'GET', path: '/api/edit/games/{id}/challenges/{cId}/hints', caller: 'Admin', extra: [], rateLimit: null, success: 'CostedHint[]' },
  { n: 2102, method: 'PUT', path: '/api/edit/games/{id}/challenges/{cId}/hints', caller: 'Admin', extra: [], rateLimit: null, success: 'CostedHint[]' },
  { n: 2103, method: 'GET', path: '/api/edit/games/{id}/challenges/{cId}/prerequisites', caller: 'Admin', extra: [], rateLimit: null, success: 'PrerequisitesModel' },
  { n: 2104, method: 'PUT', path: '/api/edit/games/{id}/challenges/{cId}/prerequisites', caller: 'Admin', extra: [], rateLimit: null, success: 'PrerequisitesModel' },
  { n: 2105, method: 'POST', path: '/api/game/{id}/challenges/{challengeId}/hints/{hintId}/unlock', caller: 'User', extra: ['gate'], rateLimit: null, success: 'CostedHintState[]' },
]

/**
 * Endpoints of newer GZ::CTF versions that Flagwave serves beside v0.17.6's
 * (docs/compatibility.md#newer-gzctf-versions), with the version that introduced them. Numbered from 201 so that a
 * row never shares a number with the v0.17.6 index.
 */
export const NEWER_ENDPOINTS: (ContractEndpoint & { since: string })[] = [
  { n: 201, since: '1.2', method: 'GET', path: '/api/game/recent', caller: 'anon', extra: [], rateLimit: null, success: 'BasicGameInfoModel[]' },
  { n: 202, since: '1.7', method: 'GET', path: '/api/game/{id}/check', caller: 'User', extra: [], rateLimit: null, success: 'GameJoinCheckInfoModel' },
  { n: 203, since: '1.0', method: 'POST', path: '/api/team/verify', caller: 'anon', extra: [], rateLimit: null, success: 'empty' },
  { n: 204, since: '1.7', method: 'PUT', path: '/api/admin/participation/{id}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 205, since: '0.18p', method: 'POST', path: '/api/game/{id}/container/{challengeId}/extend', caller: 'User', extra: ['gate'], rateLimit: 'Container', success: 'ContainerInfoModel' },
  { n: 206, since: '0.22', method: 'GET', path: '/api/edit/games/{id}/hashsalt', caller: 'Admin', extra: [], rateLimit: null, success: 'string' },
  { n: 207, since: '1.0', method: 'POST', path: '/api/edit/games/{id}/scoreboard/flush', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
  { n: 208, since: '1.7', method: 'GET', path: '/api/edit/games/{id}/divisions', caller: 'Admin', extra: [], rateLimit: null, success: 'Division[]' },
  { n: 209, since: '1.0', method: 'DELETE', path: '/api/game/captures/{challengeId}/{partId}/all', caller: 'Monitor', extra: [], rateLimit: null, success: 'empty' },
  { n: 210, since: '1.0', method: 'DELETE', path: '/api/game/captures/{challengeId}/{partId}/{filename}', caller: 'Monitor', extra: [], rateLimit: null, success: 'empty' },
  { n: 211, since: '1.7', method: 'POST', path: '/api/edit/games/{id}/divisions', caller: 'Admin', extra: [], rateLimit: null, success: 'Division' },
  { n: 212, since: '1.7', method: 'PUT', path: '/api/edit/games/{id}/divisions/{divisionId}', caller: 'Admin', extra: [], rateLimit: null, success: 'Division' },
  { n: 213, since: '1.7', method: 'DELETE', path: '/api/edit/games/{id}/divisions/{divisionId}', caller: 'Admin', extra: [], rateLimit: null, success: 'empty' },
]

/** Every endpoint Flagwave serves: v0.17.6's index, the newer GZ::CTF rows and Flagwave's own additions. */
export const ALL_ENDPOINTS: ContractEndpoint[] = [...CONTRACT_ENDPOINTS, ...NEWER_ENDPOINTS, ...FLAGWAVE_ENDPOINTS]

/**
 * Per wire shape, the members v0.17.6 sends and the members newer GZ::CTF versions added beside
 * them (docs/compatibility.md#newer-gzctf-versions). The conformance test checks that an answer carries both sets.
 */
export const SHAPE_MEMBERS: Record<string, { v0176: string[]; newer: string[] }> = {
  GameNotice: { v0176: ['id', 'type', 'content', 'time'], newer: ['values'] },
  GameEvent: { v0176: ['type', 'content', 'time', 'user', 'team'], newer: ['values'] },
  DetailedGameInfoModel: {
    v0176: ['id', 'title', 'summary', 'content', 'hidden', 'organizations', 'inviteCodeRequired', 'poster', 'limit', 'teamCount', 'organization', 'teamName', 'practiceMode', 'status', 'start', 'end'],
    newer: ['writeupRequired', 'division', 'divisions'],
  },
  GameDetailModel: { v0176: ['challenges', 'rank', 'teamToken', 'wpddl'], newer: ['writeupDeadline', 'writeupRequired', 'challengeCount'] },
  GameInfoModel: { v0176: ['wpddl', 'wpNote', 'bloodBonus'], newer: ['writeupDeadline', 'writeupNote', 'writeupRequired'] },
  ScoreboardModel: { v0176: ['updateTimeUTC', 'bloodBonus', 'timeLines', 'items', 'challenges'], newer: ['updateTimeUtc', 'timelines', 'challengeCount', 'divisions'] },
  ScoreboardItem: {
    v0176: ['id', 'name', 'bio', 'organization', 'avatar', 'score', 'rank', 'organizationRank', 'solvedCount', 'lastSubmissionTime', 'challenges'],
    newer: ['solvedChallenges', 'divisionId', 'divisionRank'],
  },
  ChallengeInfo: { v0176: ['id', 'title', 'tag', 'score', 'solved', 'bloods'], newer: ['category', 'disableBloodBonus', 'deadline'] },
  Blood: { v0176: ['id', 'name', 'avatar', 'submitTimeUTC'], newer: ['submitTimeUtc'] },
  ChallengeDetailModel: { v0176: ['id', 'title', 'content', 'tag', 'hints', 'score', 'type', 'context'], newer: ['category', 'limit', 'attempts', 'deadline'] },
  ParticipationInfoModel: { v0176: ['id', 'team', 'registeredMembers', 'organization', 'status'], newer: ['division', 'divisionId'] },
  UserInfoModel: { v0176: ['registerTimeUTC', 'lastVisitedUTC'], newer: ['registerTimeUtc', 'lastVisitedUtc'] },
  WriteupInfoModel: { v0176: ['id', 'team', 'url', 'uploadTimeUTC'], newer: ['uploadTimeUtc'] },
  ChallengeEditDetailModel: {
    v0176: ['id', 'title', 'content', 'tag', 'type', 'hints', 'flagTemplate', 'isEnabled', 'acceptedCount', 'fileName', 'attachment', 'testContainer', 'flags', 'containerImage', 'memoryLimit', 'cpuCount', 'storageLimit', 'containerExposePort', 'enableTrafficCapture', 'originalScore', 'minScoreRate', 'difficulty'],
    newer: ['category', 'exposePort', 'disableBloodBonus', 'submissionLimit', 'deadlineUtc', 'networkMode'],
  },
  ChallengeInfoModel: { v0176: ['id', 'title', 'tag', 'type', 'isEnabled', 'score', 'minScore', 'originalScore'], newer: ['category'] },
  ChallengeTrafficModel: { v0176: ['id', 'title', 'tag', 'type', 'isEnabled', 'count'], newer: ['category'] },
  ChallengeModel: { v0176: ['id', 'title', 'tag'], newer: ['category'] },
}
