/**
 * What every domain command receives (docs/architecture.md, "Commands"): the unit of work it
 * reads and writes through, the process's services, the sink its realtime side effects go to,
 * and a logger. A request builds one from its context (http/route.ts). Workers commit on their
 * own and publish through the immediate sink, `services.realtime`.
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
