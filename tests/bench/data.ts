/**
 * Benchmark data sets (docs/operations.md#benchmarks), written with set-based SQL (`generate_series`):
 * - `small`: 110 teams of one user, 20 dynamic challenges, team i solves challenges 0 … 19 − (i mod 5) (1,980 solves);
 * - `large`: 1,000 teams × 100 challenges × 200,000 submissions, a quarter of them correct;
 * - plain games with teams, challenges and instances for the queue and latency runs.
 * `BENCH_DIVISIONS=n` splits the small and large sets' teams round-robin over n divisions, one of
 * them not ranked overall, so the board carries per-division ranks and timelines.
 */
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { generateGameKeys } from '../../server/src/domain/games/keys.js'
import { hashToken } from '../../server/src/domain/accounts/sessions.js'
import { GamePermission } from '@flagwave/shared/enums'

export interface BenchTeam {
  userId: string
  userName: string
  teamId: number
  participationId: number
  /** A session token (GZCTF_Token cookie value). */
  token: string
}

export interface BenchGame {
  gameId: number
  challengeIds: number[]
  teams: BenchTeam[]
}

const HOUR = 3600_000
const BENCH_DIVISIONS = Number(process.env.BENCH_DIVISIONS ?? 0)

export async function createBenchGame(pool: pg.Pool, title: string, opts: { start?: Date; end?: Date } = {}): Promise<number> {
  const keys = generateGameKeys('')
  const start = opts.start ?? new Date(Date.now() - HOUR)
  const end = opts.end ?? new Date(Date.now() + 24 * HOUR)
  const { rows } = await pool.query<{ id: number }>(
    `insert into games (title, public_key, private_key, start, "end", wpddl, practice_mode, created_at) values ($1, $2, $3, $4, $5, $5, false, now()) returning id`,
    [title, keys.publicKey, keys.privateKey, start, end],
  )
  return rows[0]!.id
}

/** The teams of `gameId` spread round-robin over `count` divisions; the last is not ranked overall (docs/scoring.md#divisions). */
async function createBenchDivisions(pool: pg.Pool, gameId: number, count: number): Promise<void> {
  if (count <= 0) return
  const { rows } = await pool.query<{ id: number }>(
    `insert into divisions (game_id, name, invite_code, default_permissions, challenge_configs)
     select $1, 'Division ' || i, null, case when i = $2 then $3::int else $4::int end, '[]'::jsonb from generate_series(1, $2::int) i order by i returning id`,
    [gameId, count, GamePermission.All & ~GamePermission.RankOverall, GamePermission.All],
  )
  await pool.query(`update participations set division_id = ($1::int[])[(id % $2) + 1] where game_id = $3`, [rows.map((r) => r.id), count, gameId])
}

/** `count` users, each captain of a one-member team with an accepted participation in `gameId`, each with a session. */
export async function createBenchTeams(pool: pg.Pool, gameId: number, count: number): Promise<BenchTeam[]> {
  const prefix = `b${randomBytes(3).toString('hex')}_`
  const users = await pool.query<{ id: string; user_name: string; n: number }>(
    `insert into users (id, user_name, normalized_user_name, email, normalized_email, email_confirmed, password_hash, security_stamp, role, created_at)
     select gen_random_uuid(), $1 || i, upper($1 || i), $1 || i || '@bench.local', upper($1 || i || '@bench.local'), true, 'x', 'bench', 'User', now()
       from generate_series(1, $2) as i
     returning id, user_name, substr(user_name, length($1) + 1)::int as n`,
    [prefix, count],
  )
  const byN = [...users.rows].sort((a, b) => a.n - b.n)
  const teams = await pool.query<{ id: number; captain_id: string }>(
    `insert into teams (name, invite_token, captain_id, created_at)
     select 'T' || u.n, md5(random()::text), u.id, now() from unnest($1::uuid[], $2::int[]) as u(id, n) order by u.n
     returning id, captain_id`,
    [byN.map((u) => u.id), byN.map((u) => u.n)],
  )
  const teamOf = new Map(teams.rows.map((t) => [t.captain_id, t.id]))
  await pool.query(`insert into team_members (team_id, user_id) select id, captain_id from teams where id = any($1::int[])`, [teams.rows.map((t) => t.id)])
  const parts = await pool.query<{ id: number; team_id: number }>(
    `insert into participations (game_id, team_id, status, token, created_at)
     select $1, t, 'Accepted', t || ':bench', now() from unnest($2::int[]) as t order by t returning id, team_id`,
    [gameId, byN.map((u) => teamOf.get(u.id)!)],
  )
  const partOf = new Map(parts.rows.map((p) => [p.team_id, p.id]))
  const tokens = byN.map(() => randomBytes(32).toString('base64url'))
  await pool.query(
    `insert into registrations (user_id, game_id, participation_id) select u, $1, p from unnest($2::uuid[], $3::int[]) as v(u, p)`,
    [gameId, byN.map((u) => u.id), byN.map((u) => partOf.get(teamOf.get(u.id)!)!)],
  )
  await pool.query(
    `insert into sessions (id, user_id, security_stamp, created_at, expires_at) select h, u, 'bench', now(), now() + interval '7 days' from unnest($1::text[], $2::uuid[]) as v(h, u)`,
    [tokens.map(hashToken), byN.map((u) => u.id)],
  )
  return byN.map((u, i) => {
    const teamId = teamOf.get(u.id)!
    return { userId: u.id, userName: u.user_name, teamId, participationId: partOf.get(teamId)!, token: tokens[i]! }
  })
}

