/**
 * Settling queued submissions (docs/scoring.md#submission-queue, #dynamic-score; docs/compatibility.md#group-game-challenges-and-flags, #dynamic-flags; docs/realtime.md#order) — one batch in one
 * transaction, with set-based statements:
 *
 * 1. claim up to `limit` rows in status FlagSubmitted (`FOR UPDATE SKIP LOCKED`, oldest first) and
 *    read everything judging needs in the same statement;
 * 2. judge: NotFound without an instance; static types against any of the challenge's flags,
 *    DynamicAttachment against the instance's assigned flag, DynamicContainer against its
 *    generated flag (constant time); a wrong answer equal to another team's flag of the same
 *    challenge is CheatDetected (+ CheatInfo row + CheatDetected event);
 * 3. for accepted answers made before the end, lock the challenges (`FOR NO KEY UPDATE`, which does
 *    not hold up new submissions' foreign-key checks; ascending id, so checkers never deadlock),
 *    then count the team's first solve: `acceptedCount` + 1 when its division affects the dynamic
 *    score, and the blood rank is the number of teams that may take bloods counted before it, in
 *    settling order (first three → blood notice while the game runs; docs/scoring.md#divisions);
 * 4. write statuses, counters, events, notices, cheat rows and audit-log entries in one statement,
 *    and NOTIFY the solves to the scoreboard owner — delivered only if the transaction commits;
 *    then the webhook deliveries of the counted solves and bloods (docs/webhooks.md#outbox), in
 *    the same transaction.
 *
 * The row lock plus the status transition make every submission settle exactly once, however
 * many checkers and nodes run. What to publish afterwards is returned to the caller.
 */
import { invalidationQuery, tags } from '../../cache/invalidation.js'
import type pg from 'pg'
import type { AnswerResult, ChallengeType, EventType, LogLevel, NoticeType, TaskStatus } from '@flagwave/shared/enums'
import { GamePermission, isDynamicType } from '@flagwave/shared/enums'
import { hasPermission } from '@flagwave/shared/divisions'
import type { SolveData } from '../scoreboard/engine.js'
import { SOLVE_CHANNEL, encodeSolve, type SolveMessage } from '../scoreboard/solveChannel.js'
import { inTransaction } from '../../db/pg.js'
import { bloodNotice, cheatEventText, flagSubmitEventText, judge } from './judge.js'
import { noticeHeld } from '../games/freezeHold.js'
import { noticeRooms } from '../notices/events.js'
import { enqueueSolves, type SolveHook } from '../webhooks/outbox.js'
import { divisionPermissionsSql } from '../divisions/permissionsSql.js'

/**
 * One settled submission, as records: domain/submissions/events.ts turns it into the pushes, in
 * the contract's order (docs/realtime.md).
 */
export interface Settled {
  id: number
  gameId: number
  challengeId: number
  challengeTitle: string
  participationId: number
  teamName: string
  userName: string
  answer: string
  status: Exclude<AnswerResult, 'FlagSubmitted'>
  /** When it was submitted (epoch ms) and when it was settled. */
  submitTime: number
  settledAt: Date
  /** Game events written with it: FlagSubmit, then CheatDetected. */
  events: { type: EventType; content: string }[]
  /** The blood notice written with it. */
  notice: { id: number; type: NoticeType; content: string } | null
  /** The notice is held back by the scoreboard freeze: not pushed (docs/scoring.md#freeze). */
  noticeHeld?: boolean
  /** Where the notice is pushed: the game room, or the rooms of the teams that may view its challenge. */
  noticeRooms?: string[]
  /** An accepted answer made before the end, for the scoreboard engine (it keeps the earliest per team and challenge). */
  solve: SolveData | null
  /** The audit-log entry, stored in the settling transaction; the caller pushes it to admins. */
  audit: { time: Date; level: LogLevel; userName: string; ip: string; message: string; status: TaskStatus }
}

interface ClaimedRow {
  id: number
  game_id: number
  challenge_id: number
  participation_id: number
  user_id: string | null
  answer: string
  ip: string
  submit_ms: number
  before_end: boolean
  end_ms: number
  /** Timestamps as the driver gives them (text). */
  freeze_time: string | null
  unfrozen_at: string | null
  title: string
  type: ChallengeType
  is_enabled: boolean
  p_status: string
  team_id: number
  /** The team's division, and its `GamePermission` flags for this challenge (All without one). */
  division_id: number | null
  permissions: number
  team_name: string
  user_name: string | null
  instance_id: number | null
  dynamic_flag: string | null
  assigned_flag: string | null
  /** Static types: every flag of the challenge. */
  static_flags: string[] | null
  /** Dynamic types: another team whose flag equals the answer, if any. */
  cheat_source: { p: number; t: string } | null
}

