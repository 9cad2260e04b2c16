/**
 * The bench's figures as a short markdown table (each beside its baseline of the same run and its
 * goal from docs/operations.md#benchmarks), written to tests/bench/results.md and into the README between the
 * `<!-- bench:start -->` / `<!-- bench:end -->` markers.
 */
import fs from 'node:fs/promises'
import { playerCallLabels, type PlayerCall, type SettledCost } from './players.js'

/** results.json: the bench's own loose record. */
type Results = Record<string, any>

const pct = (x: number) => `**${Math.round(x * 100)} %**`
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`

export function markdownTable(r: Results): string {
  const rows: [string, string, string][] = []
  const read = r.scoreboardRead
  if (read) {
    rows.push(['Bare Koa endpoint (wrk -t2 -c50)', `${read.bareKoa.rps} req/s (p99 ${read.bareKoa.p99ms} ms)`, 'baseline'])
    rows.push([
      `Scoreboard GET, gzip (${kb(read.data.gzipBytes)}, what browsers and bots ask for)`,
      `${read.scoreboardGzip.rps} req/s = ${pct(read.ratioGzip)} of bare; ${pct(read.ratioGzipToSameBytes)} of bare Koa sending the same bytes`,
      '≥ 70 % of bare',
    ])
    rows.push(['Scoreboard GET, If-None-Match → 304', `${read.scoreboard304.rps} req/s = ${pct(read.ratio304)} of bare`, '≥ 70 % of bare'])
    rows.push([
      `Scoreboard GET, identity (${kb(read.data.jsonBytes)} JSON)`,
      `${read.scoreboard.rps} req/s (${read.scoreboard.transferPerSec}/s) = ${pct(read.ratio)} of bare; ${pct(read.ratioToSameBytes)} of bare Koa sending the same bytes`,
      'bound by moving the bytes',
    ])
  }
  const outside = r.outside
  if (outside) {
    rows.push([
      `Scoreboard GET, gzip, from outside: \`npm start\` (production, fresh DATA_DIR, embedded PostgreSQL) beside bare Koa sending the same bytes`,
      `${outside.flagwave.rps} req/s vs ${outside.bareSameGzip.rps} = ${pct(outside.ratio)} of bare (p99 ${outside.flagwave.p99ms} vs ${outside.bareSameGzip.p99ms} ms); by CPU ${pct(outside.cpuRatio)}`,
      '≥ 70 % of bare',
    ])
  }
  const players = r.players
  if (players) {
    const bareCpu = players.bareKoa.cpuUsPerRequest === undefined ? '' : `, ${players.bareKoa.cpuUsPerRequest} µs CPU/request`
    rows.push([`Bare Koa endpoint, players section (wrk -t2 -c50)`, `${players.bareKoa.rps} req/s (p99 ${players.bareKoa.p99ms} ms${bareCpu})`, 'baseline'])
    type Figure = { rps: number; ratio: number; cpuRatio?: number; cpuUsPerRequest?: number; p99ms: number; goal: number; errors: number; settledCost?: SettledCost }
    for (const [call, f] of Object.entries(players.calls) as [PlayerCall, Figure][]) {
      const errors = f.errors ? `; ${f.errors} errors` : ''
      const cpu = f.cpuRatio === undefined ? '' : `; ${f.cpuUsPerRequest} µs CPU/request = ${pct(f.cpuRatio)} of bare by CPU`
      const c = f.settledCost
      const floor = c
        ? `; accept to settled ${c.serverUsPerSubmission} µs server + ${c.postgresUsPerSubmission} µs PostgreSQL CPU per submission: the cores are full at ${c.coresFullAtPerSec}/s = ${pct(c.coresFullAtPerSec / players.bareKoa.rps)} of bare`
        : ''
      rows.push([playerCallLabels[call].label + ', signed in, gzip', `${f.rps} req/s = ${pct(f.ratio)} of bare (p99 ${f.p99ms} ms${errors})${cpu}${floor}`, `≥ ${Math.round(f.goal * 100)} % of bare`])
    }
  }
  const rb = r.rebuild
  if (rb) {
    rows.push([
      'Full rebuild, 1,000 teams × 100 challenges × 200,000 submissions',
      `**${rb.totalMs} ms** median (load ${rb.loadMs} + build ${rb.buildMs} + serialise ${rb.snapshotMs}); via the service ${rb.serviceRebuildMs} ms`,
      '< 1 s',
    ])
    rows.push(['Incremental solve on that state', `${rb.incrementalSolveUs} µs per solve; next snapshot ${rb.snapshotAfterSolveMs} ms`, ''])
  }
  const rp = r.replay
  if (rp) {
    rows.push([
      'Replay seek, large data set (board at a moment, rendered)',
      `random jumps **${rp.randomSeekMedianMs} ms** median (p95 ${rp.randomSeekP95Ms}, max ${rp.randomSeekMaxMs}; ${rp.randomSeeksFolded} without a build); play at 600× **${rp.playSeekMedianMs} ms** median (p95 ${rp.playSeekP95Ms}, max ${rp.playSeekMaxMs}); full rebuild baseline ${rp.fullRebuildMs} ms; kept states ${rp.keptStatesMb} MB (${rp.keptStates} cursors); last frame = live board: ${rp.finalEqualsLive}`,
      '< 100 ms per seek',
    ])
  }
  const q = r.queue
  if (q) {
    const base = q.insertBaseline
    rows.push([
      `Queue: ${q.submissions} queued submissions, ${q.checkers} checkers`,
      `**${q.settledPerSec} settled/s**; lost ${q.lost}, settled twice ${q.duplicated}` +
        (base ? `; this PostgreSQL takes ${base.insertsPerSec} single-row inserts/s (${base.tool}, ${base.clients} clients)` : ''),
      '≥ 1,000/s, none lost',
    ])
    rows.push(['HTTP submit (wrk POST, 110 users)', `${q.http.rps} req/s accepted (p99 ${q.http.p99ms} ms); all settled once: ${q.http.settledExactlyOnce}`, ''])
  }
  for (const l of r.latency ?? []) {
    const where = l.solveToPushP99ms !== undefined ? `; solve → push p99 ${l.solveToPushP99ms} ms, fan-out p99 ${l.fanOutP99ms} ms` : ''
    // Where the time goes: judging, engine and pacing before the push leaves; the server's share of a busy machine.
    const leaving = l.solveToPublishP99ms !== undefined ? `; solve → push leaving the node p99 ${l.solveToPublishP99ms} ms` : ''
    const cpu = l.cpuWhileDriving
      ? `; CPU: server ${l.cpuWhileDriving.selfPct} %, watchers ${l.cpuWhileDriving.watchers1Pct + l.cpuWhileDriving.watchers2Pct} %, machine busy ${l.cpuWhileDriving.machineBusyPct} % of 2 cores`
      : ''
    rows.push([
      `Solve-to-screen (${l.via === 'queue' ? 'queued as the submit endpoint does' : 'POST over HTTP'}), ${l.inRoom - 1} watching sockets${(l.nodes ?? 1) > 1 ? ` on ${l.nodes} nodes` : ''}, ${l.ratePerSec} solves/s × ${l.seconds} s`,
      `p50 **${l.p50ms} ms**, p99 **${l.p99ms} ms** (${l.pushes} pushes, ${l.solvesNeverSeen} solves unseen${where}${leaving}${cpu})`,
      '< 250 ms p99 at 200 solves/s, 5,000 sockets',
    ])
    if (l.rawWsFloor) {
      rows.push([
        `Push → screen on those sockets: Socket.IO beside a bare \`ws\` broadcast of the same frames (the floor)`,
        `p50 ${l.pushToScreen.p50ms} / p99 **${l.pushToScreen.p99ms} ms** vs floor p50 ${l.rawWsFloor.p50ms} / p99 ${l.rawWsFloor.p99ms} ms = **${l.floorRatioP99}×** the floor` +
          (boardCpu(l) !== undefined && l.rawWsFloor.cpuUsPerSocket !== undefined ? `; CPU per socket and push ${boardCpu(l)} µs vs floor ${l.rawWsFloor.cpuUsPerSocket} µs` : ''),
        '≤ 1.2× the floor',
      ])
    }
  }
  const o = r.opening
  if (o) {
    const way = (w: Results) =>
      `PUT p50 ${w.putMs} ms, every socket has the board ${w.everySocketMs} ms, NewChallenge p50 ${w.noticeP50ms} / last ${w.noticeMaxMs} ms, the board's fan-out ${w.pushMs} ms, event loop delay ≤ ${w.loopMaxMs} ms`
    rows.push([
      `Opening a challenge, ${o.sockets} watching sockets, ${o.teams}-team board (${kb(o.board.jsonBytes)} JSON, ${kb(o.board.gzipBytes)} gzip), medians`,
      (o.delta ? `the new column as a difference: **${way(o.delta)}** vs announced + REST: ${way(o.announced)}` : `announced + REST: **${way(o.announced)}**`) +
        ` vs whole board pushed to every socket: ${way(o.whole)}; the PUT with no socket watching ${o.putNoWatchersMs} ms`,
      '',
    ])
  }
  const c = r.containers
  if (c?.skipped) rows.push(['Containers', `skipped: ${c.skipped}`, ''])
  else if (c) {
    rows.push([
      'Start one container: platform API vs plain `docker run`',
      `p50 **${c.platform.start.p50} ms** vs ${c.docker.start.p50} ms (×${c.overhead.start}); destroy ${c.platform.destroy.p50} vs ${c.docker.destroy.p50} ms`,
      '',
    ])
    rows.push([
      `${c.concurrency} containers started at once`,
      `platform p50 ${c.platform.concurrentStart.latency.p50} / p99 ${c.platform.concurrentStart.latency.p99} ms vs docker ${c.docker.concurrentStart.latency.p50} / ${c.docker.concurrentStart.latency.p99} ms`,
      '',
    ])
  }
  const m = r.machine
  return [
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, PostgreSQL ${m.postgres}, Redis ${m.redis ? 'on' : 'off'}, ${r.date.slice(0, 10)}; load generators on the same cores.`,
    '',
    '| Figure | This machine | Goal (docs/operations.md#benchmarks) |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n')
}

/** Replace what stands between the README's bench markers. */
export async function updateReadme(readmePath: string, table: string): Promise<boolean> {
  const text = await fs.readFile(readmePath, 'utf8')
  const start = '<!-- bench:start -->'
  const end = '<!-- bench:end -->'
  const a = text.indexOf(start)
  const b = text.indexOf(end)
  if (a < 0 || b < a) return false
  await fs.writeFile(readmePath, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`)
  return true
}

/**
 * CPU per watching socket of one board push with its challenge update (written together, or
 * apart before they were), from the latency run's fan-out costs.
 */
function boardCpu(l: { fanOutCosts?: Record<string, { count: number; cpuUsPerSocket: number }> }): number | undefined {
  const costs = Object.entries(l.fanOutCosts ?? {}).filter(([event]) => /ReceivedScoreboardUpdate|ReceivedChallengeUpdate/.test(event))
  const boards = costs.filter(([event]) => event.includes('ReceivedScoreboardUpdate')).reduce((n, [, c]) => n + c.count, 0)
  if (boards === 0) return undefined
  return Math.round((costs.reduce((sum, [, c]) => sum + c.count * c.cpuUsPerSocket, 0) / boards) * 10) / 10
}
