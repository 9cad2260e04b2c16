/**
 * `npm run simulate` — an event, simulated (docs/operations.md#an-event-simulated), against a
 * Flagwave server already running on this machine:
 *
 * 1. the admin opens registration, creates a game that has not started and its challenges
 *    (tests/bench/simulate/setup.ts);
 * 2. the players register, form teams and join; the admin accepts each complete team;
 * 3. the start moves to now: players arrive, keep their sockets open and play until the end, the
 *    admin posts notices and opens late challenges, big screens watch (player.ts, director.ts,
 *    screen.ts);
 * 4. every submission's verdict is checked, against the server's own list too, and the figures are
 *    printed (report.ts). Exit code 1 on any 5xx, transport error, lost or misjudged submission.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import { parseOptions } from './simulate/options.js'
import { Pool } from './simulate/http.js'
import { Stats } from './simulate/stats.js'
import { pidListeningOn, ResourceSampler } from './simulate/procstat.js'
import { acceptCompleteTeams, createEvent, openRegistration, scheduleEvent, signInAdmin } from './simulate/setup.js'
import { Ledger } from './simulate/ledger.js'
import { NoticeTracker, SolveTracker } from './simulate/pushes.js'
import { Player, SimTeam, sleep, type World } from './simulate/player.js'
import { BigScreen } from './simulate/screen.js'
import { direct } from './simulate/director.js'
import { judge, printReport, type SubmissionCheck } from './simulate/report.js'

/** How long after the end a submission may still wait for its verdict before it counts as lost. */
const SETTLE_GRACE_MS = 60_000
/** How long the final board may take to count the last solves: pacing's longest interval (2 s) and a margin. */
const BOARD_CATCH_UP_MS = 3_000

