/**
 * The Kubernetes provider. There is no cluster on the CI machines, so these tests run the
 * provider (the real @kubernetes/client-node over HTTP, loaded from a real kubeconfig file)
 * against a small fake of the Kubernetes API that implements just what the provider calls:
 * create/read/list/delete of pods, create/delete of services and network policies in one
 * namespace. This is the one fake in the container tests; everything else runs on Docker.
 */
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import pino from 'pino'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { loadConfig } from '../../server/src/config.js'
import { KubernetesProvider, BLOCKED_EGRESS } from '../../server/src/containers/kubernetes.js'
import { ProviderError, type ContainerSpec } from '../../server/src/containers/provider.js'
import { reconcileContainers } from '../../server/src/containers/reaper.js'
import { Container } from '../../server/src/entities/Container.js'
import { GameInstance } from '../../server/src/entities/GameInstance.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { createChallenge, createGame } from '../support/factories/games.js'
import { createPlayer, isolateIds } from '../support/factories/play.js'
import { containerPath, expectRefusal } from './helpers.js'
import { ensureInstances } from '../../server/src/domain/play/instances.js'

type Obj = { metadata: { name: string; namespace?: string; labels?: Record<string, string>; creationTimestamp?: string; uid?: string }; spec?: any; status?: any; [k: string]: unknown }

/** The fake API server: three object stores, a request log and a few failure switches. */
class FakeKube {
  pods = new Map<string, Obj>()
  services = new Map<string, Obj>()
  policies = new Map<string, Obj>()
  log: { method: string; path: string; auth: string | undefined }[] = []
  podPhase = 'Running'
  failServiceCreate = false
  nextNodePort = 30000
  server = http.createServer((req, res) => this.handle(req, res))
  url = ''

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()))
  }

  reset(): void {
    this.pods.clear()
    this.services.clear()
    this.policies.clear()
    this.log = []
    this.podPhase = 'Running'
    this.failServiceCreate = false
  }

  private send(res: http.ServerResponse, code: number, body: unknown): void {
    res.writeHead(code, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  private status(res: http.ServerResponse, code: number, reason: string): void {
    this.send(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: reason, reason, code })
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let text = ''
    req.on('data', (c: Buffer) => (text += c.toString('utf8')))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      this.log.push({ method: req.method ?? '', path: url.pathname, auth: req.headers.authorization })
      const m = /^\/(?:api\/v1|apis\/networking\.k8s\.io\/v1)\/namespaces\/([^/]+)\/(pods|services|networkpolicies)(?:\/([^/]+))?$/.exec(url.pathname)
      if (!m) return this.status(res, 404, 'NotFound')
      const [, namespace, kind, name] = m
      const store = kind === 'pods' ? this.pods : kind === 'services' ? this.services : this.policies
      if (req.method === 'POST' && !name) {
        const body = JSON.parse(text) as Obj
        if (kind === 'services' && this.failServiceCreate) return this.status(res, 500, 'InternalError')
        if (store.has(body.metadata.name)) return this.status(res, 409, 'AlreadyExists')
        body.metadata = { ...body.metadata, namespace, uid: `uid-${store.size + 1}`, creationTimestamp: new Date().toISOString() }
        if (kind === 'pods') body.status = { phase: 'Pending' }
        if (kind === 'services') {
          body.spec = { ...body.spec, clusterIP: '10.96.0.42' }
          if (body.spec.type === 'NodePort') body.spec.ports = body.spec.ports.map((p: object) => ({ ...p, nodePort: this.nextNodePort++ }))
        }
        store.set(body.metadata.name, body)
        return this.send(res, 201, body)
      }
      if (req.method === 'GET' && name) {
        const obj = store.get(name)
        if (!obj) return this.status(res, 404, 'NotFound')
        if (kind === 'pods') obj.status = { phase: this.podPhase }
        return this.send(res, 200, obj)
      }
      if (req.method === 'GET') {
        const selector = (url.searchParams.get('labelSelector') ?? '').split(',').filter(Boolean).map((s) => s.split('='))
        const items = [...store.values()].filter((o) => selector.every(([k, v]) => o.metadata.labels?.[k!] === v))
        return this.send(res, 200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items })
      }
      if (req.method === 'DELETE' && name) {
        const obj = store.get(name)
        if (!obj) return this.status(res, 404, 'NotFound')
        store.delete(name)
        return this.send(res, 200, kind === 'networkpolicies' ? { kind: 'Status', status: 'Success' } : obj)
      }
      this.status(res, 405, 'MethodNotAllowed')
    })
  }
}

const fake = new FakeKube()
let dir: string
let kubeconfig: string