/** `count` enabled challenges of `type`, with one static flag `flag{c<index>}` each for static types. */
export async function createBenchChallenges(pool: pg.Pool, gameId: number, count: number, type: 'StaticAttachment' | 'DynamicContainer'): Promise<number[]> {
  const tags = ['Misc', 'Crypto', 'Pwn', 'Web', 'Reverse']
  const { rows } = await pool.query<{ id: number }>(
    `insert into challenges (game_id, title, tag, type, is_enabled, original_score, min_score_rate, difficulty)
     select $1, 'C' || i, ($3::text[])[1 + i % 5], $4, true, 500, 0.25, 5 from generate_series(0, $2 - 1) as i order by i returning id`,
    [gameId, count, tags, type],
  )
  const ids = rows.map((r) => r.id)
  if (type === 'StaticAttachment') {
    await pool.query(`insert into flags (challenge_id, flag) select c, 'flag{c' || i || '}' from unnest($1::int[]) with ordinality as v(c, i)`, [ids])
  }
  return ids
}

/** An instance for every team × challenge; dynamic ones get `flag{<participation>_<challenge>}`. */
export async function createBenchInstances(pool: pg.Pool, teams: BenchTeam[], challengeIds: number[], dynamic: boolean): Promise<void> {
  await pool.query(
    `insert into instances (participation_id, challenge_id, dynamic_flag, is_loaded)
     select p, c, case when $3 then 'flag{' || p || '_' || c || '}' else null end, true
       from unnest($1::int[]) as p, unnest($2::int[]) as c`,
    [teams.map((t) => t.participationId), challengeIds, dynamic],
  )
}

/** The small set of docs/operations.md#benchmarks. */
export async function smallDataSet(pool: pg.Pool): Promise<BenchGame> {
  const gameId = await createBenchGame(pool, 'bench small')
  const challengeIds = await createBenchChallenges(pool, gameId, 20, 'DynamicContainer')
  const teams = await createBenchTeams(pool, gameId, 110)
  await createBenchDivisions(pool, gameId, BENCH_DIVISIONS)
  await createBenchInstances(pool, teams, challengeIds, true)
  // team i solves challenges 0 … 19 − (i mod 5), one minute apart per challenge index, ordered by team within a minute
  await pool.query(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, settled_at)
     select $1, c.id, t.p, t.u, 'flag{' || t.p || '_' || c.id || '}', 'Accepted',
            now() - interval '50 minutes' + c.i * interval '1 minute' + t.i * interval '100 milliseconds', now()
       from unnest($2::int[], $3::uuid[]) with ordinality as t(p, u, i)
       join unnest($4::int[]) with ordinality as c(id, i) on c.i - 1 <= 19 - ((t.i - 1) % 5)`,
    [gameId, teams.map((t) => t.participationId), teams.map((t) => t.userId), challengeIds],
  )
  await recount(pool, gameId)
  return { gameId, challengeIds, teams }
}

/** The large set of docs/operations.md#benchmarks: 1,000 teams × 100 challenges × 200,000 submissions, a quarter correct. */
export async function largeDataSet(pool: pg.Pool): Promise<BenchGame> {
  const gameId = await createBenchGame(pool, 'bench large')
  const challengeIds = await createBenchChallenges(pool, gameId, 100, 'StaticAttachment')
  const teams = await createBenchTeams(pool, gameId, 1000)
  await createBenchDivisions(pool, gameId, BENCH_DIVISIONS)
  await createBenchInstances(pool, teams, challengeIds, false)
  await pool.query(
    `insert into submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, settled_at)
     select $1, ($2::int[])[1 + (x.r * 100)::int % 100], ($3::int[])[1 + x.i % 1000], ($4::uuid[])[1 + x.i % 1000],
            case when x.i % 4 = 0 then 'flag{ok}' else 'flag{wrong}' end,
            case when x.i % 4 = 0 then 'Accepted' else 'WrongAnswer' end,
            now() - interval '55 minutes' + (x.i * interval '15 milliseconds'), now()
       from (select i, random() as r from generate_series(1, 200000) as i) as x`,
    [gameId, challengeIds, teams.map((t) => t.participationId), teams.map((t) => t.userId)],
  )
  await recount(pool, gameId)
  await pool.query('analyze submissions')
  return { gameId, challengeIds, teams }
}

/** Set `accepted_count` from the submissions (teams whose first correct answer came before the end). */
export async function recount(pool: pg.Pool, gameId: number): Promise<void> {
  await pool.query(
    `update challenges c set accepted_count = coalesce(x.n, 0)
       from challenges c2 left join (
         select s.challenge_id, count(distinct s.participation_id)::int as n from submissions s join games g on g.id = s.game_id
          where s.game_id = $1 and s.status = 'Accepted' and s.submit_time < g."end" group by s.challenge_id
       ) x on x.challenge_id = c2.id
      where c.id = c2.id and c.game_id = $1`,
    [gameId],
  )
}
