/**
 * Kubernetes provider (@kubernetes/client-node). One instance is, in KUBERNETES_NAMESPACE:
 * - a NetworkPolicy `fw-{guid}` selecting the pod, created first so the pod never runs
 *   unrestricted: egress only to public addresses (private, link-local and CGNAT ranges are
 *   excluded, so a challenge cannot reach the cluster or the platform), DNS allowed;
 * - a Pod `fw-{guid}` with CPU/memory/ephemeral-storage limits, `GZCTF_FLAG` for dynamic
 *   flags, no service-account token, and the labels of provider.ts;
 * - a Service `fw-{guid}`: NodePort when players connect directly (`entry` = PUBLIC_ENTRY or
 *   the API server's host, and the node port), ClusterIP behind the platform proxy (the
 *   proxy, running in the cluster, dials the service).
 * A failure at any step deletes what was already created. The pod must reach phase Running
 * within CONTAINER_ENGINE_TIMEOUT_MS.
 */
import { CoreV1Api, KubeConfig, NetworkingV1Api, type V1NetworkPolicy, type V1Pod, type V1Service } from '@kubernetes/client-node'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import {
  LABEL_CONTAINER,
  LABEL_MANAGED,
  LABEL_SCOPE,
  ProviderError,
  labelsFor,
  publicHost,
  engineCall,
  type ContainerProvider,
  type ContainerSpec,
  type CreatedContainer,
  type DialTarget,
  type EngineContainer,
} from './provider.js'

/** Ranges a challenge pod may not reach (RFC 1918, loopback, link-local, CGNAT, this-network). */
export const BLOCKED_EGRESS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8', '0.0.0.0/8']

const codeOf = (err: unknown): number | undefined => {
  const e = err as { code?: unknown; statusCode?: unknown }
  return typeof e?.code === 'number' ? e.code : typeof e?.statusCode === 'number' ? e.statusCode : undefined
}
const messageOf = (err: unknown): string => {
  const e = err as { body?: unknown; message?: string }
  if (typeof e?.body === 'string') {
    try {
      return (JSON.parse(e.body) as { message?: string }).message ?? e.body
    } catch {
      return e.body
    }
  }
  return (e?.body as { message?: string })?.message ?? e?.message ?? String(err)
}

const podName = (guid: string): string => `fw-${guid}`

function loadKubeConfig(config: Pick<Config, 'KUBECONFIG'>): KubeConfig {
  const kc = new KubeConfig()
  if (config.KUBECONFIG) kc.loadFromFile(config.KUBECONFIG)
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster()
  else kc.loadFromDefault()
  return kc
}

