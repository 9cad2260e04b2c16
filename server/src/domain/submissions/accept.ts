/**
 * Taking a submission into the queue (docs/scoring.md#submission-queue): one statement that inserts
 * the row only while every rule of the route still holds in the database. The route decides on the
 * read cache's rows first (answering a refusal without a query); a cache is dropped on every node
 * only when the invalidation of a commit reaches it, so the rules that a write on another node may
 * just have changed are checked again, atomically, inside the INSERT itself: the registration and
 * the participation's status, the game's start and end, the challenge, its division permissions,
 * its opening time, deadline and prerequisites, and the attempt limit
 * (docs/challenge-rules.md#attempt-limits). When the statement takes no row, it says why from the
 * rows it saw, with the same rule functions and in the same order as the route.
 */
import type pg from 'pg'
import { GamePermission } from '@flagwave/shared/enums'
import { badRequest, notFound, type AppError } from '../../lib/errors.js'
import { divisionRefusal, gateRefusal } from '../play/gate.js'
import { ATTEMPTS_EXHAUSTED, deadlineRefusal, isPendingRelease } from '../challenges/rules.js'
import { lockedRefusal } from '../challenges/prerequisites.js'
import { divisionPermissionsSql } from '../divisions/permissionsSql.js'
import { inTransaction } from '../../db/pg.js'
import { Batcher } from '../../db/batcher.js'
import { tags } from '../../cache/invalidation.js'
import type { Services } from '../../services.js'

/** A submission as the route took it; `time` is also the instant every time rule is judged at. */
export interface SubmissionInput {
  gameId: number
  challengeId: number
  /** The caller's participation, as the cached registration names it. */
  participationId: number
  userId: string
  answer: string
  time: Date
  ip: string
}

/** What the statement saw (one row, whatever is missing); times as epoch milliseconds. */
interface Facts {
  id: number | null
  game_found: boolean
  start_ms: number | null
  end_ms: number | null
  practice_mode: boolean | null
  participation_id: number | null
  status: string | null
  challenge_found: boolean
  is_enabled: boolean | null
  release_ms: number | null
  deadline_ms: number | null
  submission_limit: number | null
  permissions: number
  locked: boolean
}

