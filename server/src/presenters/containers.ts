/**
 * Container shapes (docs/compatibility.md#challenge-shapes ContainerInfoModel, docs/compatibility.md#administration-shapes ContainerInstanceModel, FileRecord,
 * ChallengeTrafficModel, TeamTrafficModel) and the container push (`ReceivedContainerUpdate`).
 */
import { toWireDate } from '@flagwave/shared/format'
import type { ChallengeTrafficModel, ContainerInstanceModel, FileRecord, TeamTrafficModel } from '@flagwave/shared/schemas/admin'
import type { ContainerUpdate } from '@flagwave/shared/events'
import type { Container } from '../entities/Container.js'
import type { Challenge } from '../entities/Challenge.js'
import type { Team } from '../entities/Team.js'
import { avatarUrl } from '../lib/assetUrls.js'
import { presentTeamModel } from './teams.js'

export { presentContainerInfo } from './challenges.js'

/** `{host}:{port}` (public address and port when set, else the internal ones), or the GUID behind the proxy. */
function containerEntry(container: Pick<Container, 'id' | 'isProxy' | 'ip' | 'port' | 'publicIp' | 'publicPort'>): string {
  return container.isProxy ? container.id : `${container.publicIp ?? container.ip}:${container.publicPort ?? container.port}`
}

export function presentContainerInstance(container: Container, team: Team | null, challenge: Challenge | null): ContainerInstanceModel {
  return {
    team: team ? presentTeamModel(team) : null,
    challenge: challenge ? { id: challenge.id, title: challenge.title, tag: challenge.tag, category: challenge.tag } : null,
    image: container.image,
    containerGuid: container.id,
    containerId: container.containerId,
    startedAt: toWireDate(container.startedAt),
    expectStopAt: toWireDate(container.expectStopAt),
    ip: container.publicIp ?? container.ip,
    port: container.publicPort ?? container.port,
  }
}

/** The push to a team's room: started, prolonged, expiring (worker) or destroyed. */
export function containerUpdate(challengeId: number, container: Container | null, reason: ContainerUpdate['reason']): ContainerUpdate {
  if (!container || reason === 'destroyed') return { challengeId, status: 'Destroyed', entry: null, expectStopAt: null, reason: 'destroyed' }
  return { challengeId, status: container.status, entry: containerEntry(container), expectStopAt: toWireDate(container.expectStopAt), reason }
}

export function presentFileRecord(fileName: string, size: number, modified: Date): FileRecord {
  return { fileName, size, updateTime: toWireDate(modified) }
}

export function presentChallengeTraffic(challenge: Challenge, count: number): ChallengeTrafficModel {
  return { id: challenge.id, title: challenge.title, tag: challenge.tag, type: challenge.type, isEnabled: challenge.isEnabled, count, category: challenge.tag }
}

export function presentTeamTraffic(participationId: number, team: Team, organization: string | null, count: number): TeamTrafficModel {
  return { id: participationId, teamId: team.id, name: team.name, organization, avatar: avatarUrl(team.avatarHash), count }
}
