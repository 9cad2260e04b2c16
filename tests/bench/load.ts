/**
 * Load processes of the benchmark (run in child processes so they do not share the server's event loop):
 *
 * - `watch`: N watching sockets on `/hub/user?game=ID` (or on the bench's raw `ws` server, which
 *   answers the same handshake), speaking the Engine.IO/Socket.IO wire protocol over a minimal
 *   WebSocket client on raw TCP (a big screen's browser parses the board on
 *   its own CPU; here a thousand of them share two cores with the server, so they only read the
 *   event name and `version` from each frame and count the rest of its bytes). Records when each
 *   socket had received each version completely; an announced version (`refetch`, a large board
 *   after a rebuild) when the socket's REST read of the board (gzipped, as a browser asks) answered
 *   it. Also records when each socket heard each `ReceivedGameNotice`, and answers `have`: how
 *   many sockets hold a version at least as new as the one asked.
 * - `drive`: submits correct flags at a fixed rate over HTTP (each a first solve of its team and
 *   challenge) and runs one full `socket.io-client` that parses every push (delta or whole board)
 *   to learn which version first contains each solve.
 *
 * Times are `performance.timeOrigin + performance.now()` (milliseconds, comparable across processes).
 */
import { io } from 'socket.io-client'
import net from 'node:net'
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

const now = () => performance.timeOrigin + performance.now()
const send = (message: unknown) => process.send!(message)

interface WatchArgs {
  url: string
  gameId: number
  count: number
  /** The WebSocket path and query; by default Flagwave's Socket.IO endpoint watching the game. */
  path?: string
}

/**
 * A minimal WebSocket client on a raw TCP socket: it parses frame headers and, for a big frame,
 * reads only its first bytes (event name and version) and counts the rest without copying — so a
 * socket's cost is a few instructions per chunk and the time recorded is when the whole push
 * has arrived.
 */
class RawSocket {
  private buffered: Buffer = Buffer.alloc(0)
  private upgraded = false
  /** Bytes of the current frame's payload still to come, and its first bytes. */
  private remaining = 0
  private head = ''
  private headWanted = 0
  readonly ready: Promise<void>
  private resolveReady!: () => void

