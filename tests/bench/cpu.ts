/**
 * CPU use of the bench's processes over a window, so a run bound by its own load processes (they
 * share the machine's two cores with the server) can be told apart from one bound by the server.
 */
import { readFileSync } from 'node:fs'
import { ownCpu, processCpu } from './wrk.js'

const round = (x: number) => Math.round(x)

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  // idle and iowait are not busy.
  return { busy: total - fields[3]! - (fields[4] ?? 0), total }
}

/**
 * Start measuring; `stop()` gives each process's CPU as a percentage of one core over the window
 * (`self` is this process: the server of the bench and its orchestration), and the machine's busy
 * share of all its cores.
 */
export function cpuWindow(pids: Record<string, number | undefined>): { stop: () => Record<string, number> } {
  const readers = Object.entries(pids).flatMap(([name, pid]) => (pid === undefined ? [] : [[name, processCpu(pid)] as const]))
  const started = performance.now()
  const self = ownCpu()
  const before = readers.map(([, read]) => read())
  const machine = machineTicks()
  return {
    stop() {
      const wallUs = (performance.now() - started) * 1000
      const figures: Record<string, number> = { selfPct: round((100 * (ownCpu() - self)) / wallUs) }
      readers.forEach(([name, read], i) => (figures[`${name}Pct`] = round((100 * (read() - before[i]!)) / wallUs)))
      const after = machineTicks()
      figures.machineBusyPct = round((100 * (after.busy - machine.busy)) / Math.max(1, after.total - machine.total))
      return figures
    },
  }
}
