/**
 * The route table: every endpoint of the platform, in the contract's group order (docs/compatibility.md#routes-by-group).
 * The permission matrix and conformance tests iterate this list.
 */
import type { RouteSpec } from '../http/route.js'
import { accountRoutes } from './account.js'
import { twoFactorRoutes } from './twoFactor.js'
import { tokenRoutes } from './tokens.js'
import { adminUserRoutes } from './adminUsers.js'
import { adminConfigRoutes } from './adminConfig.js'
import { adminInstanceRoutes } from './adminInstances.js'
import { participationRoutes } from './participation.js'
import { assetRoutes } from './assets.js'
import { postRoutes } from './posts.js'
import { editGameRoutes } from './editGames.js'
import { editContainerRoutes } from './editContainers.js'
import { gameArchiveRoutes } from './gameArchive.js'
import { gameRoutes } from './game.js'
import { submissionRoutes } from './submissions.js'
import { gameMonitorRoutes } from './gameMonitor.js'
import { containerRoutes } from './containers.js'
import { captureRoutes } from './captures.js'
import { infoRoutes } from './info.js'
import { proxyRoutes } from './proxy.js'
import { teamRoutes } from './team.js'
import { ctftimeRoutes, webhookRoutes } from './webhooks.js'
import { ssoRoutes } from './sso.js'
import { opsRoutes } from './ops.js'
import { revealRoutes } from './reveal.js'

export const allRoutes: RouteSpec[] = [
  ...accountRoutes,
  ...adminUserRoutes,
  ...adminConfigRoutes,
  ...adminInstanceRoutes,
  ...participationRoutes,
  ...assetRoutes,
  ...postRoutes,
  ...editGameRoutes,
  // Flagwave: the staged reveal (docs/scoring.md#staged-reveal).
  ...revealRoutes,
  ...editContainerRoutes,
  ...webhookRoutes,
  ...gameArchiveRoutes,
  // Literal segments (`/api/game/games/...`, `/api/game/captures/...`) before `/api/game/:id`.
  ...captureRoutes,
  ...gameMonitorRoutes,
  ...containerRoutes,
  ...submissionRoutes,
  ...ctftimeRoutes,
  ...gameRoutes,
  ...infoRoutes,
  ...proxyRoutes,
  ...teamRoutes,
  // Flagwave additions (docs/compatibility.md#single-sign-on).
  ...ssoRoutes,
  // Flagwave additions outside the contract (docs/operations.md#metrics).
  ...opsRoutes,
  // Flagwave's additions (docs/compatibility.md#api-tokens, #two-factor-authentication).
  ...twoFactorRoutes,
  ...tokenRoutes,
]
