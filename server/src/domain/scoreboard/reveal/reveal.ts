/**
 * The staged reveal's shared state and its commands (docs/scoring.md#staged-reveal): one `reveals`
 * row per game — the step shown, the auto-play interval, the freeze it reveals — so the big screen,
 * the admin's phone and any reload read the same thing. Every change is pushed as
 * `ReceivedRevealUpdate` to `Game_{id}` (docs/realtime.md). The boards come from the plan
 * (plan.ts), derived from the submissions: the row is all there is to keep.
 */
import { roleRank } from '@flagwave/shared/enums'
import { rooms } from '@flagwave/shared/events'
import type { RevealState } from '@flagwave/shared/schemas/replay'
import { toWireDate } from '@flagwave/shared/format'
import type pg from 'pg'
import { Game } from '../../../entities/Game.js'
import { badRequest, notFound } from '../../../lib/errors.js'
import { nativePool } from '../../../db/pg.js'
import type { Actor } from '../../actor.js'
import type { Scope } from '../../scope.js'
import type { Services } from '../../../services.js'
import type { Publish } from '../../../realtime/sink.js'
import { boardFreeze } from '../../games/freeze.js'
import { unfreezeGame } from '../../games/freezeCommands.js'
import { replayTimeline } from '../replay/cache.js'
import type { ReplayTimeline } from '../replay/timeline.js'
import { RevealPlan } from './plan.js'
import { loadAttemptsSince } from './attempts.js'

const NOT_FROZEN = '比赛未冻结'
const NO_REVEAL = '揭晓未开始'

interface Row {
  step: number
  auto_ms: number | null
  freeze_ms: number
  finished: boolean
}

const plans = new WeakMap<ReplayTimeline, Map<number, Promise<RevealPlan>>>()

/** The plan of a freeze over this timeline, with the attempts since the freeze read once for it (re-read with the timeline, replay/cache.ts). */
function planOf(pool: pg.Pool, timeline: ReplayTimeline, freezeTime: number): Promise<RevealPlan> {
  const byFreeze = plans.get(timeline) ?? new Map<number, Promise<RevealPlan>>()
  plans.set(timeline, byFreeze)
  let plan = byFreeze.get(freezeTime)
  if (!plan) {
    plan = loadAttemptsSince(pool, timeline.data.game.id, freezeTime).then((attempts) => new RevealPlan(timeline, freezeTime, attempts))
    plan.catch(() => byFreeze.delete(freezeTime))
    byFreeze.set(freezeTime, plan)
  }
  return plan
}

async function readRow(pool: pg.Pool, gameId: number): Promise<Row | null> {
  const { rows } = await pool.query<Row>(
    `select step, auto_ms, floor(extract(epoch from freeze_time) * 1000)::float8 as freeze_ms, finished_at is not null as finished from reveals where game_id = $1`,
    [gameId],
  )
  return rows[0] ?? null
}

/** The state every screen shows: the row and the board at its step. */
async function stateOf(services: Pick<Services, 'orm'>, gameId: number, row: Row | null): Promise<RevealState> {
  const closed: RevealState = { gameId, open: false, finished: row?.finished ?? false, step: 0, steps: 0, autoMs: null, freezeTime: row ? toWireDate(row.freeze_ms) : null, last: null, pending: [], board: null }
  if (!row || row.finished) return closed
  const timeline = await replayTimeline(services, gameId)
  if (!timeline) return closed
  const plan = await planOf(await nativePool(services.orm), timeline, row.freeze_ms)
  const step = Math.min(row.step, plan.steps.length)
  return {
    gameId,
    open: true,
    finished: false,
    step,
    steps: plan.steps.length,
    autoMs: row.auto_ms,
    freezeTime: toWireDate(row.freeze_ms),
    last: step > 0 ? RevealPlan.present(plan.steps[step - 1]!) : null,
    pending: plan.pendingAfter(step),
    board: plan.boardAt(step).model,
  }
}

/** `GET /api/game/{id}/reveal`: whoever may read the game's board (it started, or staff). */
export async function readReveal(scope: Scope, actor: Actor | null, gameId: number): Promise<RevealState> {
  const game = await scope.em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const staff = actor !== null && roleRank(actor.user.role) >= roleRank('Monitor')
  if (!staff && game.start.getTime() > Date.now()) throw badRequest('比赛未开始')
  return stateOf(scope.services, gameId, await readRow(await nativePool(scope.services.orm), gameId))
}

