import type { Logger } from 'pino'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Services } from '../services.js'
import type { User } from '../entities/User.js'
import type { Session } from '../entities/Session.js'
import type { Outbox } from '../realtime/outbox.js'
import type { RouteLabel } from '../lib/metrics.js'
import type { TokenScope } from '@flagwave/shared/schemas/tokens'

declare module 'koa' {
  interface DefaultState {
    requestId: string
    log: Logger
    /** The signed-in user, when the request carries a valid session cookie. */
    user?: User
    session?: Session
    /** The API token the request was authenticated with (then `user` is its owner and there is no session). */
    token?: { id: string; kind: string; scopes: TokenScope[] }
    /** The validated request input (body, query or both), set by `validate()`. */
    input?: unknown
    /** Typed path parameters, set by the route table once they passed their constraints. */
    params?: unknown
    /** The request opted in to GZ::CTF's newer wire forms (http/compat.ts); set on first use. */
    newerForms?: boolean
    /** A hot route's answer may be sent again only before this time (epoch ms; http/hotReads.ts), e.g. until a costed hint turns free. */
    hotReadUntil?: number
  }
  interface DefaultContext {
    services: Services
    /** The request's own EntityManager (a fork of the global one). */
    em: EntityManager
    /** Realtime events raised by this request, published once the response succeeded. */
    outbox: Outbox
    /** The client address: the right-most untrusted X-Forwarded-For hop from a trusted proxy, else the peer. */
    clientIp: string
    /** The TCP peer is loopback and the request was not forwarded (the global rate limit's exemption). */
    localCaller: boolean
    /** The route that answered, for the request metrics (set by the route table and the fast paths). */
    routeLabel?: RouteLabel
  }
}