/** NOTIFY payloads must stay under 8000 bytes. */
const NOTIFY_BUDGET = 7000

/**
 * Claim and read in one statement: the rows, what judging needs (the team's instance flags, the
 * static flags) and, for dynamic challenges, another team whose flag equals the answer (used
 * only when the answer turns out wrong).
 */
const CLAIM_SQL = `
  with claimed as (
    select id from submissions where status = 'FlagSubmitted' order by id for update skip locked limit $1
  )
  select s.id, s.game_id, s.challenge_id, s.participation_id, s.user_id, s.answer, s.ip,
         floor(extract(epoch from s.submit_time) * 1000)::float8 as submit_ms,
         s.submit_time < g."end" as before_end, floor(extract(epoch from g."end") * 1000)::float8 as end_ms,
         g.freeze_time, g.unfrozen_at,
         c.title, c.type, c.is_enabled, p.status as p_status, p.team_id, p.division_id, ${divisionPermissionsSql('s.challenge_id')} as permissions,
         t.name as team_name, u.user_name,
         i.id as instance_id, i.dynamic_flag, f.flag as assigned_flag,
         case when c.type in ('StaticAttachment', 'StaticContainer')
              then array(select fl.flag from flags fl where fl.challenge_id = s.challenge_id) end as static_flags,
         case c.type
           when 'DynamicContainer' then (
             select json_build_object('p', o.participation_id, 't', ot.name)
               from instances o join participations op on op.id = o.participation_id join teams ot on ot.id = op.team_id
              where o.challenge_id = s.challenge_id and o.dynamic_flag = s.answer and o.participation_id <> s.participation_id
              order by o.participation_id limit 1)
           when 'DynamicAttachment' then (
             select json_build_object('p', o.participation_id, 't', ot.name)
               from flags of join instances o on o.flag_id = of.id and o.challenge_id = s.challenge_id
               join participations op on op.id = o.participation_id join teams ot on ot.id = op.team_id
              where of.challenge_id = s.challenge_id and of.flag = s.answer and o.participation_id <> s.participation_id
              order by o.participation_id limit 1)
         end as cheat_source
    from claimed
    join submissions s on s.id = claimed.id
    join games g on g.id = s.game_id
    join challenges c on c.id = s.challenge_id
    join participations p on p.id = s.participation_id
    left join divisions d on d.id = p.division_id
    join teams t on t.id = p.team_id
    left join users u on u.id = s.user_id
    left join instances i on i.participation_id = s.participation_id and i.challenge_id = s.challenge_id
    left join flags f on f.id = i.flag_id
   order by s.id`

/*
 * The statements of a batch are named, so each pooled connection plans them once: planning these
 * joins costs PostgreSQL more than running them on a small batch (docs/performance.md#flag-submission).
 */
/** The limit is written in, so the plan is made for it (a generic plan for any limit may sort the whole queue). */
const claimOf = (batch: number) => ({ name: `flagwave-settle-claim-${batch}`, text: CLAIM_SQL.replace('$1', String(batch)) })

/** Every write of a batch in one statement; NOTIFYs are delivered on commit. */
const WRITE_SQL = `
  with upd as (
    update submissions as s set status = v.status, settled_at = $3
      from unnest($1::int[], $2::text[]) as v(id, status) where s.id = v.id returning 1
  ), counts as (
    update challenges as c set accepted_count = v.n from unnest($4::int[], $5::int[]) as v(id, n) where c.id = v.id returning 1
  ), ev as (
    insert into events (game_id, type, content, publish_time, user_id, team_id)
    select g, t, c, $3, u, tm from unnest($6::int[], $7::text[], $8::text[], $9::uuid[], $10::int[]) as v(g, t, c, u, tm) returning 1
  ), nt as (
    insert into notices (game_id, type, content, publish_time, challenge_id)
    select g, t, c, $3, ch from unnest($11::int[], $12::text[], $13::text[], $25::int[]) as v(g, t, c, ch) returning id, game_id, type, content
  ), cheats as (
    insert into cheat_infos (game_id, submission_id, submit_team_id, source_team_id)
    select * from unnest($14::int[], $15::int[], $16::int[], $17::int[]) returning 1
  ), notified as (
    select pg_notify($18, payload) from unnest($19::text[]) as payload
  ), audited as (
    insert into logs (time, level, user_name, ip, message, status)
    select $3, l, u, ip, m, st from unnest($20::text[], $21::text[], $22::text[], $23::text[], $24::text[]) as v(l, u, m, st, ip) returning 1
  )
  select (select count(*) from upd) as updated, (select count(*) from notified) as notified, (select count(*) from audited) as audited,
         coalesce((select json_agg(json_build_object('id', id, 'gameId', game_id, 'type', type, 'content', content)) from nt), '[]') as notices`
