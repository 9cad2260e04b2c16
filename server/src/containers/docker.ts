/**
 * Docker provider (dockerode). A challenge container gets:
 * - memory (MiB), CPU (`cpuCount` tenths of a CPU → NanoCpus) and PIDs limits;
 * - a storage limit (`StorageOpt.size`) where the storage driver supports it. overlay2 only
 *   does on xfs with project quotas; elsewhere the engine refuses the option, which we detect
 *   (from `docker info`, or from the first refusal), log once, and then omit;
 * - the labels of provider.ts, `GZCTF_FLAG` for dynamic flags, and the optional
 *   CONTAINER_NETWORK (created as a bridge network when missing);
 * - its port published on CONTAINER_BIND_ADDRESS (127.0.0.1 by default) to an ephemeral host
 *   port. Players' `entry` and the platform proxy both go through that published port; nothing
 *   ever connects to a container IP.
 */
import Docker from 'dockerode'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import {
  LABEL_CONTAINER,
  LABEL_MANAGED,
  LABEL_SCOPE,
  ProviderError,
  dialHostFor,
  labelsFor,
  publicHost,
  withTimeout,
  engineCall,
  type ContainerProvider,
  type ContainerSpec,
  type CreatedContainer,
  type DialTarget,
  type EngineContainer,
} from './provider.js'

/** DOCKER_HOST (`unix:///path`, `tcp://host:port`, `http(s)://host:port`) as dockerode options. */
function dockerConnection(host: string | undefined): { options: Docker.DockerOptions; remoteHost: string | null } {
  if (!host) return { options: { socketPath: '/var/run/docker.sock' }, remoteHost: null }
  if (host.startsWith('unix://')) return { options: { socketPath: host.slice('unix://'.length) }, remoteHost: null }
  if (host.startsWith('/')) return { options: { socketPath: host }, remoteHost: null }
  const url = new URL(host.replace(/^tcp:/, 'http:'))
  const protocol = url.protocol === 'https:' ? 'https' : 'http'
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  return {
    options: { host: hostname, port: Number(url.port || (protocol === 'https' ? 2376 : 2375)), protocol },
    remoteHost: hostname === 'localhost' || hostname.startsWith('127.') || hostname === '::1' ? null : hostname,
  }
}

const statusOf = (err: unknown): number | undefined => (err as { statusCode?: number })?.statusCode
const messageOf = (err: unknown): string => {
  const e = err as { json?: { message?: string }; reason?: string; message?: string }
  return e?.json?.message ?? e?.message ?? e?.reason ?? String(err)
}