const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`

/** Where a statement takes each input of a submission: `$n` parameters, or the columns of a batch's row. */
interface Inputs {
  game: string
  challenge: string
  participation: string
  user: string
  /** The submission's time in epoch ms. */
  now: string
}

/**
 * What the rules need, read in one row whatever is missing. A prerequisite locks while it is
 * enabled and the team has no accepted submission to it (`assertUnlocked`,
 * domain/challenges/prerequisites.ts).
 */
const factsSql = (i: Inputs) => `
  select g.id is not null as game_found, ${ms('g.start')} as start_ms, ${ms('g."end"')} as end_ms, g.practice_mode,
         p.id as participation_id, p.status,
         c.id is not null as challenge_found, c.is_enabled, ${ms('c.release_time_utc')} as release_ms, ${ms('c.deadline_utc')} as deadline_ms,
         c.submission_limit, ${divisionPermissionsSql('c.id')} as permissions,
         exists (select 1 from jsonb_array_elements_text(c.prerequisites) as pr(id)
                   join challenges pc on pc.id = pr.id::int and pc.game_id = c.game_id and pc.is_enabled and pc.id <> c.id
                  where not exists (select 1 from submissions a where a.participation_id = p.id and a.challenge_id = pc.id and a.status = 'Accepted')) as locked
    from (values (1)) as one (x)
    left join games g on g.id = ${i.game}
    left join registrations r on r.game_id = g.id and r.user_id = ${i.user}
    left join participations p on p.id = r.participation_id
    left join challenges c on c.id = ${i.challenge} and c.game_id = g.id
    left join divisions d on d.id = p.division_id`

const MAY_SUBMIT = GamePermission.ViewChallenge | GamePermission.SubmitFlags

/** The rules of `submissionRefusal` in SQL, on the facts; the limit's clause is the caller's. */
const rulesSql = (i: Inputs) => `game_found and participation_id = ${i.participation} and status = 'Accepted'
     and ${i.now} >= start_ms and (practice_mode or ${i.now} <= end_ms)
     and challenge_found and permissions & ${MAY_SUBMIT} = ${MAY_SUBMIT}
     and (is_enabled or release_ms is null)
     and (deadline_ms is null or ${i.now} <= deadline_ms)
     and not locked`

/** $1 game, $2 challenge, $3 participation, $4 user, $5 answer, $6 time, $7 ip, $8 the time in ms. */
const PARAMETERS: Inputs = { game: '$1', challenge: '$2', participation: '$3', user: '$4', now: '$8' }

/** One submission: the facts, and the row inserted when the rules hold. Referenced twice, the CTE is computed once. */
const statement = (limitClause: string) => `
  with facts as (${factsSql(PARAMETERS)}
  ), accepted as (
    insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
    select $1, $2, $3, $4, $5, 'FlagSubmitted', $6, $7 from facts
     where ${rulesSql(PARAMETERS)} and ${limitClause}
    returning id
  )
  select (select id from accepted) as id, facts.* from facts`

/*
 * Named, so each pooled connection parses and plans them once (docs/performance.md#flag-submission):
 * planning these statements costs PostgreSQL more than running them.
 */
/** Without an attempt limit: one autocommitted statement. */
const UNLIMITED = { name: 'flagwave-submission-accept', text: statement('submission_limit = 0') }
/** With one: counted under the (team, challenge) lock taken before it (see `insertWithinLimit`). */
const WITHIN_LIMIT = {
  name: 'flagwave-submission-accept-within-limit',
  text: statement(`(submission_limit = 0 or (select count(*) from submissions s where s.challenge_id = $2 and s.participation_id = $3) < submission_limit)`),
}

/** A batch's row, as `BATCH` reads it from its arrays. */
const ROW: Inputs = { game: 'v.game', challenge: 'v.challenge', participation: 'v.participation', user: 'v.uid', now: 'v.now_ms' }

/**
 * Many submissions without an attempt limit in one autocommitted statement (db/batcher.ts): each
 * row's facts as `UNLIMITED` reads them, an id drawn for each row whose rules hold, those rows
 * inserted, and every row's id (or null) and facts returned in the arrays' order.
 */
const BATCH = {
  name: 'flagwave-submission-accept-batch',
  text: `
  with facts as materialized (
    select v.ord, v.game, v.challenge, v.participation, v.uid, v.answer, v.time, v.ip, f.*,
           case when ${rulesSql(ROW)} and f.submission_limit = 0 then nextval('submissions_id_seq')::int end as new_id
      from unnest($1::int[], $2::int[], $3::int[], $4::uuid[], $5::text[], $6::timestamptz[], $7::text[], $8::float8[])
             with ordinality as v (game, challenge, participation, uid, answer, time, ip, now_ms, ord)
      cross join lateral (${factsSql(ROW)}) as f
  ), accepted as (
    insert into submissions (id, game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
    select new_id, game, challenge, participation, uid, answer, 'FlagSubmitted', time, ip from facts where new_id is not null order by ord
  )
  select new_id as id, game_found, start_ms, end_ms, practice_mode, participation_id, status, challenge_found, is_enabled,
         release_ms, deadline_ms, submission_limit, permissions, locked
    from facts order by ord`,
}

const valuesOf = (s: SubmissionInput) => [s.gameId, s.challengeId, s.participationId, s.userId, s.answer, s.time, s.ip, s.time.getTime()]

/** The arrays of `BATCH`: one per input, in `valuesOf`'s order. */
function columnsOf(batch: SubmissionInput[]): unknown[][] {
  const rows = batch.map(valuesOf)
  return rows[0]!.map((_, column) => rows.map((row) => row[column]))
}

/*
 * Statements in flight at once, and the most submissions one carries. Measured on 2 cores
 * (docs/performance.md#flag-submission): four in flight made smaller batches, each with its
 * commit, and no more submissions per second.
 */
const ACCEPT_IN_FLIGHT = 2
const ACCEPT_BATCH_MAX = 64

/** The accepts of one pool (the ORM's, on every node): gathered while earlier ones are in flight. */
const batchers = new WeakMap<pg.Pool, Batcher<SubmissionInput, Facts>>()

function unlimitedAccepts(pool: pg.Pool): Batcher<SubmissionInput, Facts> {
  let batcher = batchers.get(pool)
  if (!batcher) {
    batcher = new Batcher<SubmissionInput, Facts>({
      one: async (s) => (await pool.query<Facts>({ ...UNLIMITED, values: valuesOf(s) })).rows[0]!,
      many: async (batch) => (await pool.query<Facts>({ ...BATCH, values: columnsOf(batch) })).rows,
      inFlight: ACCEPT_IN_FLIGHT,
      maxBatch: ACCEPT_BATCH_MAX,
    })
    batchers.set(pool, batcher)
  }
  return batcher
}

/**
 * Insert the submission while every rule holds; returns its id, or throws the refusal. `limited`:
 * the cached challenge has an attempt limit. When no rule refuses and still no row was taken, the
 * cache was behind in what decides how to insert (the challenge gained a limit, the registration
 * moved to another participation): the statement's own rows are taken and it runs again.
 */
export async function acceptSubmission(pool: pg.Pool, input: SubmissionInput, limited: boolean): Promise<number> {
  let submission = input
  let withinLimit = limited
  for (let round = 1; ; round++) {
    const facts = withinLimit ? await insertWithinLimit(pool, submission) : await unlimitedAccepts(pool).run(submission)
    if (facts.id !== null) return facts.id
    const refusal = submissionRefusal(facts, submission.time.getTime()) ?? (withinLimit && facts.submission_limit! > 0 ? badRequest(ATTEMPTS_EXHAUSTED) : null)
    if (refusal) throw refusal
    if (round === 3) throw new Error(`submission to challenge ${input.challengeId} found the rules moving three times`)
    submission = { ...submission, participationId: facts.participation_id! }
    withinLimit = facts.submission_limit! > 0
  }
}

/**
 * A challenge with an attempt limit (docs/challenge-rules.md#attempt-limits): the row is inserted
 * only while the team has fewer than `limit` submissions to it, every status counted, after a
 * transaction lock on (team, challenge) sent with the BEGIN: the statement's snapshot is taken once
 * the lock is held, so it counts every row a concurrent submission of any node committed before it.
 */
async function insertWithinLimit(pool: pg.Pool, submission: SubmissionInput): Promise<Facts> {
  // Both ids are integers (validated route parameters and a database key): safe to write into the text.
  const key = `attempts:${Math.trunc(submission.participationId)}:${Math.trunc(submission.challengeId)}`
  return inTransaction(pool, async (client) => (await client.query<Facts>({ ...WITHIN_LIMIT, values: valuesOf(submission) })).rows[0]!, `begin; select pg_advisory_xact_lock(hashtextextended('${key}', 0))`)
}

/**
 * The rules of the route, in its order, on what the statement saw (no registration: not
 * registered); null when none refuses. The attempt limit is the caller's to judge.
 */
function submissionRefusal(f: Facts, now: number): AppError | null {
  if (!f.game_found) return notFound('比赛未找到')
  const gate = gateRefusal({ start: new Date(f.start_ms!), end: new Date(f.end_ms!), practiceMode: f.practice_mode! }, f.participation_id === null ? null : { status: f.status! }, true, now)
  if (gate) return gate
  if (!f.challenge_found) return notFound('题目未找到')
  return (
    divisionRefusal(f.permissions, 'SubmitFlags') ??
    (isPendingRelease({ isEnabled: f.is_enabled!, releaseTimeUtc: f.release_ms === null ? null : new Date(f.release_ms) }) ? notFound('题目未找到') : null) ??
    deadlineRefusal({ deadlineUtc: f.deadline_ms === null ? null : new Date(f.deadline_ms) }, now) ??
    (f.locked ? lockedRefusal() : null)
  )
}

/**
 * After the row committed, on either path (the route and the fast path, http/hotSubmissions.ts):
 * the team's attempts changed, so its kept challenge detail goes on this node at once (the other
 * nodes drop it when a checker settles the row, whose commit names the same tag, settle.ts), and
 * the checkers wake.
 */
export function accepted(services: Pick<Services, 'readCache' | 'submissions'>, input: Pick<SubmissionInput, 'participationId' | 'challengeId'>): void {
  services.readCache.invalidate([tags.instance(input.participationId, input.challengeId)])
  services.submissions.submitted()
}
