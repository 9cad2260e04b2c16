/**
 * The container engine behind one interface (docs/architecture.md#containers): Docker (dockerode), Kubernetes
 * (@kubernetes/client-node) or none. Domain code never sees an engine type.
 *
 * Rules every provider keeps:
 * - every engine call is bounded by CONTAINER_ENGINE_TIMEOUT_MS (a request never hangs);
 * - `create` either returns a started container or throws a ProviderError having removed
 *   whatever it had created (no half-created instance);
 * - `destroy` is idempotent (an engine that no longer knows the id counts as success);
 * - everything created carries `flagwave.managed=true` and the deployment's scope label, so
 *   reconciliation only ever touches this deployment's containers.
 */
import type { ContainerStatus } from '@flagwave/shared/enums'

export const LABEL_MANAGED = 'flagwave.managed'
export const LABEL_SCOPE = 'flagwave.scope'
export const LABEL_CONTAINER = 'flagwave.container'
const LABEL_KIND = 'flagwave.kind'
const LABEL_GAME = 'flagwave.game'
const LABEL_CHALLENGE = 'flagwave.challenge'
const LABEL_TEAM = 'flagwave.team'
const LABEL_PARTICIPATION = 'flagwave.participation'

export interface ContainerSpec {
  /** The container's database id (lowercase GUID): names and labels use it. */
  id: string
  image: string
  /** The TCP port the challenge listens on inside the container. */
  port: number
  /** MiB. */
  memoryLimit: number
  /** Tenths of a CPU (GZ::CTF: NanoCPUs = cpuCount × 10⁸). */
  cpuCount: number
  /** MiB, applied where the engine supports it. */
  storageLimit: number
  /** Handed to the container as GZCTF_FLAG (dynamic flags only). */
  flag: string | null
  kind: 'instance' | 'test'
  gameId: number
  challengeId: number
  teamId?: number
  participationId?: number
}

export interface CreatedContainer {
  /** The engine's id (Docker container id, Kubernetes pod name). */
  containerId: string
  status: ContainerStatus
  /** Internal address and port (container IP, service cluster IP). */
  ip: string
  port: number
  /** Where players reach it (published address and host port, NodePort); null when not published. */
  publicIp: string | null
  publicPort: number | null
}

export interface EngineContainer {
  containerId: string
  /** The database id from the `flagwave.container` label. */
  guid: string | null
  running: boolean
  createdAt: Date
}

export interface DialTarget {
  host: string
  port: number
}

export interface ContainerProvider {
  readonly name: 'docker' | 'kubernetes' | 'none'
  create(spec: ContainerSpec): Promise<CreatedContainer>
  destroy(containerId: string): Promise<void>
  /** This deployment's managed containers, running or not. */
  list(): Promise<EngineContainer[]>
  /** Whether the engine still runs this container. */
  alive(containerId: string): Promise<boolean>
  /**
   * Where the platform proxy connects: a published host port for Docker (never a container
   * IP), the service for Kubernetes.
   */
  dialTarget(container: { ip: string; port: number; publicIp?: string | null; publicPort?: number | null }): DialTarget
  close(): Promise<void>
}

export type ProviderFailure = 'disabled' | 'unavailable' | 'image' | 'timeout' | 'engine'

/** An engine failure; the endpoints turn it into their contract title (a 400, never a 500). */
export class ProviderError extends Error {
  constructor(
    readonly reason: ProviderFailure,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message)
  }
}

/** Reject after `ms` with a ProviderError('timeout'); the caller cleans up what the late call leaves. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProviderError('timeout', `${what} timed out after ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/**
 * An engine call bounded by `ms`: a ProviderError (a timeout among them) passes as it is; any other
 * failure is classified by the provider's `classify`, which returns the error to throw.
 */
export function engineCall<T>(promise: Promise<T>, ms: number, what: string, classify: (err: unknown) => unknown): Promise<T> {
  return withTimeout(promise, ms, what).catch((err: unknown) => {
    throw err instanceof ProviderError ? err : classify(err)
  })
}

/** Labels shared by every provider (Kubernetes label values must be short alphanumerics). */
export function labelsFor(spec: ContainerSpec, scope: string): Record<string, string> {
  const labels: Record<string, string> = {
    [LABEL_MANAGED]: 'true',
    [LABEL_SCOPE]: scope,
    [LABEL_CONTAINER]: spec.id,
    [LABEL_KIND]: spec.kind,
    [LABEL_GAME]: String(spec.gameId),
    [LABEL_CHALLENGE]: String(spec.challengeId),
  }
  if (spec.teamId !== undefined) labels[LABEL_TEAM] = String(spec.teamId)
  if (spec.participationId !== undefined) labels[LABEL_PARTICIPATION] = String(spec.participationId)
  return labels
}

/** The host part of PUBLIC_ENTRY (`host`, `host:port`, or a URL), or null. */
export function publicHost(publicEntry: string | undefined): string | null {
  if (!publicEntry) return null
  const value = publicEntry.trim()
  if (!value) return null
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return new URL(value).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return value
  }
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'))
  const colons = value.split(':').length - 1
  return colons === 1 ? value.slice(0, value.indexOf(':')) : value
}

/** The address to dial for a host port published on `bind` (0.0.0.0/:: mean loopback here). */
export function dialHostFor(bind: string): string {
  if (bind === '0.0.0.0' || bind === '' ) return '127.0.0.1'
  if (bind === '::' || bind === '[::]') return '::1'
  return bind
}
