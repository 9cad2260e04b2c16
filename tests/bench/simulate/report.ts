/**
 * The printed result of `npm run simulate`: per-call latencies and outcomes, push latencies,
 * submissions and their verdicts, sockets, the server's and the client's resources, and the
 * verdict of the run (what fails it, what misses the 250 ms goal).
 */
import type { CallFigure, LatencyFigure, Stats, WindowFigure } from './stats.js'
import type { ResourceReport } from './procstat.js'
import type { NoticeReceipt, ScreenSighting } from './pushes.js'

/** Player-facing calls and pushes should stay under this at the 99th percentile (issue goal). */
const GOAL_P99_MS = 250

export interface SubmissionCheck {
  total: number
  accepted: number
  wrong: number
  unsettled: number
  mismatched: number
  byPush: number
  byPoll: number
  /** The server's own count by status (the admin's submission list), null when it could not be read. */
  server: Record<string, number> | null
  /** Accepted solves the final scoreboard does not show (null: not checked). */
  missingOnBoard: number | null
}

export interface RunReport {
  title: string
  signup: { seconds: number; calls: CallFigure[] }
  event: {
    seconds: number
    calls: CallFigure[]
    requestsPerSecond: number
    windows: WindowFigure[]
    pushes: LatencyFigure[]
    notices: NoticeReceipt[]
    counters: Record<string, number>
    examples: Record<string, string[]>
    /** Solves the first big screen saw more than 1 s after the flag was sent (seconds from the start). */
    slowSolves: ScreenSighting[]
    /** When the first big screen received whole boards (seconds from the start). */
    wholeBoardsAt: number[]
  }
  submissions: SubmissionCheck
  resources: ResourceReport
  failures: string[]
  overGoal: string[]
}

const pad = (s: string | number, n: number) => String(s).padStart(n)
const fmt = (x: number) => (Number.isFinite(x) ? (x >= 100 ? String(Math.round(x)) : x.toFixed(1)) : '–')

function callTable(calls: CallFigure[]): string[] {
  const width = Math.max(40, ...calls.map((c) => c.call.length))
  const lines = [`  ${'call'.padEnd(width)} ${pad('count', 7)} ${pad('p50 ms', 8)} ${pad('p99 ms', 8)} ${pad('max ms', 8)}  outcomes`]
  for (const c of calls) {
    const outcomes = Object.entries(c.outcomes)
      .map(([k, n]) => (k === '2xx' ? `${n} ok` : `${n}× ${k}`))
      .join(', ')
    lines.push(`  ${c.call.padEnd(width)} ${pad(c.count, 7)} ${pad(fmt(c.p50), 8)} ${pad(fmt(c.p99), 8)} ${pad(fmt(c.max), 8)}  ${outcomes}`)
  }
  return lines
}

function latencyTable(figures: LatencyFigure[]): string[] {
  const width = Math.max(40, ...figures.map((f) => f.name.length))
  return [
    `  ${'push / wait'.padEnd(width)} ${pad('count', 7)} ${pad('p50 ms', 8)} ${pad('p99 ms', 8)} ${pad('max ms', 8)}`,
    ...figures.map((f) => `  ${f.name.padEnd(width)} ${pad(f.count, 7)} ${pad(fmt(f.p50), 8)} ${pad(fmt(f.p99), 8)} ${pad(fmt(f.max), 8)}`),
  ]
}