async function publishState(services: Pick<Services, 'orm'>, events: Publish, gameId: number, row: Row | null): Promise<RevealState> {
  const state = await stateOf(services, gameId, row)
  events.publish('user', rooms.game(gameId), 'ReceivedRevealUpdate', state)
  return state
}

/** `POST /api/edit/games/{id}/reveal`: open the reveal of the current freeze (kept as it is when already open for it). */
export async function openReveal(scope: Scope, actor: Actor, gameId: number): Promise<RevealState> {
  const game = await scope.em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const freeze = boardFreeze(game)
  if (!freeze) throw badRequest(NOT_FROZEN)
  const pool = await nativePool(scope.services.orm)
  const { rows } = await pool.query<Row & { reset: boolean }>(
    `insert into reveals (game_id, step, auto_ms, freeze_time, opened_at, updated_at) values ($1, 0, null, $2, now(), now())
     on conflict (game_id) do update set step = 0, auto_ms = null, freeze_time = excluded.freeze_time, opened_at = now(), updated_at = now(), finished_at = null
       where reveals.freeze_time <> excluded.freeze_time or reveals.finished_at is not null
     returning step`,
    [gameId, freeze],
  )
  const row = await readRow(pool, gameId)
  if (rows.length > 0) await scope.services.audit.success(actor, `打开了比赛 #${gameId} 的排行榜揭晓`)
  return publishState(scope.services, scope.events, gameId, row)
}

/** The open reveal of a game that is still frozen at its freeze time, or 400. */
async function openRow(scope: Scope, gameId: number): Promise<{ pool: pg.Pool; row: Row; steps: number }> {
  const game = await scope.em.findOne(Game, { id: gameId })
  if (!game) throw notFound('比赛未找到')
  const pool = await nativePool(scope.services.orm)
  const row = await readRow(pool, gameId)
  if (!row || row.finished) throw badRequest(NO_REVEAL)
  const freeze = boardFreeze(game)
  if (!freeze || freeze.getTime() !== row.freeze_ms) throw badRequest(NOT_FROZEN)
  const timeline = await replayTimeline(scope.services, gameId)
  if (!timeline) throw notFound('比赛未找到')
  return { pool, row, steps: (await planOf(pool, timeline, row.freeze_ms)).steps.length }
}

/** `POST …/reveal/next` and `…/back`: one step forward or back (bounded; concurrent presses each count once). */
export async function stepReveal(scope: Scope, gameId: number, by: 1 | -1): Promise<RevealState> {
  const { pool, steps } = await openRow(scope, gameId)
  await pool.query(`update reveals set step = greatest(0, least($2::int, step + $3::int)), updated_at = now() where game_id = $1 and finished_at is null`, [gameId, steps, by])
  return publishState(scope.services, scope.events, gameId, await readRow(pool, gameId))
}

/** `PUT …/reveal/auto`: step every `intervalMs` until the last step (this node's timer, the other nodes' sweeps behind it), or pause (null). */
export async function autoReveal(scope: Scope, gameId: number, intervalMs: number | null): Promise<RevealState> {
  const { pool } = await openRow(scope, gameId)
  await pool.query(`update reveals set auto_ms = $2, updated_at = now() where game_id = $1 and finished_at is null`, [gameId, intervalMs])
  schedule(scope.services, gameId, intervalMs)
  return publishState(scope.services, scope.events, gameId, await readRow(pool, gameId))
}

/** `POST …/reveal/finish`: the reveal ends, the freeze is lifted, every screen shows the live board. */
export async function finishReveal(scope: Scope, actor: Actor, gameId: number): Promise<RevealState> {
  const { pool } = await openRow(scope, gameId)
  const { rowCount } = await pool.query(`update reveals set finished_at = now(), auto_ms = null, updated_at = now() where game_id = $1 and finished_at is null`, [gameId])
  schedule(scope.services, gameId, null)
  if (rowCount) {
    // The reveal ends by lifting the freeze: the live board, held notices and webhooks go out (docs/scoring.md#freeze).
    await unfreezeGame(scope, actor, gameId)
    await scope.services.audit.success(actor, `完成了比赛 #${gameId} 的排行榜揭晓`)
  }
  return publishState(scope.services, scope.events, gameId, await readRow(pool, gameId))
}

