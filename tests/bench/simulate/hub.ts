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
  /**
   * Take whole-board pushes without parsing them: called with their version instead of the
   * `ReceivedScoreboardUpdate` listener. A browser parses the whole board on its own CPU; a
   * thousand sockets in this one process parsing it at once (hundreds of KB each, after every
   * rebuild) would block this client for seconds and inflate every latency it measures.
   */
  onWholeBoard?: (version: number) => void
}

/** A whole-board push as the socket.io parser receives it: event packet, user namespace, event name first. */
const WHOLE_BOARD_PREFIX = `2${NAMESPACES.user},["ReceivedScoreboardUpdate",`
const WHOLE_BOARD_VERSION = /^\{"gameId":\d+,"version":(\d+),"scoreboard":/
/** Differences are small; only frames above this are looked at. */
const WHOLE_BOARD_MIN_BYTES = 16_384

/** Route whole-board frames to `onWholeBoard` before socket.io's decoder parses them. */
function skipWholeBoards(socket: Socket, onWholeBoard: (version: number) => void): void {
  const decoder = (socket.io as unknown as { decoder: { add: (data: unknown) => void } }).decoder
  const add = decoder.add.bind(decoder)
  decoder.add = (data) => {
    if (typeof data === 'string' && data.length > WHOLE_BOARD_MIN_BYTES && data.startsWith(WHOLE_BOARD_PREFIX)) {
      const version = WHOLE_BOARD_VERSION.exec(data.slice(WHOLE_BOARD_PREFIX.length, WHOLE_BOARD_PREFIX.length + 100))
      if (version) return onWholeBoard(Number(version[1]))
    }
    add(data)
  }
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
  if (options.onWholeBoard) skipWholeBoards(socket, options.onWholeBoard)
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