  constructor(
    private readonly socket: net.Socket,
    host: string,
    pathAndQuery: string,
    private readonly onBoard: (version: number, announced: boolean) => void,
    private readonly onNotice: () => void = () => undefined,
  ) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve))
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => this.onData(chunk))
    socket.write(
      `GET ${pathAndQuery} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    )
  }

  close(): void {
    this.socket.destroy()
  }

  private send(text: string): void {
    const payload = Buffer.from(text)
    const mask = randomBytes(4)
    const header = Buffer.from([0x81, 0x80 | payload.length])
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!
    this.socket.write(Buffer.concat([header, mask, payload]))
  }

  private onData(chunk: Buffer): void {
    let data = this.buffered.length > 0 ? Buffer.concat([this.buffered, chunk]) : chunk
    this.buffered = Buffer.alloc(0)
    if (!this.upgraded) {
      const end = data.indexOf('\r\n\r\n')
      if (end < 0) {
        this.buffered = data
        return
      }
      this.upgraded = true
      data = data.subarray(end + 4)
    }
    let offset = 0
    while (offset < data.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, data.length - offset)
        if (this.head.length < this.headWanted) this.head += data.toString('latin1', offset, offset + Math.min(take, this.headWanted - this.head.length))
        this.remaining -= take
        offset += take
        if (this.remaining === 0) this.onMessage(this.head)
        continue
      }
      // frame header: FIN/opcode, length (server frames are not masked)
      if (data.length - offset < 2) break
      const len7 = data[offset + 1]! & 0x7f
      const headerSize = len7 === 126 ? 4 : len7 === 127 ? 10 : 2
      if (data.length - offset < headerSize) break
      const length = len7 === 126 ? data.readUInt16BE(offset + 2) : len7 === 127 ? Number(data.readBigUInt64BE(offset + 2)) : len7
      offset += headerSize
      this.remaining = length
      this.head = ''
      this.headWanted = Math.min(length, 160)
      if (length === 0) this.onMessage('')
    }
    if (offset < data.length) this.buffered = Buffer.from(data.subarray(offset))
  }

  private onMessage(head: string): void {
    if (head.startsWith(BOARD_PREFIX)) {
      const m = /"version":(\d+)(,"refetch":true)?/.exec(head)
      if (m) this.onBoard(Number(m[1]), m[2] !== undefined)
    } else if (head.startsWith(NOTICE_PREFIX)) this.onNotice()
    else if (head === '2') this.send('3')
    else if (head.startsWith('0{')) this.send('40/hub/user,')
    else if (head.startsWith('40/hub/user,')) this.resolveReady()
  }
}

const BOARD_PREFIX = '42/hub/user,["ReceivedScoreboardUpdate",{"gameId":'
const NOTICE_PREFIX = '42/hub/user,["ReceivedGameNotice",'

/** Each load process reads boards over a few kept-alive connections per socket pool, as browsers keep theirs. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })

/** GET the board as a browser does (gzip); resolves with the answered version once the whole body arrived. */
function readBoard(url: string, gameId: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/game/${gameId}/scoreboard`, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.on('data', () => undefined)
      res.on('end', () => resolve(Number(res.headers['x-scoreboard-version'])))
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

async function watch({ url, gameId, count, path }: WatchArgs): Promise<void> {
  const arrivals = new Map<number, number[]>()
  const notices: number[][] = []
  const { hostname, port, host } = new URL(url)
  const sockets: RawSocket[] = []
  /** Per socket, the newest version it holds. */
  const held: number[] = []
  let readErrors = 0
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const seen = new Set<number>()
      const index = held.push(-1) - 1
      const heard: number[] = []
      notices.push(heard)
      const have = (version: number) => {
        const at = now()
        held[index] = Math.max(held[index]!, version)
        if (seen.has(version)) return
        seen.add(version)
        let list = arrivals.get(version)
        if (!list) arrivals.set(version, (list = []))
        list.push(at)
      }
      /** An announced version: read it over REST, again shortly while an older one answers. */
      const read = async (version: number) => {
        for (let attempt = 0; attempt < 20 && held[index]! < version; attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, 50))
          const answered = await readBoard(url, gameId).catch(() => (readErrors++, -1))
          if (answered >= version) have(answered)
        }
      }
      const tcp = net.connect(Number(port), hostname)
      tcp.on('error', reject)
      const socket = new RawSocket(
        tcp,
        host,
        path ?? `/socket.io/?EIO=4&transport=websocket&game=${gameId}`,
        (version, announced) => (announced ? void read(version) : have(version)),
        () => heard.push(now()),
      )
      sockets.push(socket)
      socket.ready.then(resolve, reject)
    })
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, open))
  send({ type: 'ready', connected: sockets.length })
  process.on('message', (message: { type: string; version?: number }) => {
    if (message.type === 'have') send({ type: 'have', count: held.filter((v) => v >= message.version!).length })
    if (message.type !== 'stop') return
    for (const socket of sockets) socket.close()
    agent.destroy()
    send({ type: 'arrivals', arrivals: [...arrivals], notices, readErrors })
  })
}

interface DriveArgs {
  url: string
  gameId: number
  rate: number
  /** [cookie token, challenge id, team id, flag, participation id, user id] per solve, in order. */
  solves: [string, number, number, string, number, string][]
  /** `http`: POST like a player; `queue`: insert into the durable queue (+ NOTIFY) like the submit endpoint does. */
  via: 'http' | 'queue'
  databaseUrl: string
  /** Solves at the head of `solves` sent first and left out of the figures. */
  warmup: number
}

