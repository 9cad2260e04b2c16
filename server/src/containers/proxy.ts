/**
 * The platform proxy (docs/compatibility.md#group-proxy): `ws /api/proxy/{id}` (team containers) and
 * `ws /api/proxy/noinst/{id}` (editors' test containers) tunnel one TCP connection to the
 * container over a WebSocket, when CONTAINER_PORT_MAPPING=proxy.
 *
 * Upgrades arrive on the HTTP server's `upgrade` event (server.ts routes `/api/proxy/…` here and
 * everything else to Socket.IO); plain HTTP requests to the same paths are answered by
 * routes/proxy.ts with the same checks, ending in 204. Checks, in the contract's order:
 * 400 `TCP 代理已禁用` · 404 `不存在的容器` (validity cached 10 minutes, negatives included) ·
 * 400 `容器连接数已达上限` (more than 64 open connections, team containers only) · 404 when the
 * container is not a proxied one of the right kind · 400 `容器地址解析失败` · 400
 * `无效的访问地址` · 418 `容器连接失败（{SocketError}）` · 101.
 *
 * Relay: each client message (text or binary) is written verbatim to TCP; TCP bytes go back as
 * binary messages of at most 4096 bytes; TCP end → a close frame without status code; a session
 * is cut after 30 minutes. The TCP side is the container's published port (Docker) or its
 * service (Kubernetes), never a container IP. Traffic capture writes a pcap per connection.
 */
import net from 'node:net'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket, type RawData } from 'ws'
import type { Services } from '../services.js'
import { Container } from '../entities/Container.js'
import { GameInstance } from '../entities/GameInstance.js'
import type { Challenge } from '../entities/Challenge.js'
import type { Participation } from '../entities/Participation.js'
import type { Team } from '../entities/Team.js'
import { PcapWriter } from './pcap.js'
import { fileTimestamp } from '../domain/writeups/writeups.js'
import { proxyTrustOf, resolveClientAddress } from '../lib/clientAddress.js'

export const PROXY_CONNECTION_LIMIT = 64
const PROXY_SESSION_MS = 30 * 60 * 1000
const PROXY_CHUNK = 4096
const CONNECT_TIMEOUT_MS = 5000
const BACKPRESSURE_BYTES = 1 << 20

export const PROXY_TITLES = {
  disabled: 'TCP 代理已禁用',
  unknown: '不存在的容器',
  tooMany: '容器连接数已达上限',
  resolve: '容器地址解析失败',
  address: '无效的访问地址',
  connect: (error: string) => `容器连接失败（${error}）`,
} as const

const GUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const normalizeGuid = (s: string): string | null =>
  GUID.test(s) ? s.toLowerCase().replace(/^(.{8})-?(.{4})-?(.{4})-?(.{4})-?(.{12})$/, '$1-$2-$3-$4-$5') : null

export const isProxyPath = (url: string | undefined): boolean => /^\/api\/proxy\//i.test(url ?? '')

/** `/api/proxy/{id}` or `/api/proxy/noinst/{id}` (case-insensitive, trailing slash tolerated). */
function parseProxyPath(url: string | undefined): { noinst: boolean; id: string | null } | null {
  const pathname = (url ?? '').split('?')[0]!.replace(/\/+$/, '')
  const m = /^\/api\/proxy\/(?:(noinst)\/)?([^/]+)$/i.exec(pathname)
  if (!m) return null
  let raw = m[2]!
  try {
    raw = decodeURIComponent(raw)
  } catch {
    return { noinst: !!m[1], id: null }
  }
  return { noinst: !!m[1], id: normalizeGuid(raw) }
}

/** Step 2 of docs/compatibility.md#group-proxy: does a (not destroyed) container with this id exist? Cached 10 minutes. */
export async function proxyContainerExists(services: Services, id: string): Promise<boolean> {
  const cached = services.containers.validity.get(id)
  if (cached !== undefined) return cached
  const found = await services.orm.em.fork().count(Container, { id, status: { $ne: 'Destroyed' } })
  services.containers.validity.set(id, found > 0)
  return found > 0
}

