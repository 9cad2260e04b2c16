/**
 * A simulated person's socket on the user hub, opened like the SPA does (client/src/realtime/hub.ts;
 * docs/realtime.md): WebSocket transport, the game in the handshake query, the session cookie and
 * the person's address as headers, and socket.io's reconnection with the SPA's delays. Every
 * (re)connection calls `onConnect` — the SPA refetches what it shows then, since pushes may have
 * been missed. Disconnects and refusals are counted.
 */
import { io, type Socket } from 'socket.io-client'
import { NAMESPACES } from '@flagwave/shared/events'
import type { Browser } from './http.js'
import type { Stats } from './stats.js'

export interface HubOptions {
  gameId: number
  stats: Stats
  /** Who holds the socket, for the counters: `player` or `screen`. */
  role: string
  onConnect: (reconnect: boolean) => void
}

export function openHub(browser: Browser, base: URL, options: HubOptions): Socket {
  const { stats, role } = options
  const socket = io(new URL(NAMESPACES.user, base).href, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    query: { game: String(options.gameId) },
    extraHeaders: browser.handshakeHeaders(),
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 10_000,
    timeout: 20_000,
  })
  let connectedBefore = false
  const started = performance.now()
  socket.on('connect', () => {
    if (!connectedBefore) stats.latency(`${role}: socket connected (handshake)`, performance.now() - started)
    else stats.count(`${role} sockets: reconnected`)
    options.onConnect(connectedBefore)
    connectedBefore = true
  })
  socket.on('connect_error', (error) => {
    stats.count(`${role} sockets: connect errors`)
    stats.example(`${role} socket connect_error`, error.message)
  })
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') return
    stats.count(`${role} sockets: dropped (${reason})`)
    // The server ended the socket (a refusal, a shutdown): socket.io does not come back by itself.
    if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 1_000)
  })
  socket.on('Refused', (hint: { reason?: string }) => stats.count(`${role} sockets: refused (${hint?.reason ?? '?'})`))
  return socket
}
