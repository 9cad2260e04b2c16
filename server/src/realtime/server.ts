/**
 * Socket.IO on the same HTTP server, with the three hubs of docs/compatibility.md#realtime-hubs as namespaces.
 * The handshake must not be cross-site and reuses the session cookie or presents an API token; access is checked on connect
 * (a socket that may not listen is refused and disconnected) and re-checked for the sockets of a
 * game when that game's rights change (docs/realtime.md#who-may-join-what).
 */
import type { Server as HttpServer } from 'node:http'
import { Server, type DefaultEventsMap, type Namespace, type RemoteSocket, type Socket } from 'socket.io'
import { RedisAdapter } from '@socket.io/redis-adapter'
import { parse as parseCookies } from 'cookie'
import { NAMESPACES, rooms, type NamespaceName, type Refusal } from '@flagwave/shared/events'
import { roleRank } from '@flagwave/shared/enums'
import type { Services } from '../services.js'
import { SESSION_COOKIE, resolveSession } from '../domain/accounts/sessions.js'
import { gameAccess, gameRoomsFor, watchersOf } from './access.js'
import { authenticateBearer, scopeAllows } from '../domain/accounts/apiTokens.js'
import { bearerOf } from '../lib/bearer.js'
import type { TokenScope } from '@flagwave/shared/schemas/tokens'
import type { EventOf } from './sink.js'
import type { User } from '../entities/User.js'
import { isCrossSite, sitePolicyOf } from '../lib/crossSite.js'
import { directFanOut } from './fanOut.js'

/** What a refused cross-site handshake is told (engine.io's `{ code, message }` body on polling, the text on an upgrade). */
const CROSS_SITE_REFUSED = '跨站请求已被拒绝'