/** Run `job` for every item, at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await job(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2))
  const runId = randomBytes(2).toString('hex')
  const signupStats = new Stats()
  const pool = new Pool(options.url, signupStats)
  const port = Number(options.url.port || 80)
  const serverPid = options.serverPid ?? pidListeningOn(port)
  const teamCount = Math.ceil(options.players / options.teamSize)
  const title =
    `An event, simulated (run ${runId}): ${options.players} players in ${teamCount} teams of ≤ ${options.teamSize}, ${options.minutes} min, ` +
    `think time ×${options.thinkScale}, right flags ${Math.round(options.rightShare * 100)} %${options.pollBoard ? ', every player polling the board' : ''}, ` +
    `against ${options.url.origin} (server pid ${serverPid ?? 'unknown'})`
  console.log(title)

  const health = await fetch(new URL('/healthz', options.url)).catch((e: Error) => e)
  if (health instanceof Error || !health.ok) throw new Error(`no Flagwave server answers at ${options.url.origin}/healthz`)

  /* ---- before the event ---- */
  const signupStarted = performance.now()
  const admin = await signInAdmin(pool, options)
  await openRegistration(admin)
  const plan = await createEvent(admin, options, runId)
  console.log(`  game ${plan.gameId}: ${options.challenges} challenges open at the start, ${options.hiddenChallenges} opened during the event`)

  const eventStats = new Stats()
  const world: World = {
    options,
    pool,
    stats: signupStats,
    plan,
    ledger: new Ledger(eventStats),
    solves: new SolveTracker(eventStats),
    notices: new NoticeTracker(eventStats),
    deadline: Infinity,
    settleBy: Infinity,
    connected: new Set(),
  }
  const teams: SimTeam[] = []
  const players: Player[] = []
  for (let t = 0; t < teamCount; t++) {
    const team = new SimTeam(`T${runId}-${t + 1}`)
    teams.push(team)
    for (let m = 0; m < options.teamSize && players.length < options.players; m++) {
      const player = new Player(world, players.length, `s${runId}_${players.length + 1}`, team, m === 0)
      team.members.push(player)
      players.push(player)
    }
  }
  const sizes = new Map(teams.map((t) => [t.name, t.members.length]))

  let signingUp = true
  let accepted = 0
  const reviewing = (async () => {
    while (signingUp) {
      await sleep(2_000)
      accepted += await acceptCompleteTeams(admin, plan.gameId, (name) => sizes.get(name))
    }
  })()
  let done = 0
  await eachLimited(teams, Math.max(1, Math.floor(options.signupConcurrency / options.teamSize)), async (team) => {
    const [captain, ...members] = team.members
    await captain!.register()
    await captain!.formTeam()
    await Promise.all(members.map(async (m) => (await m.register(), await m.formTeam())))
    await Promise.all(team.members.map((m) => m.joinGame()))
    done += team.members.length
    if (done % 100 < options.teamSize) console.log(`  ${done} players registered and joined`)
  })
  signingUp = false
  await reviewing
  for (let round = 0; accepted < teams.length && round < 10; round++) accepted += await acceptCompleteTeams(admin, plan.gameId, (name) => sizes.get(name))
  if (accepted < teams.length) throw new Error(`only ${accepted} of ${teams.length} teams could be accepted`)
  const signupSeconds = (performance.now() - signupStarted) / 1000
  console.log(`  ${players.length} players in ${teams.length} accepted teams after ${Math.round(signupSeconds)} s; the event starts`)

  /* ---- the event ---- */
  pool.stats = eventStats
  world.stats = eventStats
  const startAt = Date.now() + 3_000
  await scheduleEvent(admin, plan, startAt, options.minutes)
  await sleep(startAt - Date.now() + 100)
  const sampler = new ResourceSampler(serverPid)
  sampler.start()
  const startedAt = performance.now()
  world.deadline = startedAt + options.minutes * 60_000
  world.settleBy = world.deadline + SETTLE_GRACE_MS
  const screens = Array.from({ length: options.screens }, (_, i) => new BigScreen(world, i))
  await Promise.all(screens.map((s) => s.open()))
  const progress = setInterval(() => {
    const s = world.ledger.summary()
    console.log(`  ${Math.round((performance.now() - startedAt) / 1000)} s: ${world.connected.size} player sockets, ${s.total} submissions, ${s.accepted} accepted`)
  }, 30_000)
  const directing = direct(admin, world, startedAt)
  await Promise.all(players.map((p) => p.attend(Math.random() * options.arrivalSeconds * 1000)))
  await directing
  clearInterval(progress)
  const eventSeconds = (performance.now() - startedAt) / 1000
  const resources = sampler.stop()
  for (const p of players) p.leave()
  for (const s of screens) s.close()

  /* ---- the verdicts ---- */
  const summary = world.ledger.summary()
  let server: Record<string, number> | null = null
  const listed = await admin
    .get<{ status: string }[]>(`/api/game/${plan.gameId}/submissions?count=0`, 'admin (check): GET /api/game/{id}/submissions?count=0')
    .catch(() => null)
  if (listed?.status === 200 && Array.isArray(listed.body)) {
    server = {}
    for (const s of listed.body) server[s.status] = (server[s.status] ?? 0) + 1
  }
  // Every accepted solve must be on the board the server serves, once the board that counts it is
  // published: boards go out paced, at most BOARD_CATCH_UP_MS apart while they change
  // (domain/scoreboard/pacing.ts), so a solve settled in the event's last moments may be missing
  // from a read made right after it.
  let missingOnBoard: number | null = null
  const catchUpBy = performance.now() + BOARD_CATCH_UP_MS
  for (;;) {
    const board = await admin
      .get<{ items: { id: number; challenges: { id: number; type: string }[] }[] }>(`/api/game/${plan.gameId}/scoreboard`, 'admin (check): GET /api/game/{id}/scoreboard')
      .catch(() => null)
    if (board?.status === 200 && board.body) {
      const solved = new Set(board.body.items.flatMap((row) => row.challenges.filter((c) => c.type !== 'Unaccepted').map((c) => `${row.id}:${c.id}`)))
      missingOnBoard = world.ledger.all().filter((e) => e.status === 'Accepted' && e.rowId !== null && !solved.has(`${e.rowId}:${e.challengeId}`)).length
    }
    if (missingOnBoard === 0 || performance.now() > catchUpBy) break
    await sleep(250)
  }
  const submissions: SubmissionCheck = { ...summary, server, missingOnBoard }
  const calls = eventStats.callFigures()
  const { failures, overGoal } = judge(eventStats, submissions)
  const signupFailures = signupStats.serverFailures()
  if (signupFailures > 0) failures.push(`${signupFailures} calls before the event answered 5xx or not at all`)
  const report = {
    title,
    signup: { seconds: signupSeconds, calls: signupStats.callFigures() },
    event: {
      seconds: eventSeconds,
      calls,
      requestsPerSecond: calls.reduce((a, c) => a + c.count, 0) / eventSeconds,
      windows: eventStats.windows(startedAt, options.minutes > 3 ? 60_000 : 15_000),
      pushes: eventStats.latencyFigures(),
      notices: world.notices.receipts(),
      counters: eventStats.counterFigures(),
      examples: Object.fromEntries(eventStats.examples),
      slowSolves: world.solves.screenSightings
        .filter((x) => x.at - x.sentAt > 1000)
        .slice(0, 20)
        .map((x) => ({ ...x, sentAt: (x.sentAt - startedAt) / 1000, at: (x.at - startedAt) / 1000 })),
      wholeBoardsAt: (screens[0]?.wholeBoardsAt ?? []).map((at) => (at - startedAt) / 1000),
    },
    submissions,
    resources,
    failures,
    overGoal,
  }
  printReport(report)
  if (options.json) await fs.writeFile(options.json, JSON.stringify(report, null, 2))
  pool.close()
  return failures.length ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(2)
  },
)
