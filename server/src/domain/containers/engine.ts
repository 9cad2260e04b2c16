/**
 * Creating containers with the engine without ever leaving a database row that has no engine
 * container behind it: the engine is asked first, the guid is kept out of reconciliation until
 * the row commits, and a failed database step removes the engine container again. Also the
 * titles of every container endpoint's refusals, and how an engine failure becomes one.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { CONTAINER_LIFETIME_MS } from '@flagwave/shared/limits'
import type { Services } from '../../services.js'
import { Container } from '../../entities/Container.js'
import type { Challenge } from '../../entities/Challenge.js'
import type { Participation } from '../../entities/Participation.js'
import type { Team } from '../../entities/Team.js'
import { AppError } from '../../lib/errors.js'
import type { ContainerFailureReason } from '@flagwave/shared/enums'
import type { Actor } from '../actor.js'
import { ProviderError, type ContainerSpec, type CreatedContainer } from '../../containers/provider.js'

export const TITLES = {
  notFound: '题目未找到',
  notContainer: '题目不可创建容器',
  tooFrequent: '容器操作过于频繁',
  alreadyCreated: '题目已经创建容器',
  createFailed: '题目创建容器失败',
  notCreated: '题目未创建容器',
  cannotProlong: '容器时间尚不可延长',
  destroyFailed: '题目删除容器失败',
  teamLimit: (n: number) => `队伍容器数目不能超过 ${n}`,
  testWrongType: '题目类型不可创建容器',
  testConfig: '容器配置错误',
  testCreateFailed: '容器创建失败',
  instanceNotFound: '容器实例未找到',
  instanceDestroyFailed: '容器实例销毁失败',
} as const

export const isLive = (c: Container | null | undefined): c is Container => !!c && c.status !== 'Destroyed'

export function specFor(guid: string, challenge: Challenge, flag: string | null, kind: ContainerSpec['kind'], gameId: number, participation?: Participation): ContainerSpec {
  return {
    id: guid,
    image: challenge.containerImage.trim(),
    port: challenge.containerExposePort,
    memoryLimit: challenge.memoryLimit,
    cpuCount: challenge.cpuCount,
    storageLimit: challenge.storageLimit,
    flag,
    kind,
    gameId,
    challengeId: challenge.id,
    teamId: participation ? (participation.team as Team).id : undefined,
    participationId: participation?.id,
  }
}

/** Ask the engine; the guid stays in `uncommitted` (reconciliation leaves it alone) until the caller commits. */
export async function engineCreate(services: Services, spec: ContainerSpec): Promise<CreatedContainer> {
  services.containers.uncommitted.add(spec.id)
  try {
    return await services.containers.provider.create(spec)
  } catch (err) {
    services.containers.uncommitted.delete(spec.id)
    throw err
  }
}

/** Remove an engine container whose database step failed (best effort, logged). */
export async function engineRollback(services: Services, containerId: string): Promise<void> {
  await services.containers.provider.destroy(containerId).catch((err: unknown) => services.log.error({ err, containerId }, 'containers: rollback of an engine container failed'))
}

export function newRow(em: EntityManager, services: Services, guid: string, image: string, created: CreatedContainer, flag: string | null, testChallengeId: number | null): Container {
  const now = new Date()
  return em.create(Container, {
    id: guid,
    containerId: created.containerId,
    image,
    status: created.status,
    startedAt: now,
    expectStopAt: new Date(now.getTime() + CONTAINER_LIFETIME_MS),
    ip: created.ip,
    port: created.port,
    publicIp: created.publicIp,
    publicPort: created.publicPort,
    isProxy: services.containers.proxyMode,
    testChallengeId,
    flag,
  })
}

/** The reason of an engine failure, as the error body's `reason` names it. */
function failureReason(err: unknown): ContainerFailureReason {
  if (!(err instanceof ProviderError)) return 'engineError'
  switch (err.reason) {
    case 'disabled':
      return 'noProvider'
    case 'image':
      return 'imageMissing'
    case 'unavailable':
    case 'timeout':
      return 'engineUnreachable'
    case 'engine':
      return 'engineError'
  }
}

/** The admin log's words for each reason (docs/compatibility.md#container-failure-reasons). */
const REASON_TEXT: Record<ContainerFailureReason, string> = {
  noProvider: '平台未配置容器后端',
  imageMissing: '镜像不存在或无法拉取',
  limitReached: '队伍容器数量已达上限',
  engineUnreachable: '无法连接容器引擎',
  engineError: '容器引擎出错',
  misconfigured: '题目的容器镜像或端口未设置',
}

/** A refusal with the contract's `title` and Flagwave's `reason` member. */
export function containerRefusal(title: string, reason: ContainerFailureReason): AppError {
  return new AppError(400, title, 400, { kind: 'request', extra: { reason } })
}

/**
 * An engine failure → the contract's title with the `reason` member; logged, and recorded in the
 * admin log (Warning, with the engine's own message) so that organisers see what to fix.
 */
export function providerFailure(services: Services, err: unknown, title: string, what: Record<string, unknown>, actor?: Actor): AppError {
  if (err instanceof AppError) return err
  const reason = failureReason(err)
  services.log[reason === 'noProvider' ? 'info' : 'warn']({ err, reason, ...what }, `containers: ${title}`)
  const where = Object.entries(what)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ')
  const detail = err instanceof Error ? `：${err.message.slice(0, 300)}` : ''
  void services.audit.write({
    message: `${title}（${REASON_TEXT[reason]}；${where}）${detail}`,
    level: 'Warning',
    userName: actor?.user.userName ?? null,
    ip: actor?.ip ?? null,
    status: 'Failed',
  })
  return containerRefusal(title, reason)
}
