/**
 * What every domain command receives (docs/architecture.md, "Commands"): the unit of work it
 * reads and writes through, the process's services, the sink its realtime side effects go to,
 * and a logger. A request builds one from its context (http/route.ts); a worker builds one
 * with the immediate sink, because it commits on its own.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Logger } from 'pino'
import type { Services } from '../services.js'
import type { Publish } from '../realtime/sink.js'

export interface Scope {
  em: EntityManager
  services: Services
  /** Realtime events and room moves; in a request they leave after the commit. */
  events: Publish
  log: Logger
}

/** A scope for background work: a fresh unit of work and immediate pushes. */
export function workerScope(services: Services): Scope {
  return { em: services.orm.em.fork(), services, events: services.realtime, log: services.log }
}