/** Node's socket error codes as the .NET SocketError names the contract shows. */
function socketErrorName(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code ?? ''
  const names: Record<string, string> = {
    ECONNREFUSED: 'ConnectionRefused',
    ETIMEDOUT: 'TimedOut',
    EHOSTUNREACH: 'HostUnreachable',
    ENETUNREACH: 'NetworkUnreachable',
    ECONNRESET: 'ConnectionReset',
    ECONNABORTED: 'ConnectionAborted',
    EADDRNOTAVAIL: 'AddressNotAvailable',
    EACCES: 'AccessDenied',
  }
  return names[code] ?? (code || 'SocketError')
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 418: "I'm a teapot", 500: 'Internal Server Error' }

function reject(socket: Duplex, status: number, body: Record<string, unknown>): void {
  const json = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  )
}

const rejectTitle = (socket: Duplex, status: number, title: string, bodyStatus = status) => reject(socket, status, { title, status: bodyStatus })

function connect(host: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }))
    }, CONNECT_TIMEOUT_MS)
    socket.once('connect', () => {
      clearTimeout(timer)
      resolve(socket)
    })
    socket.once('error', (err) => {
      clearTimeout(timer)
      socket.destroy()
      reject(err)
    })
  })
}

const toBuffer = (data: RawData): Buffer => (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data))

interface Target {
  container: Container
  instance: GameInstance | null
}

