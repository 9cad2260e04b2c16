/**
 * Resource use during the simulated event, sampled once a second from /proc: the server process
 * (found by the port it listens on, or `--server-pid`), this client process (its own CPU and how
 * late its event loop ran — a late loop inflates every latency it measures), and the whole
 * machine (the share of all cores busy, since the machine may be shared with other work).
 */
import fs from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * The loop monitor's timer period: it records the time between two runs of that timer, so the
 * lateness is what exceeds the period.
 */
const LOOP_RESOLUTION_MS = 20

/** USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on Linux everywhere that matters). */
const TICKS = 100

/** The pid of the process with a listening TCP socket on `port` (IPv4 or IPv6), or null. */
export function pidListeningOn(port: number): number | null {
  const inodes = new Set<string>()
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = fs.readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      // local_address is "ADDR:PORT", st 0A is LISTEN, inode is column 10.
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9])
    }
  }
  if (inodes.size === 0) return null
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let fds: string[]
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const target = fs.readlinkSync(`/proc/${entry}/fd/${fd}`)
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
        if (inode && inodes.has(inode)) return Number(entry)
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  return null
}

function processTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may contain spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return null
  }
}

function processRssMb(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : null
  } catch {
    return null
  }
}

function machineTicks(): { busy: number; total: number } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0)
  const total = cpu.reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}

interface Series {
  values: number[]
}
const push = (s: Series, v: number | null) => {
  if (v !== null && Number.isFinite(v)) s.values.push(v)
}
const avg = (s: Series) => (s.values.length ? s.values.reduce((a, b) => a + b, 0) / s.values.length : NaN)
const max = (s: Series) => (s.values.length ? Math.max(...s.values) : NaN)

export interface ResourceReport {
  serverPid: number | null
  /** Percent of one core, average and highest one-second sample. */
  serverCpu: { avg: number; max: number }
  serverRssMb: { start: number; max: number; end: number }
  clientCpu: { avg: number; max: number }
  clientRssMb: { max: number }
  /** How late the client's event loop ran a timer (ms beyond its due time). */
  clientLoopDelay: { p50: number; p99: number; max: number }
  /** Percent of all cores busy (every process on the machine). */
  machineBusy: { avg: number; max: number }
  cores: number
  samples: number
}

export class ResourceSampler {
  private timer: NodeJS.Timeout | null = null
  private readonly serverCpu: Series = { values: [] }
  private readonly serverRss: Series = { values: [] }
  private readonly clientCpu: Series = { values: [] }
  private readonly clientRss: Series = { values: [] }
  private readonly machine: Series = { values: [] }
  private readonly loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })
  private readonly cores = fs.readFileSync('/proc/stat', 'utf8').split('\n').filter((l) => /^cpu\d+ /.test(l)).length

  constructor(readonly serverPid: number | null) {}

  start(): void {
    let lastServer = this.serverPid ? processTicks(this.serverPid) : null
    let lastClient = process.cpuUsage()
    let lastMachine = machineTicks()
    let lastAt = performance.now()
    this.loop.enable()
    this.timer = setInterval(() => {
      const at = performance.now()
      const seconds = (at - lastAt) / 1000
      lastAt = at
      if (this.serverPid) {
        const ticks = processTicks(this.serverPid)
        if (ticks !== null && lastServer !== null) push(this.serverCpu, ((ticks - lastServer) / TICKS / seconds) * 100)
        lastServer = ticks
        push(this.serverRss, processRssMb(this.serverPid))
      }
      const client = process.cpuUsage()
      push(this.clientCpu, ((client.user - lastClient.user + client.system - lastClient.system) / 1e6 / seconds) * 100)
      lastClient = client
      push(this.clientRss, Math.round(process.memoryUsage.rss() / 1048576))
      const m = machineTicks()
      if (m.total > lastMachine.total) push(this.machine, ((m.busy - lastMachine.busy) / (m.total - lastMachine.total)) * 100)
      lastMachine = m
    }, 1000)
    this.timer.unref()
  }

  stop(): ResourceReport {
    if (this.timer) clearInterval(this.timer)
    this.loop.disable()
    const r = (x: number) => Math.round(x)
    const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 10) / 10)
    return {
      serverPid: this.serverPid,
      serverCpu: { avg: r(avg(this.serverCpu)), max: r(max(this.serverCpu)) },
      serverRssMb: { start: this.serverRss.values[0] ?? NaN, max: max(this.serverRss), end: this.serverRss.values.at(-1) ?? NaN },
      clientCpu: { avg: r(avg(this.clientCpu)), max: r(max(this.clientCpu)) },
      clientRssMb: { max: max(this.clientRss) },
      clientLoopDelay: { p50: ms(this.loop.percentile(50)), p99: ms(this.loop.percentile(99)), max: ms(this.loop.max) },
      machineBusy: { avg: r(avg(this.machine)), max: r(max(this.machine)) },
      cores: this.cores,
      samples: this.clientCpu.values.length,
    }
  }
}