const WRITE = { name: 'flagwave-settle-write', text: WRITE_SQL }

/** Settle up to `limit` queued submissions; returns them in id order (empty when the queue is empty). */
export async function settleBatch(pool: pg.Pool, limit: number): Promise<Settled[]> {
  const batch = Math.max(1, Math.floor(limit))
  return inTransaction(pool, async (db) => {
    const claimed = (await db.query<ClaimedRow>(claimOf(batch))).rows
    if (claimed.length === 0) return []

    const status = new Map<number, Exclude<AnswerResult, 'FlagSubmitted'>>()
    const cheats = new Map<number, { sourceParticipation: number; sourceTeam: string }>()
    for (const r of claimed) {
      let result: Exclude<AnswerResult, 'FlagSubmitted'> = judge({
        type: r.type,
        answer: r.answer,
        hasInstance: r.instance_id !== null,
        staticFlags: r.static_flags ?? [],
        assignedFlag: r.assigned_flag,
        dynamicFlag: r.dynamic_flag,
      })
      // Cheat detection: a wrong answer to a dynamic challenge that is another team's flag.
      if (result === 'WrongAnswer' && isDynamicType(r.type) && r.cheat_source) {
        result = 'CheatDetected'
        cheats.set(r.id, { sourceParticipation: r.cheat_source.p, sourceTeam: r.cheat_source.t })
      }
      status.set(r.id, result)
    }

    // Counting: first accepted solve per team and challenge before the end.
    const counted = claimed.filter((r) => status.get(r.id) === 'Accepted' && r.before_end)
    const acceptedCount = new Map<number, number>()
    const solvedPairs = new Set<string>()
    if (counted.length > 0) {
      const locked = await db.query<{ id: number; accepted_count: number }>(
        `select id, accepted_count from challenges where id = any($1::int[]) order by id for no key update`,
        [[...new Set(counted.map((r) => r.challenge_id))]],
      )
      for (const c of locked.rows) acceptedCount.set(c.id, c.accepted_count)
      const solved = await db.query<{ participation_id: number; challenge_id: number }>(
        `select distinct s.participation_id, s.challenge_id
           from submissions s join games g on g.id = s.game_id
          where s.status = 'Accepted' and s.submit_time < g."end"
            and (s.participation_id, s.challenge_id) in (select * from unnest($1::int[], $2::int[]))`,
        [counted.map((r) => r.participation_id), counted.map((r) => r.challenge_id)],
      )
      for (const s of solved.rows) solvedPairs.add(`${s.participation_id}:${s.challenge_id}`)
    }
    // Blood ranks count the teams that may take bloods; without divisions that is the counter.
    const bloodCount = new Map(acceptedCount)
    if (counted.some((r) => r.division_id !== null)) {
      bloodCount.clear()
      const holders = await db.query<{ challenge_id: number; n: number }>(
        `select s.challenge_id, count(distinct s.participation_id)::int as n
           from submissions s join games g on g.id = s.game_id
           join participations p on p.id = s.participation_id left join divisions d on d.id = p.division_id
          where s.status = 'Accepted' and s.submit_time < g."end" and s.challenge_id = any($1::int[])
            and ${divisionPermissionsSql('s.challenge_id')} & ${GamePermission.GetBlood} <> 0
          group by s.challenge_id`,
        [[...acceptedCount.keys()]],
      )
      for (const h of holders.rows) bloodCount.set(h.challenge_id, h.n)
    }

    const settledAt = new Date()
    const results: Settled[] = []
    const events: { gameId: number; type: EventType; content: string; userId: string | null; teamId: number }[] = []
    const changedCounts = new Map<number, number>()
    const solvesByGame = new Map<number, SolveData[]>()
    const notices: { settled: Settled; type: NoticeType; content: string }[] = []
    const hooks: SolveHook[] = []
    for (const r of claimed) {
      const final = status.get(r.id)!
      const userName = r.user_name ?? ''
      const settled: Settled = {
        id: r.id,
        gameId: r.game_id,
        challengeId: r.challenge_id,
        challengeTitle: r.title,
        participationId: r.participation_id,
        teamName: r.team_name,
        userName,
        answer: r.answer,
        status: final,
        submitTime: r.submit_ms,
        settledAt,
        events: [],
        notice: null,
        solve: null,
        audit: { time: settledAt, ip: r.ip, ...auditEntry(r.id, final, r.team_name, r.title, r.answer, userName) },
      }
      if (final !== 'NotFound') {
        const content = flagSubmitEventText(final === 'Accepted' ? 'Accepted' : 'WrongAnswer', r.answer, r.title, r.challenge_id)
        events.push({ gameId: r.game_id, type: 'FlagSubmit', content, userId: r.user_id, teamId: r.team_id })
        settled.events.push({ type: 'FlagSubmit', content })
      }
      const cheat = cheats.get(r.id)
      if (cheat) {
        const content = cheatEventText(r.title, r.team_name, cheat.sourceTeam)
        events.push({ gameId: r.game_id, type: 'CheatDetected', content, userId: r.user_id, teamId: r.team_id })
        settled.events.push({ type: 'CheatDetected', content })
      }
      if (final === 'Accepted' && r.before_end) {
        const pair = `${r.participation_id}:${r.challenge_id}`
        const first = !solvedPairs.has(pair)
        if (first) {
          solvedPairs.add(pair)
          if (hasPermission(r.permissions, 'AffectDynamicScore')) {
            const count = (acceptedCount.get(r.challenge_id) ?? 0) + 1
            acceptedCount.set(r.challenge_id, count)
            changedCounts.set(r.challenge_id, count)
          }
          let notice: ReturnType<typeof bloodNotice> = null
          let rank = -1
          if (hasPermission(r.permissions, 'GetBlood')) {
            rank = bloodCount.get(r.challenge_id) ?? 0
            bloodCount.set(r.challenge_id, rank + 1)
            notice = settledAt.getTime() <= r.end_ms ? bloodNotice(rank, r.team_name, r.title) : null
          }
          if (notice) {
            notices.push({ settled, ...notice })
            settled.noticeHeld = noticeHeld({ freezeTime: dateOrNull(r.freeze_time), unfrozenAt: dateOrNull(r.unfrozen_at) }, { type: notice.type, publishTime: settledAt }, settledAt.getTime())
          }
          hooks.push({ gameId: r.game_id, blood: notice ? rank : -1, team: r.team_name, challengeId: r.challenge_id, challengeTitle: r.title, time: new Date(r.submit_ms) })
        }
        // A repeated solve goes to the engine too: settled out of order it may be the earlier one.
        settled.solve = {
          participationId: r.participation_id,
          challengeId: r.challenge_id,
          submissionId: r.id,
          time: r.submit_ms,
          userName: r.user_name,
          acceptedCount: acceptedCount.get(r.challenge_id),
          board: r.p_status === 'Accepted' && r.is_enabled,
        }
        const list = solvesByGame.get(r.game_id) ?? []
        list.push(settled.solve)
        solvesByGame.set(r.game_id, list)
      }
      results.push(settled)
    }

    const cheatRows = results.filter((r) => cheats.has(r.id))
    const payloads = [...solvesByGame].flatMap(([gameId, solves]) => solveMessages(gameId, solves))
    const written = await db.query<{ updated: string; notices: { id: number; gameId: number; type: NoticeType; content: string }[] }>({
      ...WRITE,
      values: [
      results.map((r) => r.id),
      results.map((r) => r.status),
      settledAt,
      [...changedCounts.keys()],
      [...changedCounts.values()],
      events.map((e) => e.gameId),
      events.map((e) => e.type),
      events.map((e) => e.content),
      events.map((e) => e.userId),
      events.map((e) => e.teamId),
      notices.map((n) => n.settled.gameId),
      notices.map((n) => n.type),
      notices.map((n) => n.content),
      cheatRows.map((r) => r.gameId),
      cheatRows.map((r) => r.id),
      cheatRows.map((r) => r.participationId),
      cheatRows.map((r) => cheats.get(r.id)!.sourceParticipation),
      SOLVE_CHANNEL,
      payloads,
      results.map((r) => r.audit.level),
      results.map((r) => r.audit.userName),
      results.map((r) => r.audit.message),
      results.map((r) => r.audit.status),
      results.map((r) => r.audit.ip),
      // The challenge a blood notice names: it follows the challenge's visibility (docs/scoring.md#divisions-and-notices).
      notices.map((n) => n.settled.challengeId),
      ],
    })
    const row = written.rows[0]!
    if (Number(row.updated) !== results.length) throw new Error(`settled ${row.updated} of ${results.length} claimed submissions`)
    await enqueueSolves(db, hooks, settledAt)
    // From this commit on, stale on every node (docs/architecture.md#read-cache): the players' notice
    // lists of these games, and each team's challenge detail, which counts its attempts (the node
    // that took a submission dropped it at once, domain/submissions/submit.ts).
    const stale = [...notices.map((n) => tags.gameNotices(n.settled.gameId)), ...results.map((r) => tags.instance(r.participationId, r.challengeId))]
    if (stale.length) await db.query(invalidationQuery([...new Set(stale)]))
    for (const n of notices) {
      const inserted = row.notices.find((x) => x.gameId === n.settled.gameId && x.type === n.type && x.content === n.content)!
      n.settled.notice = { id: inserted.id, type: n.type, content: n.content }
      // Who may hear of it, read before the commit (docs/scoring.md#divisions-and-notices): its push then
      // goes out with the others of the submission, before the board's that the commit sets off.
      if (!n.settled.noticeHeld) n.settled.noticeRooms = await noticeRooms(db, n.settled.gameId, n.settled.challengeId)
    }
    return results
    // The pending-rows index gives the oldest rows in order; a bitmap scan (chosen on stale
    // statistics after a burst) would read and sort the whole queue for every batch. The setting
    // is in force when the named claim is first planned on a connection, and whenever it runs.
  }, 'begin; set local enable_bitmapscan = off')
}