export class ContainerProxy {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1 << 20 })

  constructor(private readonly services: Services) {}

  /** End every relayed session (shutdown): upgraded sockets would otherwise hold the HTTP server open. */
  close(): void {
    for (const session of [...this.services.containers.sessions]) session.close()
    this.wss.close()
  }

  /** The HTTP server's `upgrade` event for `/api/proxy/…`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined)
    this.upgrade(req, socket, head).catch((err: unknown) => {
      this.services.log.error({ err, url: req.url }, 'proxy: upgrade failed')
      if (socket.writable) rejectTitle(socket, 500, '服务器内部错误')
      else socket.destroy()
    })
  }

  /** The same client address as the HTTP app's (X-Forwarded-For only from TRUSTED_PROXIES). */
  private clientAddress(req: IncomingMessage): { ip: string; port: number } {
    const { ip } = resolveClientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], proxyTrustOf(this.services.config))
    return { ip, port: req.socket.remotePort ?? 0 }
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const services = this.services
    const runtime = services.containers
    if (!runtime.proxyMode) return rejectTitle(socket, 400, PROXY_TITLES.disabled)
    const parsed = parseProxyPath(req.url)
    if (!parsed || !parsed.id) return reject(socket, 404, { type: 'https://tools.ietf.org/html/rfc7231#section-6.5.4', title: 'Not Found', status: 404 })
    const id = parsed.id
    if (!(await proxyContainerExists(services, id))) return rejectTitle(socket, 404, PROXY_TITLES.unknown)
    if (!parsed.noinst && (runtime.connections.get(id) ?? 0) > PROXY_CONNECTION_LIMIT) return rejectTitle(socket, 400, PROXY_TITLES.tooMany)

    const target = await this.load(id)
    const owned = target?.instance != null
    if (!target || !target.container.isProxy || target.container.status === 'Destroyed' || owned === parsed.noinst) {
      return rejectTitle(socket, 404, PROXY_TITLES.unknown)
    }
    const dial = runtime.provider.dialTarget(target.container)
    if (!dial.host || !dial.port) return rejectTitle(socket, 400, PROXY_TITLES.resolve)
    const client = this.clientAddress(req)
    if (!client.ip) return rejectTitle(socket, 400, PROXY_TITLES.address)

    let tcp: net.Socket
    try {
      tcp = await connect(dial.host, dial.port)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return rejectTitle(socket, 400, PROXY_TITLES.resolve)
      return rejectTitle(socket, 418, PROXY_TITLES.connect(socketErrorName(err)))
    }
    if (socket.destroyed) {
      tcp.destroy()
      return
    }
    let accepted = false
    socket.once('close', () => {
      if (!accepted) tcp.destroy()
    })
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      accepted = true
      this.relay(ws, tcp, target, client, parsed.noinst).catch((err: unknown) => {
        services.log.error({ err, container: id }, 'proxy: relay failed')
        ws.terminate()
        tcp.destroy()
      })
    })
  }

  private async load(id: string): Promise<Target | null> {
    const em = this.services.orm.em.fork()
    const container = await em.findOne(Container, { id })
    if (!container) return null
    const instance = await em.findOne(GameInstance, { container: id }, { populate: ['challenge', 'participation.team'] })
    return { container, instance }
  }

  private async openCapture(target: Target, client: { ip: string; port: number }): Promise<PcapWriter | null> {
    const { container, instance } = target
    if (!instance || !this.services.config.ENABLE_TRAFFIC_CAPTURE) return null
    const challenge = instance.challenge as Challenge
    if (!challenge.enableTrafficCapture) return null
    const participation = instance.participation as Participation
    const team = participation.team as Team
    const captures = this.services.captures
    const ref = { challengeId: challenge.id, participationId: participation.id, name: `${fileTimestamp(new Date(), true)}-${randomBytes(6).toString('hex')}.pcap` }
    const file = captures.spoolPath(ref)
    try {
      return await PcapWriter.open(file, client, { ip: container.ip, port: container.port }, {
        challenge: challenge.title,
        challengeId: challenge.id,
        team: team.name,
        teamId: team.id,
        participationId: participation.id,
        containerId: container.id,
        flag: container.flag ?? instance.dynamicFlag ?? null,
        client: `${client.ip}:${client.port}`,
        time: new Date().toISOString(),
      }, () => captures.keep(ref))
    } catch (err) {
      this.services.log.error({ err, file }, 'proxy: cannot open the capture file')
      return null
    }
  }

  private async relay(ws: WebSocket, tcp: net.Socket, target: Target, client: { ip: string; port: number }, noinst: boolean): Promise<void> {
    const runtime = this.services.containers
    const id = target.container.id
    runtime.connections.set(id, (runtime.connections.get(id) ?? 0) + 1)
    let done = false
    let closedByClient = true
    let capture: PcapWriter | null = null
    let capturing = !noinst && target.instance !== null
    const pending: [boolean, Buffer][] = []
    const record = (fromClient: boolean, bytes: Buffer) => {
      if (capture) capture.data(fromClient, bytes)
      else if (capturing) pending.push([fromClient, bytes])
    }
    const session = { close: () => finish() }
    const cut = setTimeout(() => finish(), PROXY_SESSION_MS)
    cut.unref()
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(cut)
      runtime.sessions.delete(session)
      const left = (runtime.connections.get(id) ?? 1) - 1
      if (left > 0) runtime.connections.set(id, left)
      else runtime.connections.delete(id)
      if (ws.readyState === ws.OPEN) ws.close()
      else if (ws.readyState !== ws.CLOSED) ws.terminate()
      tcp.end()
      setTimeout(() => tcp.destroy(), 1000).unref()
      const writer = capture
      capture = null
      capturing = false
      void writer?.close(closedByClient)
    }
    runtime.sessions.add(session)

    // Client → container: verbatim.
    ws.on('message', (data) => {
      const bytes = toBuffer(data)
      record(true, bytes)
      if (!tcp.write(bytes)) {
        ws.pause()
        tcp.once('drain', () => ws.resume())
      }
    })
    ws.on('close', () => finish())
    ws.on('error', () => finish())

    // Container → client: binary messages of at most 4096 bytes.
    tcp.on('data', (chunk: Buffer) => {
      for (let offset = 0; offset < chunk.length; offset += PROXY_CHUNK) {
        const piece = chunk.subarray(offset, offset + PROXY_CHUNK)
        record(false, piece)
        ws.send(piece, { binary: true })
      }
      if (ws.bufferedAmount > BACKPRESSURE_BYTES) {
        tcp.pause()
        const wait = setInterval(() => {
          if (ws.readyState !== ws.OPEN || ws.bufferedAmount < BACKPRESSURE_BYTES / 4) {
            clearInterval(wait)
            tcp.resume()
          }
        }, 10)
      }
    })
    tcp.on('end', () => {
      closedByClient = false
      finish()
    })
    tcp.on('close', () => finish())
    tcp.on('error', () => finish())

    if (capturing) {
      const writer = await this.openCapture(target, client)
      if (done || !capturing) {
        await writer?.close(closedByClient)
        return
      }
      capture = writer
      capturing = writer !== null
      for (const [fromClient, bytes] of pending.splice(0)) writer?.data(fromClient, bytes)
    }
  }
}