async function drive({ url, gameId, rate, solves, via, databaseUrl, warmup }: DriveArgs): Promise<void> {
  const db = via === 'queue' ? new pg.Pool({ connectionString: databaseUrl, max: 8 }) : null
  const t0 = new Map<string, number>()
  const firstVersion = new Map<string, number>()
  const versionAt = new Map<number, number>()
  let errors = 0
  const errorKinds: Record<string, number> = {}
  const fail = (kind: string) => {
    errors += 1
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
  }
  const probe = io(`${url}/hub/user`, { path: '/socket.io', transports: ['websocket'], query: { game: String(gameId) }, reconnection: false })
  // The first version showing a team's solve: a whole board, or a delta's changed cells.
  type Rows = { id: number; challenges: { id: number; type: string }[] }[]
  probe.on('ReceivedScoreboardUpdate', (update: { version: number; scoreboard?: { items: Rows }; delta?: { items: Rows } }) => {
    versionAt.set(update.version, now())
    for (const item of update.delta?.items ?? update.scoreboard?.items ?? []) {
      for (const c of item.challenges) {
        if (c.type === 'Unaccepted') continue
        const key = `${item.id}:${c.id}`
        if (!firstVersion.has(key)) firstVersion.set(key, update.version)
      }
    }
  })
  await new Promise<void>((resolve) => probe.once('connect', () => resolve()))
  await new Promise((r) => setTimeout(r, 300))
  send({ type: 'ready' })
  await new Promise<void>((resolve) => process.once('message', () => resolve()))

  /** Submit `list` at `rate` per second; `measured` ones get their send time recorded. */
  const stream = async (list: DriveArgs['solves'], measured: boolean): Promise<Promise<void>[]> => {
    const started = now()
    const pending: Promise<void>[] = []
    for (let i = 0; i < list.length; i++) {
      const [token, challengeId, teamId, flag, participationId, userId] = list[i]!
      const due = started + (i * 1000) / rate
      const wait = due - now()
      if (wait > 1) await new Promise((r) => setTimeout(r, wait))
      if (measured) t0.set(`${teamId}:${challengeId}`, now())
      if (db) {
        pending.push(
          db
            .query(
              `with queued as (insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
                 values ($1, $2, $3, $4, $5, 'FlagSubmitted', now()) returning id) select pg_notify('flagwave_submissions', id::text) from queued`,
              [gameId, challengeId, participationId, userId, flag],
            )
            .then(() => undefined)
            .catch((err) => fail(String(err?.code ?? err))),
        )
        continue
      }
      pending.push(
        fetch(`${url}/api/game/${gameId}/challenges/${challengeId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `GZCTF_Token=${token}` },
          body: JSON.stringify({ flag }),
        })
          .then(async (res) => {
            await res.arrayBuffer()
            if (res.status !== 200) fail(`HTTP ${res.status}`)
          })
          .catch((err) => fail(String(err?.cause?.code ?? err?.code ?? err))),
      )
    }
    return pending
  }

  // Warm-up, not measured: the first solves of a fresh game take its bloods (a notice each to every
  // watcher), which a running game has long behind it; then a second to settle.
  const warm = solves.slice(0, warmup)
  await Promise.all(await stream(warm, false))
  const warmDeadline = now() + 30_000
  while (warm.some(([, c, teamId]) => !firstVersion.has(`${teamId}:${c}`)) && now() < warmDeadline) await new Promise((r) => setTimeout(r, 50))
  await new Promise((r) => setTimeout(r, 1000))

  const started = now()
  const pending = await stream(solves.slice(warmup), true)
  const sentIn = now() - started
  await Promise.all(pending)
  const deadline = now() + 30_000
  // Every measured solve seen (firstVersion also holds the warm-up's), or give up after 30 s.
  while ([...t0.keys()].some((key) => !firstVersion.has(key)) && now() < deadline) await new Promise((r) => setTimeout(r, 50))
  probe.close()
  await db?.end()
  send({ type: 'result', t0: [...t0], firstVersion: [...firstVersion], versionAt: [...versionAt], errors, errorKinds, sentIn })
}

process.once('message', (message: { type: string; role: 'watch' | 'drive'; args: any }) => {
  const run = message.role === 'watch' ? watch(message.args) : drive(message.args)
  run.catch((err) => {
    send({ type: 'error', error: String(err?.stack ?? err) })
  })
})