export function attachRealtime(http: HttpServer, services: Services): Server {
  const sitePolicy = sitePolicyOf(services.config)
  const io = new Server(http, {
    path: '/socket.io',
    serveClient: false,
    transports: ['websocket', 'polling'],
    pingInterval: 15_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 1e5,
    // Every new engine.io session, long polling or a WebSocket upgrade, is judged like an HTTP
    // request by its headers and TCP peer (lib/crossSite.ts, docs/realtime.md#handshake-origin):
    // a cross-site page must not open a socket that carries its visitor's session cookie.
    allowRequest: (req, callback) => {
      const crossSite = isCrossSite(req.headers, req.socket.remoteAddress, sitePolicy)
      callback(crossSite ? CROSS_SITE_REFUSED : null, !crossSite)
    },
  })
  if (services.redis) {
    // Pushes published in one tick (a settled batch: results, monitor rows, audit entries) leave
    // in one write to Redis rather than one each.
    const pub = services.redis.duplicate({ enableAutoPipelining: true })
    const sub = services.redis.duplicate()
    const Adapter = directFanOut(RedisAdapter)
    const options = { key: `${services.config.REDIS_PREFIX}:io` }
    // Socket.IO calls it with `new` (as it does createAdapter's factory): a function, not an arrow.
    io.adapter(function redisAdapter(nsp: Namespace) {
      return new Adapter(nsp, pub, sub, options)
    } as AdapterConstructor)
  } else {
    // Socket.IO's in-memory adapter, the default it installed above.
    io.adapter(directFanOut(io.adapter() as unknown as Parameters<typeof directFanOut>[0]) as unknown as AdapterConstructor)
  }

  /**
   * The caller of a socket: an API token when one is presented (handshake `auth.token`, an
   * `Authorization: Bearer` header, or the `access_token` query parameter), checked by the same
   * `authenticateBearer` as REST, else the session cookie. A bad token, or one without the hub's
   * scope, is `'refused'` rather than anonymous (docs/realtime.md#tokens).
   */
  const authenticate = async (socket: Socket, needed: TokenScope): Promise<User | null | 'refused'> => {
    const handshake = socket.handshake
    const authToken = (handshake.auth as { token?: unknown } | undefined)?.token
    const bearer = typeof authToken === 'string' ? authToken.replace(/^Bearer\s+/i, '') : bearerOf(handshake.headers.authorization, handshake.query.access_token)
    if (bearer !== null) {
      const principal = await authenticateBearer(services.orm.em.fork(), bearer)
      return principal && scopeAllows(principal.token.scopes, needed) ? principal.user : 'refused'
    }
    const token = parseCookies(handshake.headers.cookie ?? '')[SESSION_COOKIE]
    if (!token) return null
    const resolved = await resolveSession(services.orm.em.fork(), token)
    return resolved?.user ?? null
  }

  const gameQuery = (socket: Socket): number | null => {
    const raw = socket.handshake.query.game
    const value = Array.isArray(raw) ? raw[0] : raw
    return value && /^\d{1,10}$/.test(value) ? Number(value) : null
  }

  // Every hub's map has `Refused` (shared/src/events.ts); the sockets here are untyped, so the name and payload are checked against it.
  const refuse = (socket: Socket | RemoteSocket<DefaultEventsMap, unknown>, reason: Refusal['reason']) => {
    const event: EventOf<NamespaceName> & 'Refused' = 'Refused'
    const refusal: Refusal = { reason }
    socket.emit(event, refusal)
    socket.disconnect(true)
  }

  io.of(NAMESPACES.user).on('connection', async (socket) => {
    try {
      const user = await authenticate(socket, 'read')
      const gameId = gameQuery(socket)
      if (user === 'refused') return refuse(socket, 'role')
      if (user?.role === 'Banned') return refuse(socket, 'banned')
      socket.data = { userId: user?.id ?? null } satisfies SocketData
      if (user) socket.join(rooms.user(user.id))
      socket.join(rooms.everyone)
      if (gameId === null) {
        // A socket without a game still receives config pushes and, when signed in, team updates.
        if (user) {
          for (const teamRoom of await teamRoomsOf(services, user)) socket.join(teamRoom)
        }
        return
      }
      const joined = await gameRoomsFor(services.orm.em.fork(), gameId, user)
      if (!joined) return refuse(socket, 'game')
      socket.join(joined)
    } catch (err) {
      services.log.warn({ err }, 'user hub connection failed')
      socket.disconnect(true)
    }
  })

  io.of(NAMESPACES.monitor).on('connection', async (socket) => {
    try {
      const user = await authenticate(socket, 'monitor')
      const gameId = gameQuery(socket)
      if (!user || user === 'refused' || roleRank(user.role) < roleRank('Monitor') || gameId === null) return refuse(socket, 'role')
      const exists = await services.orm.em.fork().getConnection().execute('select 1 from games where id = ?', [gameId])
      if (exists.length === 0) return refuse(socket, 'game')
      socket.data = { userId: user.id } satisfies SocketData
      socket.join([rooms.game(gameId), rooms.user(user.id)])
    } catch (err) {
      services.log.warn({ err }, 'monitor hub connection failed')
      socket.disconnect(true)
    }
  })

  io.of(NAMESPACES.admin).on('connection', async (socket) => {
    try {
      const user = await authenticate(socket, 'admin')
      if (!user || user === 'refused' || user.role !== 'Admin') return refuse(socket, 'role')
      socket.join([rooms.admins, rooms.user(user.id)])
    } catch (err) {
      services.log.warn({ err }, 'admin hub connection failed')
      socket.disconnect(true)
    }
  })

  /**
   * Re-decide every socket already watching `gameId`, on every node, with the rule of the connect
   * (realtime/access.ts): after a change of the game's rights (its start moved, the game deleted)
   * a socket that may no longer listen is refused and disconnected, as it would be on connect, and
   * team rooms follow. docs/realtime.md#re-checks.
   */
  const recheckGame = (gameId: number): Promise<void> =>
    recheckSockets(gameId).catch((err: unknown) => services.log.error({ err, gameId }, 'realtime re-check failed'))
  const recheckSockets = async (gameId: number): Promise<void> => {
    const [watching, monitoring] = await Promise.all([
      io.of(NAMESPACES.user).in(rooms.game(gameId)).fetchSockets(),
      io.of(NAMESPACES.monitor).in(rooms.game(gameId)).fetchSockets(),
    ])
    const em = services.orm.em.fork()
    const ids = [...new Set(watching.map((s) => userIdOf(s)).filter((id): id is string => id !== null))]
    const watchers = new Map((await watchersOf(em, ids)).map((w) => [w.id, w]))
    const access = await gameAccess(em, gameId, [...watchers.values()])
    const teamRoomPrefix = `${rooms.game(gameId)}_`
    for (const socket of watching) {
      const userId = userIdOf(socket)
      const watcher = userId === null ? null : watchers.get(userId)
      // A socket whose user is gone is dropped by the deletion itself (disconnectUser).
      if (watcher === undefined) continue
      if (watcher?.role === 'Banned') {
        refuse(socket, 'banned')
        continue
      }
      const allowed = watcher ? access.users.get(watcher.id) : access.anonymous
      if (!allowed) {
        refuse(socket, 'game')
        continue
      }
      for (const room of socket.rooms) if (room.startsWith(teamRoomPrefix) && !allowed.includes(room)) socket.leave(room)
      for (const room of allowed) if (!socket.rooms.has(room)) socket.join(room)
    }
    if (monitoring.length > 0 && (await em.getConnection().execute('select 1 from games where id = ?', [gameId])).length === 0) {
      for (const socket of monitoring) refuse(socket, 'game')
    }
  }

  services.realtime.attach(io, recheckGame, services.redis !== null)
  services.metrics.registerSockets('socket.io', () => Object.values(NAMESPACES).map((namespace) => ({ namespace, count: io.of(namespace).sockets.size })))
  return io
}

/** What `io.adapter()` takes: an adapter class, or a function Socket.IO calls with `new`. */
type AdapterConstructor = NonNullable<Parameters<Server['adapter']>[0]>

/** What the server keeps on a socket (visible to every node through the adapter): who holds it. */
interface SocketData {
  userId: string | null
}

const userIdOf = (socket: { data: unknown }): string | null => (socket.data as Partial<SocketData> | undefined)?.userId ?? null

async function teamRoomsOf(services: Services, user: User): Promise<string[]> {
  const rows = await services.orm.em
    .fork()
    .getConnection()
    .execute<{ team_id: number }[]>('select team_id from team_members where user_id = ?', [user.id])
  return rows.map((r) => rooms.teamMembers(r.team_id))
}
