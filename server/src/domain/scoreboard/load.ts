/**
 * The full-rebuild read of one game's scoreboard: set-based queries run side by side on the
 * pool (game, divisions, enabled challenges, accepted teams with the challenges they hold, earliest
 * counted solve per team × challenge). Times travel as epoch milliseconds to keep row parsing cheap.
 */
import type pg from 'pg'
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import type { GameData, SolveData } from './engine.js'

interface GameRow {
  id: number
  start_ms: number
  end_ms: number
  blood_bonus: string
}

/** The game's scoreboard inputs, or null when the game does not exist. */
export async function loadGameData(pool: pg.Pool, gameId: number): Promise<GameData | null> {
  const games = await pool.query<GameRow>(
    `select id, floor(extract(epoch from start) * 1000)::float8 as start_ms, floor(extract(epoch from "end") * 1000)::float8 as end_ms,
            blood_bonus::text as blood_bonus
       from games where id = $1`,
    [gameId],
  )
  const game = games.rows[0]
  if (!game) return null
  const [divisions, challenges, teams, instances, solves] = await Promise.all([
    pool.query<{ id: number; name: string; default_permissions: number; challenge_configs: ChallengeConfig[] }>(
      `select id, name, default_permissions, challenge_configs from divisions where game_id = $1 order by id`,
      [gameId],
    ),
    pool.query<{ id: number; title: string; tag: ChallengeTag; original_score: number; min_score_rate: number; difficulty: number; accepted_count: number; deadline_ms: number | null }>(
      `select id, title, tag, original_score, min_score_rate, difficulty, accepted_count,
              floor(extract(epoch from deadline_utc) * 1000)::float8 as deadline_ms
         from challenges where game_id = $1 and is_enabled`,
      [gameId],
    ),
    pool.query<{ pid: number; team_id: number; name: string; bio: string | null; avatar_hash: string | null; division_id: number | null }>(
      `select p.id as pid, p.team_id, t.name, t.bio, t.avatar_hash, p.division_id
         from participations p join teams t on t.id = p.team_id
        where p.game_id = $1 and p.status = 'Accepted'`,
      [gameId],
    ),
    pool.query<{ pid: number; cids: string }>(
      `select i.participation_id as pid, string_agg(i.challenge_id::text, ',') as cids
         from instances i
         join participations p on p.id = i.participation_id
         join challenges c on c.id = i.challenge_id
        where p.game_id = $1 and p.status = 'Accepted' and c.game_id = $1 and c.is_enabled
        group by i.participation_id`,
      [gameId],
    ),
    pool.query<{ pid: number; cid: number; sid: number; t: number; user_name: string | null }>(
      `select f.pid, f.cid, f.sid, f.t, u.user_name
         from (select distinct on (s.participation_id, s.challenge_id)
                      s.participation_id as pid, s.challenge_id as cid, s.id as sid, s.user_id,
                      floor(extract(epoch from s.submit_time) * 1000)::float8 as t
                 from submissions s
                where s.game_id = $1 and s.status = 'Accepted' and s.submit_time < (select g."end" from games g where g.id = $1)
                order by s.participation_id, s.challenge_id, s.submit_time, s.id) f
         left join users u on u.id = f.user_id`,
      [gameId],
    ),
  ])
  const held = new Map<number, number[]>()
  for (const row of instances.rows) held.set(row.pid, row.cids.split(',').map(Number))
  const solveData: SolveData[] = new Array(solves.rows.length)
  solves.rows.forEach((r, i) => {
    solveData[i] = { participationId: r.pid, challengeId: r.cid, submissionId: r.sid, time: r.t, userName: r.user_name }
  })
  return {
    game: {
      id: game.id,
      start: game.start_ms,
      end: game.end_ms,
      bloodBonus: Number(game.blood_bonus),
      divisions: divisions.rows.map((d) => ({ id: d.id, name: d.name, defaultPermissions: d.default_permissions, challengeConfigs: d.challenge_configs })),
    },
    challenges: challenges.rows.map((c) => ({
      id: c.id,
      title: c.title,
      tag: c.tag,
      originalScore: c.original_score,
      minScoreRate: Number(c.min_score_rate),
      difficulty: Number(c.difficulty),
      acceptedCount: c.accepted_count,
      deadline: c.deadline_ms,
    })),
    teams: teams.rows.map((t) => ({
      participationId: t.pid,
      teamId: t.team_id,
      name: t.name,
      bio: t.bio,
      avatarHash: t.avatar_hash,
      divisionId: t.division_id,
    })),
    instances: held,
    solves: solveData,
  }
}