export class KubernetesProvider implements ContainerProvider {
  readonly name = 'kubernetes' as const
  private readonly core: CoreV1Api
  private readonly net: NetworkingV1Api
  private readonly namespace: string
  private readonly timeout: number
  private readonly proxied: boolean
  private readonly entryHost: string

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly scope: string,
    kubeConfig: KubeConfig = loadKubeConfig(config),
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api)
    this.net = kubeConfig.makeApiClient(NetworkingV1Api)
    this.namespace = config.KUBERNETES_NAMESPACE
    this.timeout = config.CONTAINER_ENGINE_TIMEOUT_MS
    this.proxied = config.CONTAINER_PORT_MAPPING === 'proxy'
    const server = kubeConfig.getCurrentCluster()?.server
    let apiHost = '127.0.0.1'
    try {
      if (server) apiHost = new URL(server).hostname.replace(/^\[|\]$/g, '')
    } catch {
      // keep loopback
    }
    this.entryHost = publicHost(config.PUBLIC_ENTRY) ?? apiHost
  }

  private call<T>(promise: Promise<T>, what: string): Promise<T> {
    return engineCall(promise, this.timeout, what, (err) => {
      const code = codeOf(err)
      if (code === undefined) return new ProviderError('unavailable', `${what}: Kubernetes API unreachable: ${messageOf(err)}`, err)
      return new ProviderError('engine', `${what} failed (${code}): ${messageOf(err)}`, err)
    })
  }

  private ignoreMissing = (err: unknown): void => {
    if (err instanceof ProviderError && codeOf(err.cause) === 404) return
    throw err
  }

  networkPolicy(spec: ContainerSpec, labels: Record<string, string>): V1NetworkPolicy {
    return {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: podName(spec.id), namespace: this.namespace, labels },
      spec: {
        podSelector: { matchLabels: { [LABEL_CONTAINER]: spec.id } },
        policyTypes: ['Egress'],
        egress: [
          { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: BLOCKED_EGRESS } }] },
          {
            to: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
            ports: [
              { protocol: 'UDP', port: 53 },
              { protocol: 'TCP', port: 53 },
            ],
          },
        ],
      },
    }
  }

  pod(spec: ContainerSpec, labels: Record<string, string>): V1Pod {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: podName(spec.id), namespace: this.namespace, labels },
      spec: {
        restartPolicy: 'Never',
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        containers: [
          {
            name: 'challenge',
            image: spec.image,
            imagePullPolicy: 'IfNotPresent',
            env: spec.flag === null ? [] : [{ name: 'GZCTF_FLAG', value: spec.flag }],
            ports: [{ containerPort: spec.port, protocol: 'TCP' }],
            resources: {
              limits: { cpu: `${spec.cpuCount * 100}m`, memory: `${spec.memoryLimit}Mi`, 'ephemeral-storage': `${spec.storageLimit}Mi` },
              requests: { cpu: '10m', memory: `${Math.min(32, spec.memoryLimit)}Mi` },
            },
          },
        ],
      },
    }
  }

  service(spec: ContainerSpec, labels: Record<string, string>): V1Service {
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: podName(spec.id), namespace: this.namespace, labels },
      spec: {
        type: this.proxied ? 'ClusterIP' : 'NodePort',
        selector: { [LABEL_CONTAINER]: spec.id },
        ports: [{ port: spec.port, targetPort: spec.port as never, protocol: 'TCP' }],
      },
    }
  }

  async create(spec: ContainerSpec): Promise<CreatedContainer> {
    const labels = labelsFor(spec, this.scope)
    const name = podName(spec.id)
    const namespace = this.namespace
    const created: ('policy' | 'pod' | 'service')[] = []
    try {
      await this.call(this.net.createNamespacedNetworkPolicy({ namespace, body: this.networkPolicy(spec, labels) }), 'network policy create')
      created.push('policy')
      await this.call(this.core.createNamespacedPod({ namespace, body: this.pod(spec, labels) }), 'pod create')
      created.push('pod')
      const service = await this.call(this.core.createNamespacedService({ namespace, body: this.service(spec, labels) }), 'service create')
      created.push('service')
      const phase = await this.waitRunning(name)
      const nodePort = service.spec?.ports?.[0]?.nodePort ?? null
      return {
        containerId: name,
        status: phase === 'Running' ? 'Running' : 'Pending',
        ip: service.spec?.clusterIP || `${name}.${namespace}.svc`,
        port: spec.port,
        publicIp: this.proxied ? null : this.entryHost,
        publicPort: this.proxied ? null : nodePort,
      }
    } catch (err) {
      await this.remove(name, created).catch((e: unknown) => this.log.error({ err: e, pod: name }, 'containers: cleanup after a failed create failed'))
      if (err instanceof ProviderError) throw err
      throw new ProviderError('engine', `pod create failed: ${messageOf(err)}`, err)
    }
  }

  private async waitRunning(name: string): Promise<string> {
    const deadline = Date.now() + this.timeout
    for (;;) {
      const pod = await this.call(this.core.readNamespacedPod({ name, namespace: this.namespace }), 'pod read')
      const phase = pod.status?.phase ?? 'Pending'
      if (phase === 'Running') return phase
      if (phase === 'Failed' || phase === 'Succeeded') throw new ProviderError('engine', `pod ${name} ended in phase ${phase}`)
      const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting?.reason
      if (waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff' || waiting === 'InvalidImageName') {
        throw new ProviderError('image', `pod ${name}: ${waiting}`)
      }
      if (Date.now() > deadline) throw new ProviderError('timeout', `pod ${name} not running after ${this.timeout} ms`)
      await new Promise((r) => setTimeout(r, 300))
    }
  }

  private async remove(name: string, parts: ('policy' | 'pod' | 'service')[]): Promise<void> {
    const namespace = this.namespace
    const jobs: Promise<unknown>[] = []
    if (parts.includes('service')) jobs.push(this.call(this.core.deleteNamespacedService({ name, namespace }), 'service delete').catch(this.ignoreMissing))
    if (parts.includes('pod')) {
      jobs.push(this.call(this.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }), 'pod delete').catch(this.ignoreMissing))
    }
    if (parts.includes('policy')) {
      jobs.push(this.call(this.net.deleteNamespacedNetworkPolicy({ name, namespace }), 'network policy delete').catch(this.ignoreMissing))
    }
    const results = await Promise.allSettled(jobs)
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  destroy(containerId: string): Promise<void> {
    return this.remove(containerId, ['service', 'pod', 'policy'])
  }

  async list(): Promise<EngineContainer[]> {
    const pods = await this.call(
      this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: `${LABEL_MANAGED}=true,${LABEL_SCOPE}=${this.scope}` }),
      'pod list',
    )
    return (pods.items ?? []).map((pod) => ({
      containerId: pod.metadata?.name ?? '',
      guid: pod.metadata?.labels?.[LABEL_CONTAINER] ?? null,
      running: pod.status?.phase === 'Running' || pod.status?.phase === 'Pending',
      createdAt: pod.metadata?.creationTimestamp ? new Date(pod.metadata.creationTimestamp) : new Date(0),
    }))
  }

  async alive(containerId: string): Promise<boolean> {
    try {
      const pod = await this.call(this.core.readNamespacedPod({ name: containerId, namespace: this.namespace }), 'pod read')
      return pod.status?.phase === 'Running' || pod.status?.phase === 'Pending'
    } catch (err) {
      if (err instanceof ProviderError && codeOf(err.cause) === 404) return false
      throw err
    }
  }

  dialTarget(container: { ip: string; port: number }): DialTarget {
    return { host: container.ip, port: container.port }
  }

  async close(): Promise<void> {}
}
