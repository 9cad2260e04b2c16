/**
 * The realtime layer (docs/realtime.md; docs/compatibility.md#realtime-hubs).
 *
 * One Socket.IO connection per namespace per tab:
 *
 *   io('/hub/user' | '/hub/monitor' | '/hub/admin', { path: '/socket.io', transports: ['websocket'], query: { game } })
 *
 * The server reads the game from the handshake query, so a namespace's connection carries the game
 * of its current subscribers; when that changes the connection is re-established with the new
 * query (each namespace has its own Manager: `forceNew`). Events are typed by
 * `@flagwave/shared/events` and dispatched to listeners registered with `hub.on(...)`; listeners
 * survive reconnections and game switches.
 *
 * Consistency: pushes are a view of the database; a client that missed events converges by
 * refetching. Every (re)connection therefore triggers the `onResync` callbacks, with
 * `reconnect: true` when the connection had been up before (the app registers "revalidate every
 * mounted query" for that case, game pages refetch their scoreboard etc.).
 *
 * Usage from React lives in ./hooks.ts (`useHubEvent`, `useGameRoom`).
 *
 * socket.io-client is loaded on the first connection, not with the entry chunk: it is ~13 KB
 * gzipped and the first paint does not need it (the first-page budget is 250 KB gzipped).
 */
import type { io, Socket } from 'socket.io-client'
import { create } from 'zustand'
import { NAMESPACES, type HubEvents, type NamespaceName } from '@flagwave/shared/events'

export type HubStatus = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'refused'

/** Connection state of every namespace, for components and `useQuery({ live })`. */
export const useRealtimeStatus = create<Record<NamespaceName, HubStatus>>(() => ({
  user: 'idle',
  monitor: 'idle',
  admin: 'idle',
}))

type EventName<N extends NamespaceName> = keyof HubEvents[N] & string
type EventArgs<N extends NamespaceName, E extends EventName<N>> = HubEvents[N][E] extends (...args: infer A) => void ? A : never
type Listener = (...args: unknown[]) => void
export type ResyncInfo = { reconnect: boolean; game: number | null }

export class Hub<N extends NamespaceName> {
  private socket: Socket | null = null
  /** Set from `open()` until `teardown()`: also covers the wait for socket.io-client to load. */
  private active = false
  /** Bumped by every teardown, so a connection whose library arrives late is not opened. */
  private generation = 0
  private holders = 0
  /** Game subscriptions in acquisition order: gameId → reference count. */
  private games = new Map<number, number>()
  private currentGame: number | null = null
  private listeners = new Map<string, Set<Listener>>()
  private resyncCallbacks = new Set<(info: ResyncInfo) => void>()
  private droppedCallbacks = new Set<() => void>()
  private everConnected = false
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined

  constructor(readonly name: N) {}

  get game(): number | null {
    return this.currentGame
  }

  get connected(): boolean {
    return this.socket?.connected ?? false
  }

  /**
   * Keep the connection open (optionally for a game room). Returns the release function; the
   * connection closes when nobody holds it. With several games held at once, the most recently
   * acquired one wins (one connection per namespace).
   */
  hold(game: number | null = null): () => void {
    this.holders += 1
    if (game !== null) this.games.set(game, (this.games.get(game) ?? 0) + 1)
    if (game !== null && this.games.size > 1) console.warn(`[realtime] ${this.name}: several games held, following game ${game}`)
    this.sync(game ?? undefined)
    let released = false
    return () => {
      if (released) return
      released = true
      this.holders -= 1
      if (game !== null) {
        const left = (this.games.get(game) ?? 1) - 1
        if (left > 0) this.games.set(game, left)
        else this.games.delete(game)
      }
      // Let a route change re-acquire before tearing down.
      queueMicrotask(() => this.sync())
    }
  }

  /** Listen to a server event; returns the unsubscribe function. */
  on<E extends EventName<N>>(event: E, listener: (...args: EventArgs<N, E>) => void): () => void {
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    set.add(listener as Listener)
    return () => set.delete(listener as Listener)
  }

  /** Called after every (re)connection; see the module comment. */
  onResync(callback: (info: ResyncInfo) => void): () => void {
    this.resyncCallbacks.add(callback)
    return () => this.resyncCallbacks.delete(callback)
  }

  /**
   * Called when the server itself ended the connection (a ban, a role change, a refusal, a
   * shutdown); the app re-reads the session then (realtime/dispatch.ts).
   */
  onDropped(callback: () => void): () => void {
    this.droppedCallbacks.add(callback)
    return () => this.droppedCallbacks.delete(callback)
  }

  /** Re-establish the connection (the session changed: login, logout). */
  restart(): void {
    if (!this.active) return
    this.teardown()
    this.sync()
  }