export function printReport(r: RunReport): void {
  const out: string[] = []
  out.push('', r.title, '')
  out.push(`Before the event — registration, teams, joins, reviews: ${Math.round(r.signup.seconds)} s`, ...callTable(r.signup.calls), '')
  out.push(`The event — ${Math.round(r.event.seconds)} s, ${fmt(r.event.requestsPerSecond)} requests/s on average`, ...callTable(r.event.calls), '')
  out.push(
    'Player-facing calls over time',
    `  ${pad('from s', 7)} ${pad('calls/s', 8)} ${pad('p50 ms', 8)} ${pad('p99 ms', 8)} ${pad('max ms', 8)} ${pad('5xx/lost', 9)}`,
    ...r.event.windows.map((w) => `  ${pad(w.fromSecond, 7)} ${pad(fmt(w.perSecond), 8)} ${pad(fmt(w.p50), 8)} ${pad(fmt(w.p99), 8)} ${pad(fmt(w.max), 8)} ${pad(w.failed, 9)}`),
    '',
  )
  out.push('Pushes and waits (one clock: this process)', ...latencyTable(r.event.pushes), '')
  if (r.event.notices.length) {
    out.push('Notices: player sockets connected when posted → received')
    for (const n of r.event.notices) out.push(`  ${n.kind} "${n.match}": ${n.connected} → ${n.receivers}`)
    out.push('')
  }
  const s = r.submissions
  out.push(
    `Submissions: ${s.total} with an id — ${s.accepted} Accepted, ${s.wrong} wrong; verdict first by push ${s.byPush}, by polling ${s.byPoll};` +
      ` unsettled (lost) ${s.unsettled}; right/wrong mismatched ${s.mismatched}`,
  )
  if (r.event.slowSolves.length) {
    out.push(`  solves the big screen showed more than 1 s after the flag was sent (first ${r.event.slowSolves.length}; s from the start):`)
    for (const x of r.event.slowSolves) {
      out.push(`    row ${x.rowId} challenge ${x.challengeId}: sent ${x.sentAt.toFixed(1)}, shown ${x.at.toFixed(1)} by ${x.whole ? 'a whole board' : 'a difference'} (version ${x.version})`)
    }
  }
  if (r.event.wholeBoardsAt.length) out.push(`  whole boards (pushed or announced) reached the big screen at ${r.event.wholeBoardsAt.map((t) => t.toFixed(1)).join(', ')} s`)
  if (s.missingOnBoard !== null) out.push(`  accepted solves missing from the final scoreboard: ${s.missingOnBoard}`)
  out.push(`  the server lists: ${s.server ? Object.entries(s.server).map(([k, n]) => `${k} ${n}`).join(', ') || 'none' : 'could not be read'}`, '')
  if (Object.keys(r.event.counters).length) {
    out.push('Counters')
    for (const [k, n] of Object.entries(r.event.counters)) out.push(`  ${k}: ${n}`)
    out.push('')
  }
  const res = r.resources
  out.push(
    'Resources during the event (one-second samples; CPU in % of one core)',
    `  server pid ${res.serverPid ?? '(not found: pass --server-pid)'}: CPU avg ${res.serverCpu.avg} %, max ${res.serverCpu.max} %; RSS ${res.serverRssMb.start} → max ${res.serverRssMb.max} → ${res.serverRssMb.end} MB`,
    `  this client: CPU avg ${res.clientCpu.avg} %, max ${res.clientCpu.max} %; RSS max ${res.clientRssMb.max} MB; event-loop delay p50 ${res.clientLoopDelay.p50} ms, p99 ${res.clientLoopDelay.p99} ms, max ${res.clientLoopDelay.max} ms`,
    `  machine: ${res.cores} cores, avg ${res.machineBusy.avg} % busy, max ${res.machineBusy.max} % (every process, the database included)`,
    '',
  )
  if (Object.keys(r.event.examples).length) {
    out.push('Unexpected answers (first few of each)')
    for (const [kind, texts] of Object.entries(r.event.examples)) out.push(`  ${kind}`, ...texts.map((t) => `    ${t.replace(/\s+/g, ' ')}`))
    out.push('')
  }
  out.push(r.overGoal.length ? `Over the ${GOAL_P99_MS} ms p99 goal: ${r.overGoal.join('; ')}` : `Every player-facing p99 is under ${GOAL_P99_MS} ms.`)
  out.push(r.failures.length ? `FAILED: ${r.failures.join('; ')}` : 'PASSED: no 5xx, no transport error, no lost or misjudged submission.', '')
  console.log(out.join('\n'))
}

/** What fails the run, and which player-facing figures miss the goal. */
export function judge(stats: Stats, submissions: SubmissionCheck): { failures: string[]; overGoal: string[] } {
  const failures: string[] = []
  const serverFailures = stats.serverFailures()
  if (serverFailures > 0) failures.push(`${serverFailures} calls answered 5xx or not at all`)
  if (submissions.unsettled > 0) failures.push(`${submissions.unsettled} submissions never settled`)
  if (submissions.mismatched > 0) failures.push(`${submissions.mismatched} submissions judged against their flag`)
  if (submissions.missingOnBoard) failures.push(`${submissions.missingOnBoard} accepted solves missing from the final scoreboard`)
  if (stats.counter('submissions: id handed out twice') > 0) failures.push('submission ids handed out twice')
  if (submissions.server) {
    const listed = Object.values(submissions.server).reduce((a, b) => a + b, 0)
    const unanswered = stats.counter('submissions: sent without an answer')
    if (listed < submissions.total || listed > submissions.total + unanswered) {
      failures.push(`the server lists ${listed} submissions, the players got ${submissions.total} ids (and ${unanswered} submissions got no answer)`)
    }
    if ((submissions.server.FlagSubmitted ?? 0) > 0) failures.push(`${submissions.server.FlagSubmitted} submissions still queued on the server`)
    if ((submissions.server.Accepted ?? 0) !== submissions.accepted) failures.push(`the server lists ${submissions.server.Accepted ?? 0} Accepted, the players saw ${submissions.accepted}`)
  }
  const overGoal = [
    ...stats
      .callFigures()
      .filter((c) => !c.call.startsWith('admin') && c.p99 > GOAL_P99_MS)
      .map((c) => `${c.call} ${fmt(c.p99)} ms`),
    ...stats
      .latencyFigures()
      .filter((f) => f.name.includes('→') && !f.name.includes('by poll') && f.p99 > GOAL_P99_MS)
      .map((f) => `${f.name} ${fmt(f.p99)} ms`),
  ]
  return { failures, overGoal }
}