/** Counted solves of one game as NOTIFY payloads, each under the size limit. */
function solveMessages(gameId: number, solves: SolveData[]): string[] {
  const out: string[] = []
  let current: SolveMessage = { g: gameId, s: [] }
  let size = 20
  for (const solve of solves) {
    const encoded = encodeSolve(solve)
    const length = JSON.stringify(encoded).length + 1
    if (current.s.length > 0 && size + length > NOTIFY_BUDGET) {
      out.push(JSON.stringify(current))
      current = { g: gameId, s: [] }
      size = 20
    }
    current.s.push(encoded)
    size += length
  }
  if (current.s.length > 0) out.push(JSON.stringify(current))
  return out
}

const AUDIT: Record<Settled['status'], { status: TaskStatus; level: LogLevel; text: (team: string, title: string, answer: string) => string }> = {
  Accepted: { status: 'Success', level: 'Information', text: (team, title, answer) => `[答案正确] 队伍 [${team}] 提交题目 [${title}] 的答案 [${answer}]` },
  WrongAnswer: { status: 'Failed', level: 'Information', text: (team, title, answer) => `[答案错误] 队伍 [${team}] 提交题目 [${title}] 的答案 [${answer}]` },
  NotFound: { status: 'NotFound', level: 'Warning', text: (team, title) => `[实例未知] 未找到队伍 [${team}] 提交题目 [${title}] 的实例` },
  CheatDetected: { status: 'Denied', level: 'Warning', text: (team, title, answer) => `[作弊检测] 队伍 [${team}] 提交题目 [${title}] 的答案 [${answer}] 是其他队伍的 flag` },
}

function auditEntry(id: number, status: Settled['status'], team: string, title: string, answer: string, userName: string) {
  const kind = AUDIT[status]
  return { level: kind.level, status: kind.status, userName: (userName || 'Anonymous').slice(0, 64), message: `${kind.text(team, title, answer)} (#${id})` }
}

const dateOrNull = (value: string | Date | null): Date | null => (value === null ? null : new Date(value))