/** A kubeconfig for the fake (plain HTTP needs `insecure-skip-tls-verify` in client-node 1.x+). */
async function writeKubeconfig(server: string, file: string): Promise<void> {
  await fs.writeFile(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: ${server}
    insecure-skip-tls-verify: true
users:
- name: fake
  user:
    token: test-token
contexts:
- name: fake
  context:
    cluster: fake
    user: fake
current-context: fake
`,
  )
}

const spec = (over: Partial<ContainerSpec> = {}): ContainerSpec => ({
  id: '6f1c2a0e-1111-4222-8333-444455556666',
  image: 'registry.example.org/ctf/web:1',
  port: 8080,
  memoryLimit: 128,
  cpuCount: 5,
  storageLimit: 512,
  flag: 'flag{k8s}',
  kind: 'instance',
  gameId: 3,
  challengeId: 7,
  teamId: 11,
  participationId: 13,
  ...over,
})

const provider = (env: Record<string, string> = {}) =>
  new KubernetesProvider(loadConfig({ KUBECONFIG: kubeconfig, KUBERNETES_NAMESPACE: 'ctf', CONTAINER_ENGINE_TIMEOUT_MS: '2000', ...env }), pino({ level: 'silent' }), 'scope-1')

beforeAll(async () => {
  await fake.start()
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flagwave-kube-'))
  kubeconfig = path.join(dir, 'config')
  await writeKubeconfig(fake.url, kubeconfig)
})
afterAll(async () => {
  await fake.stop()
  await fs.rm(dir, { recursive: true, force: true })
})
beforeEach(() => fake.reset())

describe('KubernetesProvider against a fake API server (no cluster on CI)', () => {
  it('creates a network policy, a pod and a NodePort service with limits, flag and labels', async () => {
    const created = await provider({ PUBLIC_ENTRY: 'ctf.example.org' }).create(spec())
    const name = 'fw-6f1c2a0e-1111-4222-8333-444455556666'
    expect(created).toEqual({ containerId: name, status: 'Running', ip: '10.96.0.42', port: 8080, publicIp: 'ctf.example.org', publicPort: 30000 })
    expect(fake.log.slice(0, 3).map((l) => `${l.method} ${l.path}`)).toEqual([
      'POST /apis/networking.k8s.io/v1/namespaces/ctf/networkpolicies',
      'POST /api/v1/namespaces/ctf/pods',
      'POST /api/v1/namespaces/ctf/services',
    ])
    expect(fake.log.every((l) => l.auth === 'Bearer test-token')).toBe(true)

    const labels = {
      'flagwave.managed': 'true',
      'flagwave.scope': 'scope-1',
      'flagwave.container': '6f1c2a0e-1111-4222-8333-444455556666',
      'flagwave.kind': 'instance',
      'flagwave.game': '3',
      'flagwave.challenge': '7',
      'flagwave.team': '11',
      'flagwave.participation': '13',
    }
    const pod = fake.pods.get(name)!
    expect(pod.metadata.labels).toEqual(labels)
    expect(pod.spec).toMatchObject({ restartPolicy: 'Never', automountServiceAccountToken: false, enableServiceLinks: false })
    expect(pod.spec.containers).toEqual([
      expect.objectContaining({
        name: 'challenge',
        image: 'registry.example.org/ctf/web:1',
        env: [{ name: 'GZCTF_FLAG', value: 'flag{k8s}' }],
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m', memory: '128Mi', 'ephemeral-storage': '512Mi' }, requests: { cpu: '10m', memory: '32Mi' } },
      }),
    ])
    const policy = fake.policies.get(name)!
    expect(policy.spec.podSelector).toEqual({ matchLabels: { 'flagwave.container': '6f1c2a0e-1111-4222-8333-444455556666' } })
    expect(policy.spec.policyTypes).toEqual(['Egress'])
    expect(policy.spec.egress[0]).toEqual({ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: BLOCKED_EGRESS } }] })
    expect(BLOCKED_EGRESS).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']))
    const service = fake.services.get(name)!
    expect(service.spec).toMatchObject({ type: 'NodePort', selector: { 'flagwave.container': '6f1c2a0e-1111-4222-8333-444455556666' } })
    expect(service.spec.ports[0]).toMatchObject({ port: 8080, targetPort: 8080, protocol: 'TCP' })
  })

  it('static challenges get no GZCTF_FLAG; proxy mode uses a ClusterIP service and no public address', async () => {
    const p = provider({ CONTAINER_PORT_MAPPING: 'proxy' })
    const created = await p.create(spec({ flag: null }))
    expect(created.publicIp).toBeNull()
    expect(created.publicPort).toBeNull()
    expect(p.dialTarget(created)).toEqual({ host: '10.96.0.42', port: 8080 })
    const name = created.containerId
    expect(fake.pods.get(name)!.spec.containers[0].env).toEqual([])
    expect(fake.services.get(name)!.spec.type).toBe('ClusterIP')
  })

  it('lists the scope\'s pods, tells whether one is alive, destroys all three objects idempotently', async () => {
    const p = provider()
    const created = await p.create(spec())
    fake.pods.set('someone-else', { metadata: { name: 'someone-else', labels: { 'flagwave.managed': 'true', 'flagwave.scope': 'other' } } })
    const list = await p.list()
    expect(list).toEqual([{ containerId: created.containerId, guid: '6f1c2a0e-1111-4222-8333-444455556666', running: true, createdAt: expect.any(Date) }])
    expect(await p.alive(created.containerId)).toBe(true)
    await p.destroy(created.containerId)
    expect(fake.pods.has(created.containerId)).toBe(false)
    expect(fake.services.has(created.containerId)).toBe(false)
    expect(fake.policies.has(created.containerId)).toBe(false)
    expect(fake.pods.has('someone-else')).toBe(true)
    expect(await p.alive(created.containerId)).toBe(false)
    await p.destroy(created.containerId) // already gone: fine
  })

  it('removes what it created when a later step fails', async () => {
    fake.failServiceCreate = true
    const err = await provider().create(spec()).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderError)
    expect((err as ProviderError).reason).toBe('engine')
    expect([fake.pods.size, fake.services.size, fake.policies.size]).toEqual([0, 0, 0])

    fake.reset()
    fake.podPhase = 'Failed'
    const failed = await provider().create(spec()).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(ProviderError)
    expect([fake.pods.size, fake.services.size, fake.policies.size]).toEqual([0, 0, 0])
  })

  it('gives up on a pod that never runs within the engine timeout', async () => {
    fake.podPhase = 'Pending'
    const t0 = Date.now()
    const err = await provider({ CONTAINER_ENGINE_TIMEOUT_MS: '700' }).create(spec()).catch((e: unknown) => e)
    expect((err as ProviderError).reason).toBe('timeout')
    expect(Date.now() - t0).toBeLessThan(5000)
    expect([fake.pods.size, fake.services.size, fake.policies.size]).toEqual([0, 0, 0])
  })

  it('reports an unreachable API server as unavailable', async () => {
    const file = path.join(dir, 'dead')
    await writeKubeconfig('http://127.0.0.1:1', file)
    const p = new KubernetesProvider(loadConfig({ KUBECONFIG: file, CONTAINER_ENGINE_TIMEOUT_MS: '2000' }), pino({ level: 'silent' }), 's')
    const err = await p.create(spec()).catch((e: unknown) => e)
    expect((err as ProviderError).reason).toBe('unavailable')
  })
})

describe('the platform on the Kubernetes provider', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ env: { CONTAINER_PROVIDER: 'kubernetes', KUBECONFIG: kubeconfig, KUBERNETES_NAMESPACE: 'ctf', PUBLIC_ENTRY: 'ctf.example.org', CONTAINER_REAPER_INTERVAL_MS: '3600000' } })
    await isolateIds(server)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('starts a team container whose entry is the public address and node port; destroy deletes the pod', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'DynamicContainer', containerImage: 'registry.example.org/ctf/web:1', containerExposePort: 80, flags: [] })
    const player = await createPlayer(server, game)
    await ensureInstances(server.services.orm.em.fork(), player.participation.id, game.id)

    const res = await player.client.post(containerPath(game.id, challenge.id))
    expect(res.status).toBe(200)
    const info = ContainerInfoModel.parse(res.body)
    expect(info.entry).toMatch(/^ctf\.example\.org:300\d\d$/)
    const row = await server.services.orm.em.fork().findOneOrFail(Container, { containerId: { $like: 'fw-%' } })
    const pod = fake.pods.get(row.containerId)!
    expect(pod.spec.containers[0].env[0].name).toBe('GZCTF_FLAG')
    expect(pod.metadata.labels!['flagwave.scope']).toBe(server.services.containers.scope)

    // reconciliation: an unknown pod of this scope goes, the known one stays
    fake.pods.set('fw-stray', { metadata: { name: 'fw-stray', labels: { 'flagwave.managed': 'true', 'flagwave.scope': server.services.containers.scope }, creationTimestamp: new Date(0).toISOString() }, status: { phase: 'Running' } })
    const result = await reconcileContainers(server.services, { graceMs: 0 })
    expect(result).toEqual({ removed: ['fw-stray'], markedDestroyed: [] })
    expect(fake.pods.has(row.containerId)).toBe(true)

    await server.services.orm.em.fork().nativeUpdate(GameInstance, { participation: player.participation.id }, { lastContainerOperation: new Date(0) })
    expect((await player.client.delete(containerPath(game.id, challenge.id))).status).toBe(200)
    expect(fake.pods.has(row.containerId)).toBe(false)
    expect(fake.services.has(row.containerId)).toBe(false)
    expect(fake.policies.has(row.containerId)).toBe(false)
  })

  it('answers 400 题目创建容器失败 when the API refuses', async () => {
    const game = await createGame(server)
    const challenge = await createChallenge(server, game, { type: 'StaticContainer', containerImage: 'x', containerExposePort: 80 })
    const player = await createPlayer(server, game)
    await ensureInstances(server.services.orm.em.fork(), player.participation.id, game.id)
    fake.failServiceCreate = true
    expectRefusal(await player.client.post(containerPath(game.id, challenge.id)), '题目创建容器失败', 'engineError')
    expect([fake.pods.size, fake.services.size, fake.policies.size]).toEqual([0, 0, 0])
  })
})