/* ------------------------------------------------------------------ auto-play */

/*
 * Auto-play is a column of the row, so it survives the node that started it: the node a `PUT
 * …/reveal/auto` reached keeps a timer, and every node's sweep (`resumeStalledReveals`, run by
 * workers/reveal.ts) takes over a reveal whose step is overdue, after a restart or a node's loss.
 * A step is taken only when the last change is at least most of an interval old, so however many
 * nodes' timers fire, the reveal advances once per interval; a node that finds the step taken
 * waits for the rest of the interval (docs/scoring.md#staged-reveal).
 */

/** Of an interval: how old the last change must be for a tick to step (timers of two nodes firing together step once). */
const TICK_AFTER = 0.9

const timers = new WeakMap<object, Map<number, NodeJS.Timeout>>()

/** (Re)start or stop this node's auto-play of a game; each tick reads the interval again, so a new speed applies at once. */
function schedule(services: Services, gameId: number, intervalMs: number | null): void {
  let byGame = timers.get(services.orm)
  if (!byGame) timers.set(services.orm, (byGame = new Map()))
  clearTimeout(byGame.get(gameId))
  byGame.delete(gameId)
  if (intervalMs === null) return
  const timer = setTimeout(() => void tick(services, gameId).catch((err: unknown) => services.log.warn({ err, gameId }, 'reveal auto-play stopped')), intervalMs)
  timer.unref()
  byGame.set(gameId, timer)
}

async function tick(services: Services, gameId: number): Promise<void> {
  timers.get(services.orm)?.delete(gameId)
  const pool = await nativePool(services.orm)
  const row = await readRow(pool, gameId)
  if (!row || row.finished || row.auto_ms === null) return
  const timeline = await replayTimeline(services, gameId)
  if (!timeline) return
  const steps = (await planOf(pool, timeline, row.freeze_ms)).steps.length
  // The last step pauses auto-play; finishing stays the admin's decision.
  const { rows } = await pool.query<{ auto_ms: number | null }>(
    `update reveals set step = least($2::int, step + 1), auto_ms = case when step + 1 >= $2::int then null else auto_ms end, updated_at = now()
      where game_id = $1 and finished_at is null and auto_ms is not null and updated_at <= now() - auto_ms * $3::float8 * interval '1 millisecond'
      returning auto_ms`,
    [gameId, steps, TICK_AFTER],
  )
  if (rows.length === 0) {
    // Another node's timer stepped (or the admin did) since: wait for the rest of the interval.
    const { rows: left } = await pool.query<{ wait_ms: number }>(
      `select greatest(0, auto_ms - extract(epoch from now() - updated_at) * 1000)::float8 as wait_ms from reveals where game_id = $1 and finished_at is null and auto_ms is not null`,
      [gameId],
    )
    if (left[0]) schedule(services, gameId, left[0].wait_ms)
    return
  }
  await publishState(services, services.realtime, gameId, await readRow(pool, gameId))
  if (rows[0]!.auto_ms !== null) schedule(services, gameId, rows[0]!.auto_ms)
}

/** How late a step may be before another node's sweep takes the reveal over. */
const OVERDUE_MS = 2000

/** Auto-playing reveals whose next step is overdue and that no timer of this node runs: tick them here. */
export async function resumeStalledReveals(services: Services): Promise<void> {
  const pool = await nativePool(services.orm)
  const { rows } = await pool.query<{ game_id: number }>(
    `select game_id from reveals where auto_ms is not null and finished_at is null and updated_at < now() - (auto_ms + $1::int) * interval '1 millisecond'`,
    [OVERDUE_MS],
  )
  const running = timers.get(services.orm)
  for (const { game_id: gameId } of rows) {
    if (!running?.has(gameId)) await tick(services, gameId)
  }
}

/** Stop this node's auto-play timers (shutdown): the row keeps playing on the other nodes' sweeps. */
export function stopAutoPlay(services: Services): void {
  const byGame = timers.get(services.orm)
  for (const timer of byGame?.values() ?? []) clearTimeout(timer)
  byGame?.clear()
}
