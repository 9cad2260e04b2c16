/**
 * Real `@microsoft/signalr` connections to the SignalR hubs (docs/realtime.md#signalr-hubs), as a
 * client written for GZ::CTF opens them: negotiate, then WebSockets, the session cookie (and any
 * Origin) sent as headers like a browser would. Every invocation is recorded; a refusal arrives as
 * a close with an error right after the handshake, so `closed` is watched from the start.
 */
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr'
import { NAMESPACES, type NamespaceName } from '@flagwave/shared/events'
import type { TestServer } from './server.js'
import type { ApiClient } from './client.js'

/** Every target the hubs send (shared/src/events.ts); the client only records what it registered. */
const TARGETS = [
  'ReceivedGameNotice',
  'ReceivedScoreboardUpdate',
  'ReceivedChallengeUpdate',
  'ReceivedSubmissionResult',
  'ReceivedContainerUpdate',
  'ReceivedTeamUpdate',
  'ReceivedParticipationUpdate',
  'ReceivedConfigUpdate',
  'ReceivedRevealUpdate',
  'ReceivedGameEvent',
  'ReceivedSubmissions',
  'ReceivedLog',
  'ServerShutdown',
]

export interface HubOptions {
  game?: number
  /** `compat=` hub query (newer GZ::CTF clients' time form). */
  compat?: string
  client?: ApiClient
  cookie?: string
  headers?: Record<string, string>
  /** withAutomaticReconnect with these delays. */
  reconnect?: number[]
  /** An API token, sent the way browsers' SignalR clients send it (`accessTokenFactory` → `access_token`). */
  accessToken?: string
}

export interface HubClient {
  connection: HubConnection
  events: { target: string; payload: any }[]
  /** Resolves with the close error (undefined for a clean close) once the connection is closed for good. */
  closed: Promise<Error | undefined>
  /** The next invocation of `target` (matching `match`) received from now on. */
  next<T = any>(target: string, match?: (payload: T) => boolean, timeoutMs?: number): Promise<T>
  stop(): Promise<void>
}

const open = new Set<HubConnection>()

function hubUrl(server: Pick<TestServer, 'url'>, hub: NamespaceName, options: Pick<HubOptions, 'game' | 'compat'> = {}): string {
  const query = new URLSearchParams()
  if (options.game !== undefined) query.set('game', String(options.game))
  if (options.compat !== undefined) query.set('compat', options.compat)
  const qs = query.toString()
  return `${server.url}${NAMESPACES[hub]}${qs ? `?${qs}` : ''}`
}

/** Build and start a connection; rejects when negotiation or the WebSocket is refused. */
export async function connectHub(server: Pick<TestServer, 'url'>, hub: NamespaceName, options: HubOptions = {}): Promise<HubClient> {
  const cookie = options.cookie ?? options.client?.cookieHeader ?? ''
  let builder = new HubConnectionBuilder()
    .withUrl(hubUrl(server, hub, options), {
      headers: { ...options.headers, ...(cookie ? { Cookie: cookie } : {}) },
      ...(options.accessToken ? { accessTokenFactory: () => options.accessToken! } : {}),
    })
    .configureLogging(LogLevel.None)
  if (options.reconnect) builder = builder.withAutomaticReconnect(options.reconnect)
  const connection = builder.build()
  const events: HubClient['events'] = []
  const waiters: { target: string; match: (p: any) => boolean; resolve: (p: any) => void }[] = []
  for (const target of TARGETS) {
    connection.on(target, (payload: unknown) => {
      events.push({ target, payload })
      for (const w of [...waiters]) {
        if (w.target === target && w.match(payload)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(payload)
        }
      }
    })
  }
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose((err) => resolve(err)))
  await connection.start()
  open.add(connection)
  return {
    connection,
    events,
    closed,
    next: (target, match = () => true, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${target} within ${timeoutMs} ms`)), timeoutMs)
        waiters.push({
          target,
          match,
          resolve: (p) => {
            clearTimeout(timer)
            resolve(p)
          },
        })
      }),
    stop: () => connection.stop(),
  }
}

/** Resolve with the close error, or reject when the connection is still open after `timeoutMs`. */
export function closedWithin(hub: HubClient, timeoutMs = 5000): Promise<Error | undefined> {
  return Promise.race([hub.closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still ${hub.connection.state} after ${timeoutMs} ms`)), timeoutMs))])
}

/**
 * Connect a caller the hub refuses and return the close error's message. The refusal follows the
 * handshake so closely that it may fail `start()` itself or close the connection just after.
 */
export async function refusalOf(server: Pick<TestServer, 'url'>, hub: NamespaceName, options: HubOptions = {}): Promise<string> {
  let client: HubClient
  try {
    client = await connectHub(server, hub, options)
  } catch (err) {
    return (err as Error).message
  }
  return (await closedWithin(client))?.message ?? 'closed without an error'
}

/** Wait until the server has at least `size` sockets (Socket.IO's and the hubs') in `room` of `hub`. */
export async function roomSize(server: Pick<TestServer, 'services'>, hub: NamespaceName, room: string, size: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const current = server.services.realtime.server?.of(NAMESPACES[hub]).adapter.rooms.get(room)?.size ?? 0
    if (current >= size) return
    if (Date.now() > deadline) throw new Error(`${room} on ${hub} has ${current} sockets, not ${size}, after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** The number of sockets in `room` of `hub` now. */
export function roomCount(server: Pick<TestServer, 'services'>, hub: NamespaceName, room: string): number {
  return server.services.realtime.server?.of(NAMESPACES[hub]).adapter.rooms.get(room)?.size ?? 0
}

/** Stop every connection opened through `connectHub` (call in afterEach). */
export async function stopAllHubs(): Promise<void> {
  const all = [...open]
  open.clear()
  await Promise.all(all.filter((c) => c.state !== HubConnectionState.Disconnected).map((c) => c.stop().catch(() => undefined)))
}
