/**
 * startServer(): one Flagwave node — database (embedded or by URL), migrations, services,
 * the Koa app, Socket.IO and the background workers — with a graceful close().
 * main.ts runs it for production; the test-suite runs it in-process against a scratch database.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { configWarnings, type Config } from './config.js'
import { migrate, openDatabase } from './db/orm.js'
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded.js'
import { createServices, type Services } from './services.js'
import { requestListener } from './app.js'
import { attachRealtime } from './realtime/server.js'
import { ensureAdmin } from './domain/accounts/bootstrap.js'
import { startWorkers, type Workers } from './workers/index.js'
import { ContainerProxy, isProxyPath } from './containers/proxy.js'
import { SignalRHubs, isHubPath } from './realtime/signalr.js'

export interface RunningServer {
  url: string
  port: number
  services: Services
  http: http.Server
  /** Set when this node created the Admin account with a generated password. */
  adminPassword?: string
  close(): Promise<void>
}

/**
 * Connections the kernel may hold for us while the event loop is busy: Node's default (511) is
 * overrun when a thousand players arrive at once, each browser opening several connections, and
 * an overrun connection is not refused but left unanswered while the kernel retries for about
 * 30 s, then reset (docs/operations.md#an-event-simulated). Linux caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096

export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  for (const warning of configWarnings(config)) log.warn(warning)
  let embedded: EmbeddedDatabase | null = null
  let databaseUrl = config.DATABASE_URL
  if (!databaseUrl) {
    embedded = await startEmbeddedDatabase(config.dataDir, log)
    databaseUrl = embedded.url
  }
  const orm = await openDatabase(databaseUrl, log)
  await migrate(orm)
  const services = await createServices(config, orm, log)
  const admin = await ensureAdmin(orm.em.fork(), config)

  const server = http.createServer(requestListener(services))
  server.keepAliveTimeout = 65_000
  const hubs = new SignalRHubs(attachRealtime(server, services), services)
  const proxy = new ContainerProxy(services)
  routeUpgrades(server, proxy, hubs)
  routeHubRequests(server, hubs)
  const workers: Workers = await startWorkers(services)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG }, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST

  let closing: Promise<void> | null = null
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, tell sockets to come back later, drain in-flight work, then release resources.
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
      services.realtime.announceShutdown(2000)
      await workers.stop()
      proxy.close()
      await services.realtime.close()
      hubs.close()
      server.closeIdleConnections()
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 10_000))])
      server.closeAllConnections()
      await services.close()
      await orm.close(true)
      await embedded?.stop()
    })())

  return { url: `http://${host}:${port}`, port, services, http: server, adminPassword: admin.password, close }
}

/**
 * WebSocket upgrades of `/api/proxy/…` go to the container proxy (docs/compatibility.md#group-proxy), those of
 * `/hub/{name}` to the SignalR hubs (docs/realtime.md#signalr-hubs); every other upgrade (Socket.IO at
 * /socket.io) reaches the listeners registered before, unchanged. One dispatcher replaces them so
 * that Socket.IO's "destroy unknown upgrades" timer never sees a proxy or hub connection.
 */
function routeUpgrades(server: http.Server, proxy: ContainerProxy, hubs: SignalRHubs): void {
  const others = server.listeners('upgrade') as ((req: http.IncomingMessage, socket: Duplex, head: Buffer) => void)[]
  server.removeAllListeners('upgrade')
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isProxyPath(req.url)) return proxy.handleUpgrade(req, socket, head)
    if (isHubPath(req.url)) return hubs.handleUpgrade(req, socket, head)
    for (const listener of others) listener.call(server, req, socket, head)
  })
}

/**
 * SignalR's negotiation (`POST /hub/{name}/negotiate`) is the hubs' transport, like Socket.IO's
 * `/socket.io/` requests, and is answered before Koa; every other request goes on as before.
 */
function routeHubRequests(server: http.Server, hubs: SignalRHubs): void {
  const others = server.listeners('request') as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[]
  server.removeAllListeners('request')
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (hubs.handleRequest(req, res)) return
    for (const listener of others) listener.call(server, req, res)
  })
}
