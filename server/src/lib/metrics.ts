/**
 * The node's Prometheus metrics (docs/operations.md#metrics), one registry per `Services` so that
 * several servers in one process (tests) keep theirs apart.
 *
 * HTTP requests are counted on the hot path, so they do not go through prom-client's labelled
 * metrics (which build a label key string on every observation): each route of the route table
 * carries a `RouteLabel` made once at boot, and a request adds to that label's fixed array of
 * bucket counters and its status counts — no allocation per request. They are rendered in the
 * exposition format at scrape time, after the registry's own metrics. The label is the route
 * table's path pattern (`/api/game/:id/challenges/:cid`), never the raw URL, so the series are
 * bounded by the table.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/** A route as the request metrics name it. */
export interface RouteLabel {
  readonly method: string
  readonly route: string
}

const labels = new Map<string, RouteLabel>()

/** The one label object of a route (made at boot; the route table and the fast paths share it). */
export function routeLabel(method: string, route: string): RouteLabel {
  const key = `${method} ${route}`
  let label = labels.get(key)
  if (!label) {
    label = Object.freeze({ method, route })
    labels.set(key, label)
  }
  return label
}
/** Requests outside the route table: the SPA, static files, unmatched paths. */
export const OTHER_ROUTE = routeLabel('*', 'other')

/** Seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const PUSH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]
const SOLVE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60]

class RouteSlot {
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length)
  count = 0
  sum = 0
  readonly statuses = new Map<number, number>()
  constructor(readonly label: RouteLabel) {}
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

/** Socket counts of one transport (Socket.IO, SignalR, …), by namespace or hub path. */
export type SocketCounter = () => { namespace: string; count: number }[]

export class Metrics {
  readonly registry = new Registry()
  private readonly slots = new Map<RouteLabel, RouteSlot>()
  private readonly sockets = new Map<string, SocketCounter>()
  private webhookBacklog: (() => Promise<number>) | null = null
  private readonly fanOut: Histogram<'event'>
  private readonly solvePush: Histogram
  private readonly settled: Counter<'status'>

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'flagwave_' })
    this.fanOut = new Histogram({
      name: 'flagwave_push_fanout_seconds',
      help: "Time one push took to write to this node's sockets of its room, by event",
      labelNames: ['event'],
      buckets: PUSH_BUCKETS,
      registers: [this.registry],
    })
    this.solvePush = new Histogram({
      name: 'flagwave_solve_push_latency_seconds',
      help: 'From a correct flag submitted to the scoreboard push that shows it (submission time to push, on the owning node)',
      buckets: SOLVE_BUCKETS,
      registers: [this.registry],
    })
    this.settled = new Counter({
      name: 'flagwave_submissions_settled_total',
      help: "Submissions judged by this node's checkers, by verdict",
      labelNames: ['status'],
      registers: [this.registry],
    })
    const sockets = this.sockets
    new Gauge({
      name: 'flagwave_realtime_sockets',
      help: 'Connected realtime sockets on this node, by transport and namespace (hub)',
      labelNames: ['transport', 'namespace'],
      registers: [this.registry],
      collect() {
        this.reset()
        for (const [transport, count] of sockets) for (const row of count()) this.set({ transport, namespace: row.namespace }, row.count)
      },
    })
    const backlog = () => this.webhookBacklog
    new Gauge({
      name: 'flagwave_webhook_backlog',
      help: 'Webhook deliveries waiting in the outbox (0 when webhooks are not available)',
      registers: [this.registry],
      async collect() {
        const source = backlog()
        this.set(source ? await source() : 0)
      },
    })
  }

  /** One finished HTTP request (called for every request: keep it free of allocation). */
  request(label: RouteLabel, seconds: number, status: number): void {
    let slot = this.slots.get(label)
    if (slot === undefined) {
      slot = new RouteSlot(label)
      this.slots.set(label, slot)
    }
    slot.count += 1
    slot.sum += seconds
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        slot.buckets[i]! += 1
        break
      }
    }
    slot.statuses.set(status, (slot.statuses.get(status) ?? 0) + 1)
  }

  /** A push written to a room's sockets on this node. */
  pushed(event: string, seconds: number): void {
    this.fanOut.observe({ event }, seconds)
  }

  /** A scoreboard push went out showing a solve submitted at `submitTime` (epoch ms). */
  solvePushed(submitTime: number, now: number): void {
    this.solvePush.observe(Math.max(0, now - submitTime) / 1000)
  }

  /** A checker settled submissions. */
  settledSubmission(status: string): void {
    this.settled.inc({ status })
  }

  /**
   * A realtime transport reports its sockets (Socket.IO: realtime/server.ts). Read at every
   * scrape; registering a transport again replaces its counter.
   */
  registerSockets(transport: string, count: SocketCounter): void {
    this.sockets.set(transport, count)
  }

  /** The webhook outbox reports how many deliveries wait; without it the gauge is 0. */
  registerWebhookBacklog(count: () => Promise<number>): void {
    this.webhookBacklog = count
  }

  /** A gauge read at scrape time from `read` (rows of label values and a value). */
  gauge<L extends string>(name: string, help: string, labelNames: L[], read: () => Promise<{ labels?: Partial<Record<L, string>>; value: number }[]>): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const rows = await read()
        this.reset()
        for (const row of rows) {
          if (row.labels) this.set(row.labels, row.value)
          else this.set(row.value)
        }
      },
    })
  }

  get contentType(): string {
    return this.registry.contentType
  }

  /** The exposition text: the registry's metrics, then the request metrics. */
  async render(): Promise<string> {
    return (await this.registry.metrics()) + this.renderRequests()
  }

  private renderRequests(): string {
    const lines = [
      '# HELP flagwave_http_request_duration_seconds HTTP request latency by route (the route table pattern) and method',
      '# TYPE flagwave_http_request_duration_seconds histogram',
    ]
    const statuses = ['# HELP flagwave_http_responses_total HTTP responses by route, method and status', '# TYPE flagwave_http_responses_total counter']
    for (const slot of this.slots.values()) {
      const labels = `method="${escapeLabel(slot.label.method)}",route="${escapeLabel(slot.label.route)}"`
      let cumulative = 0
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        cumulative += slot.buckets[i]!
        lines.push(`flagwave_http_request_duration_seconds_bucket{${labels},le="${LATENCY_BUCKETS[i]}"} ${cumulative}`)
      }
      lines.push(`flagwave_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${slot.count}`)
      lines.push(`flagwave_http_request_duration_seconds_sum{${labels}} ${slot.sum}`)
      lines.push(`flagwave_http_request_duration_seconds_count{${labels}} ${slot.count}`)
      for (const [status, count] of slot.statuses) statuses.push(`flagwave_http_responses_total{${labels},status="${status}"} ${count}`)
    }
    return `\n${lines.join('\n')}\n\n${statuses.join('\n')}\n`
  }
}
