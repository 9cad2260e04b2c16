/**
 * What the simulated event measures (docs/operations.md#an-event-simulated): the latency and the
 * outcome of every HTTP call by route, the latency of every push by kind, and plain counters.
 * Samples are kept whole (a ten-minute run at 1,000 players is a few hundred thousand numbers) so
 * percentiles are exact.
 */

export interface CallFigure {
  call: string
  count: number
  p50: number
  p99: number
  max: number
  /** Responses by status class or transport error: `2xx`, `4xx 400`, `5xx 500`, `network ECONNRESET`. */
  outcomes: Record<string, number>
}

export interface WindowFigure {
  fromSecond: number
  perSecond: number
  count: number
  p50: number
  p99: number
  max: number
  /** 5xx and transport errors. */
  failed: number
}

export interface LatencyFigure {
  name: string
  count: number
  p50: number
  p99: number
  max: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const round1 = (x: number) => Math.round(x * 10) / 10

function summarise(samples: number[]): { count: number; p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(samples).sort()
  const list = Array.from(sorted)
  return { count: list.length, p50: round1(percentile(list, 50)), p99: round1(percentile(list, 99)), max: round1(list.at(-1) ?? NaN) }
}

export class Stats {
  private readonly calls = new Map<string, { ms: number[]; outcomes: Map<string, number> }>()
  private readonly latencies = new Map<string, number[]>()
  private readonly counters = new Map<string, number>()
  /** Unexpected answers, a few of each kind kept for the report. */
  readonly examples = new Map<string, string[]>()
  /** Every player-facing call as [performance.now() at its end, ms, failed], for the timeline. */
  private readonly timeline: [number, number, boolean][] = []

  /** One HTTP call: its route label, duration and outcome (`200`, `429`, `ECONNRESET`). */
  call(label: string, ms: number, outcome: number | string): void {
    let entry = this.calls.get(label)
    if (!entry) this.calls.set(label, (entry = { ms: [], outcomes: new Map() }))
    entry.ms.push(ms)
    const key = typeof outcome === 'number' ? `${Math.floor(outcome / 100)}xx${outcome >= 300 ? ` ${outcome}` : ''}` : `network ${outcome}`
    entry.outcomes.set(key, (entry.outcomes.get(key) ?? 0) + 1)
    if (!label.startsWith('admin')) this.timeline.push([performance.now(), ms, typeof outcome === 'string' || outcome >= 500])
  }

  /** Player-facing calls in windows of `windowMs` from `origin`: calls per second, p50, p99, failures. */
  windows(origin: number, windowMs: number): WindowFigure[] {
    const buckets = new Map<number, { ms: number[]; failed: number }>()
    for (const [at, ms, failed] of this.timeline) {
      const i = Math.max(0, Math.floor((at - origin) / windowMs))
      let b = buckets.get(i)
      if (!b) buckets.set(i, (b = { ms: [], failed: 0 }))
      b.ms.push(ms)
      if (failed) b.failed++
    }
    return [...buckets]
      .sort(([a], [b]) => a - b)
      .map(([i, b]) => ({ fromSecond: (i * windowMs) / 1000, perSecond: round1(b.ms.length / (windowMs / 1000)), ...summarise(b.ms), failed: b.failed }))
  }

  latency(name: string, ms: number): void {
    let list = this.latencies.get(name)
    if (!list) this.latencies.set(name, (list = []))
    list.push(ms)
  }

  count(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by)
  }

  counter(name: string): number {
    return this.counters.get(name) ?? 0
  }

  example(kind: string, text: string): void {
    const list = this.examples.get(kind) ?? []
    if (list.length < 5) list.push(text.slice(0, 300))
    this.examples.set(kind, list)
  }

  callFigures(): CallFigure[] {
    return [...this.calls].map(([call, { ms, outcomes }]) => ({ call, ...summarise(ms), outcomes: Object.fromEntries(outcomes) })).sort((a, b) => a.call.localeCompare(b.call))
  }

  latencyFigures(): LatencyFigure[] {
    return [...this.latencies].map(([name, ms]) => ({ name, ...summarise(ms) }))
  }

  counterFigures(): Record<string, number> {
    return Object.fromEntries([...this.counters].sort(([a], [b]) => a.localeCompare(b)))
  }

  /** Calls answered with a 5xx or not answered at all (reset, timeout): each fails the run. */
  serverFailures(): number {
    let n = 0
    for (const { outcomes } of this.calls.values()) for (const [key, count] of outcomes) if (key.startsWith('5xx') || key.startsWith('network')) n += count
    return n
  }
}