  private wantedGame(): number | null {
    let last: number | null = null
    for (const game of this.games.keys()) last = game
    return last
  }

  private sync(preferred?: number): void {
    if (this.holders <= 0) {
      if (this.active) this.teardown()
      setStatus(this.name, 'idle')
      return
    }
    const game = preferred !== undefined && this.games.has(preferred) ? preferred : this.wantedGame()
    if (this.active && game === this.currentGame) return
    if (this.active) this.teardown()
    this.currentGame = game
    this.open()
  }

  private open(): void {
    this.active = true
    setStatus(this.name, 'connecting')
    const generation = this.generation
    void loadSocketIo().then(
      ({ io }) => {
        if (this.generation === generation) this.connect(io)
      },
      (error: unknown) => {
        console.error('[realtime] socket.io-client failed to load', error)
        if (this.generation === generation) setStatus(this.name, 'disconnected')
      },
    )
  }

  private connect(connectTo: typeof io): void {
    const query: Record<string, string> = {}
    if (this.currentGame !== null) query.game = String(this.currentGame)
    const socket = connectTo(NAMESPACES[this.name], {
      path: '/socket.io',
      transports: ['websocket'],
      query,
      forceNew: true,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 10_000,
    })
    this.socket = socket

    socket.on('connect', () => {
      setStatus(this.name, 'connected')
      const info: ResyncInfo = { reconnect: this.everConnected, game: this.currentGame }
      this.everConnected = true
      for (const callback of [...this.resyncCallbacks]) {
        try {
          callback(info)
        } catch (error) {
          console.error('[realtime] resync callback failed', error)
        }
      }
    })
    // The server ends a connection itself when access is refused (a `Refused` hint first), when
    // the user's role changed (reconnect: access is re-checked) or when it shuts down
    // (`ServerShutdown` says when to come back). socket.io does not reconnect by itself then.
    let refused = false
    let retryMs = 1_000
    socket.on('Refused', (hint: { reason?: string }) => {
      refused = true
      console.info(`[realtime] ${this.name}: refused (${hint?.reason ?? 'unknown'})`)
    })
    socket.on('ServerShutdown', (hint: { retryMs?: number }) => {
      retryMs = Math.max(500, hint?.retryMs ?? 2_000)
    })
    socket.on('disconnect', (reason) => {
      if (reason !== 'io server disconnect') {
        setStatus(this.name, 'disconnected')
        return
      }
      // The server drops a user's sockets when an admin bans them or changes their role: the
      // session is re-read now, so a banned user is signed out at once on every page.
      for (const callback of [...this.droppedCallbacks]) callback()
      if (refused) {
        setStatus(this.name, 'refused')
        return
      }
      setStatus(this.name, 'disconnected')
      clearTimeout(this.reconnectTimer)
      this.reconnectTimer = setTimeout(
        () => {
          if (this.socket === socket && !socket.connected) socket.connect()
        },
        retryMs * (1 + Math.random()),
      )
      retryMs = 1_000
    })
    socket.on('connect_error', () => setStatus(this.name, 'disconnected'))
    socket.onAny((event: string, ...args: unknown[]) => {
      const set = this.listeners.get(event)
      if (!set) return
      for (const listener of [...set]) {
        try {
          listener(...args)
        } catch (error) {
          console.error(`[realtime] listener of ${event} failed`, error)
        }
      }
    })
  }

  private teardown(): void {
    clearTimeout(this.reconnectTimer)
    const socket = this.socket
    this.socket = null
    this.active = false
    this.generation += 1
    this.currentGame = null
    this.everConnected = false
    if (socket) {
      socket.offAny()
      socket.removeAllListeners()
      socket.disconnect()
    }
  }
}

type SocketIo = { io: typeof io }
let socketIo: Promise<SocketIo> | null = null
/** The library, fetched once; a failed fetch is tried again on the next connection. */
function loadSocketIo(): Promise<SocketIo> {
  socketIo ??= import('socket.io-client').catch((error: unknown) => {
    socketIo = null
    throw error
  })
  return socketIo
}

function setStatus(name: NamespaceName, status: HubStatus): void {
  if (useRealtimeStatus.getState()[name] !== status) useRealtimeStatus.setState({ [name]: status })
}

/** The three hubs of the tab. */
export const hubs = {
  user: new Hub('user'),
  monitor: new Hub('monitor'),
  admin: new Hub('admin'),
} as const satisfies { [K in NamespaceName]: Hub<K> }

/** Reconnect every open hub (the session changed). */
export function restartHubs(): void {
  hubs.user.restart()
  hubs.monitor.restart()
  hubs.admin.restart()
}