export class DockerProvider implements ContainerProvider {
  readonly name = 'docker' as const
  readonly docker: Docker
  private readonly timeout: number
  private readonly bind: string
  private readonly dialHost: string
  private readonly entryHost: string
  /** null = not known yet; decided from `docker info` or the first refusal. */
  private storageQuota: boolean | null = null
  private networkReady: Promise<void> | null = null

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly scope: string,
  ) {
    const { options, remoteHost } = dockerConnection(config.DOCKER_HOST)
    this.timeout = config.CONTAINER_ENGINE_TIMEOUT_MS
    this.docker = new Docker({ ...options, timeout: this.timeout })
    this.bind = config.CONTAINER_BIND_ADDRESS
    const unspecified = this.bind === '0.0.0.0' || this.bind === '::' || this.bind === ''
    this.dialHost = unspecified && remoteHost ? remoteHost : dialHostFor(this.bind)
    this.entryHost = publicHost(config.PUBLIC_ENTRY) ?? this.dialHost
  }

  private call<T>(promise: Promise<T>, what: string): Promise<T> {
    return engineCall(promise, this.timeout, what, (err) => {
      const code = (err as NodeJS.ErrnoException)?.code
      const unreachable = code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT'
      return unreachable ? new ProviderError('unavailable', `Docker engine unreachable (${code}): ${messageOf(err)}`, err) : err
    })
  }

  /** Decide once whether StorageOpt.size can work on this engine. */
  private async detectStorageQuota(): Promise<boolean> {
    if (this.storageQuota !== null) return this.storageQuota
    try {
      const info = (await this.call(this.docker.info(), 'docker info')) as { Driver?: string; DriverStatus?: [string, string][] }
      const backing = info.DriverStatus?.find(([k]) => k === 'Backing Filesystem')?.[1]
      if (info.Driver === 'overlay2' && backing !== 'xfs') {
        this.storageQuota = false
        this.log.warn({ driver: info.Driver, backing }, 'containers: storage limits skipped (overlay2 supports them only on xfs with pquota)')
      } else if (info.Driver === 'vfs') {
        this.storageQuota = false
        this.log.warn({ driver: info.Driver }, 'containers: storage limits skipped (vfs has no quotas)')
      } else {
        this.storageQuota = true // devicemapper, btrfs, zfs, overlay2 on xfs: try; a refusal turns it off
      }
    } catch {
      return true
    }
    return this.storageQuota
  }

  private ensureNetwork(): Promise<void> {
    const network = this.config.CONTAINER_NETWORK
    if (!network) return Promise.resolve()
    this.networkReady ??= (async () => {
      try {
        await this.call(this.docker.getNetwork(network).inspect(), 'network inspect')
      } catch (err) {
        if (statusOf(err) !== 404) throw err
        await this.call(
          this.docker.createNetwork({ Name: network, Driver: 'bridge', CheckDuplicate: true, Labels: { [LABEL_MANAGED]: 'true' } }),
          'network create',
        ).catch((e: unknown) => {
          if (statusOf(e) !== 409) throw e
        })
        this.log.info({ network }, 'containers: created the challenge network')
      }
    })()
    this.networkReady.catch(() => {
      this.networkReady = null
    })
    return this.networkReady
  }

  private createOptions(spec: ContainerSpec, storage: boolean): Docker.ContainerCreateOptions {
    const port = `${spec.port}/tcp`
    return {
      name: `flagwave-${spec.id}`,
      Image: spec.image,
      Env: spec.flag === null ? [] : [`GZCTF_FLAG=${spec.flag}`],
      Labels: labelsFor(spec, this.scope),
      ExposedPorts: { [port]: {} },
      HostConfig: {
        Memory: spec.memoryLimit * 1024 * 1024,
        NanoCpus: spec.cpuCount * 100_000_000,
        PidsLimit: this.config.CONTAINER_PIDS_LIMIT,
        PortBindings: { [port]: [{ HostIp: this.bind, HostPort: '' }] },
        RestartPolicy: { Name: 'no' },
        ...(this.config.CONTAINER_NETWORK ? { NetworkMode: this.config.CONTAINER_NETWORK } : {}),
        ...(storage ? { StorageOpt: { size: `${spec.storageLimit}M` } } : {}),
      },
    }
  }

  private async pull(image: string): Promise<void> {
    const stream = await this.call(this.docker.pull(image) as Promise<NodeJS.ReadableStream>, 'image pull')
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        this.docker.modem.followProgress(stream, (err: Error | null, output: { error?: string }[]) => {
          const failed = output?.find((o) => o.error)
          if (err || failed) reject(new ProviderError('image', `pull of ${image} failed: ${err?.message ?? failed?.error}`))
          else resolve()
        })
      }),
      this.timeout * 4,
      'image pull',
    )
  }

  private async createContainer(spec: ContainerSpec): Promise<Docker.Container> {
    let storage = await this.detectStorageQuota()
    let pulled = false
    for (;;) {
      try {
        return await this.call(this.docker.createContainer(this.createOptions(spec, storage)), 'container create')
      } catch (err) {
        const message = messageOf(err)
        if (storage && /storage-opt|storage opt|quota/i.test(message)) {
          storage = false
          this.storageQuota = false
          this.log.warn({ reason: message }, 'containers: the engine refused storage limits; continuing without them')
          continue
        }
        if (statusOf(err) === 404 && /image/i.test(message)) {
          if (this.config.CONTAINER_PULL_IMAGES && !pulled) {
            pulled = true
            await this.pull(spec.image).catch((e: unknown) => {
              throw e instanceof ProviderError ? e : new ProviderError('image', `image ${spec.image} not found: ${messageOf(e)}`, e)
            })
            continue
          }
          throw new ProviderError('image', `image ${spec.image} not found`, err)
        }
        if (err instanceof ProviderError) throw err
        throw new ProviderError('engine', `container create failed: ${message}`, err)
      }
    }
  }

  async create(spec: ContainerSpec): Promise<CreatedContainer> {
    await this.ensureNetwork()
    const container = await this.createContainer(spec)
    try {
      await this.call(container.start(), 'container start')
      const info = await this.call(container.inspect(), 'container inspect')
      const binding = info.NetworkSettings?.Ports?.[`${spec.port}/tcp`]?.[0]
      const hostPort = binding?.HostPort ? Number(binding.HostPort) : NaN
      if (!Number.isInteger(hostPort) || hostPort <= 0) throw new ProviderError('engine', `port ${spec.port} was not published`)
      const networks = Object.values(info.NetworkSettings?.Networks ?? {})
      const ip = (info.NetworkSettings as { IPAddress?: string } | undefined)?.IPAddress || networks.find((n) => n.IPAddress)?.IPAddress || this.dialHost
      return {
        containerId: info.Id,
        status: info.State?.Running ? 'Running' : 'Pending',
        ip,
        port: spec.port,
        publicIp: this.entryHost,
        publicPort: hostPort,
      }
    } catch (err) {
      await this.destroy(container.id).catch((e: unknown) => this.log.error({ err: e, containerId: container.id }, 'containers: cleanup after a failed start failed'))
      if (err instanceof ProviderError) throw err
      throw new ProviderError('engine', `container start failed: ${messageOf(err)}`, err)
    }
  }

  async destroy(containerId: string): Promise<void> {
    try {
      await this.call(this.docker.getContainer(containerId).remove({ force: true, v: true }), 'container remove')
    } catch (err) {
      if (statusOf(err) === 404) return
      // 409 "removal already in progress" is as good as done.
      if (statusOf(err) === 409 && /in progress/i.test(messageOf(err))) return
      if (err instanceof ProviderError) throw err
      throw new ProviderError('engine', `container remove failed: ${messageOf(err)}`, err)
    }
  }

  async list(): Promise<EngineContainer[]> {
    const rows = await this.call(
      this.docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_SCOPE}=${this.scope}`] } }),
      'container list',
    )
    return rows.map((c) => ({
      containerId: c.Id,
      guid: c.Labels?.[LABEL_CONTAINER] ?? null,
      running: c.State === 'running',
      createdAt: new Date(c.Created * 1000),
    }))
  }

  async alive(containerId: string): Promise<boolean> {
    try {
      const info = await this.call(this.docker.getContainer(containerId).inspect(), 'container inspect')
      return Boolean(info.State?.Running)
    } catch (err) {
      if (statusOf(err) === 404) return false
      throw err
    }
  }

  dialTarget(container: { ip: string; port: number; publicIp?: string | null; publicPort?: number | null }): DialTarget {
    // Always the published port on the host side: container IPs are never dialled.
    return { host: this.dialHost, port: container.publicPort ?? container.port }
  }

  async close(): Promise<void> {}
}
