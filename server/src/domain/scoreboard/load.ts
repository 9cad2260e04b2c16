/**
 * The full-rebuild read of one game's scoreboard: set-based queries run side by side on the
 * pool (game, divisions, enabled challenges, accepted teams with the challenges they hold, earliest
 * counted solve per team × challenge, costed hint unlocks). Times travel as epoch milliseconds to keep row parsing cheap.
 */
import type pg from 'pg'
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import { DivisionPermissions } from '@flagwave/shared/divisions'
import type { GameData, HintUnlockData, SolveData } from './engine.js'
import type { FreezeFields } from '../games/freeze.js'

interface GameRow {
  id: number
  start_ms: number
  end_ms: number
  blood_bonus: string
  freeze_ms: number | null
  unfrozen_ms: number | null
}

/** A game's scoreboard inputs with its freeze settings (docs/scoring.md#freeze). */
export interface LoadedGame extends GameData {
  freeze: FreezeFields
}

/** The game's scoreboard inputs, or null when the game does not exist. */
export async function loadGameData(pool: pg.Pool, gameId: number): Promise<LoadedGame | null> {
  const games = await pool.query<GameRow>(
    `select id, floor(extract(epoch from start) * 1000)::float8 as start_ms, floor(extract(epoch from "end") * 1000)::float8 as end_ms,
            blood_bonus::text as blood_bonus,
            floor(extract(epoch from freeze_time) * 1000)::float8 as freeze_ms, floor(extract(epoch from unfrozen_at) * 1000)::float8 as unfrozen_ms
       from games where id = $1`,
    [gameId],
  )
  const game = games.rows[0]
  if (!game) return null
  const [divisions, challenges, teams, instances, solves, unlocks] = await Promise.all([
    pool.query<{ id: number; name: string; default_permissions: number; challenge_configs: ChallengeConfig[] }>(
      `select id, name, default_permissions, challenge_configs from divisions where game_id = $1 order by id`,
      [gameId],
    ),
    pool.query<{
      id: number
      title: string
      tag: ChallengeTag
      original_score: number
      min_score_rate: number
      difficulty: number
      accepted_count: number
      prerequisites: number[]
      deadline_ms: number | null
    }>(
      `select id, title, tag, original_score, min_score_rate, difficulty, accepted_count, prerequisites,
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
    // Append-only (docs/challenge-rules.md#costed-hints): the engine keeps those of board teams' cells before the end.
    pool.query<{ id: number; pid: number; cid: number; t: number; cost: number }>(
      `select id, participation_id as pid, challenge_id as cid, floor(extract(epoch from unlocked_at) * 1000)::float8 as t, cost
         from hint_unlocks where game_id = $1`,
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
    freeze: { freezeTime: game.freeze_ms === null ? null : new Date(game.freeze_ms), unfrozenAt: game.unfrozen_ms === null ? null : new Date(game.unfrozen_ms) },
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
      prerequisites: c.prerequisites,
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
    unlocks: unlocks.rows.map((u): HintUnlockData => ({ unlockId: u.id, participationId: u.pid, challengeId: u.cid, time: u.t, cost: u.cost })),
  }
}

/**
 * The inputs of the board as it stood at `until` (the freeze, docs/scoring.md#freeze): the solves
 * and hint unlocks before it (a score that falls would tell of an unlock), and each challenge's counter without the counted solves from then on — those of
 * any participation whose division affects the dynamic score, as the checkers count
 * (domain/submissions/settle.ts) — so dynamic values stand where they stood.
 */
export async function loadBoardUntil(pool: pg.Pool, data: GameData, until: number): Promise<GameData> {
  const later = await pool.query<{ cid: number; division_id: number | null }>(
    `select f.cid, p.division_id
       from (select distinct on (s.participation_id, s.challenge_id) s.participation_id as pid, s.challenge_id as cid, s.submit_time
               from submissions s
              where s.game_id = $1 and s.status = 'Accepted' and s.submit_time < (select g."end" from games g where g.id = $1)
              order by s.participation_id, s.challenge_id, s.submit_time, s.id) f
       join participations p on p.id = f.pid
      where f.submit_time >= $2`,
    [data.game.id, new Date(until)],
  )
  const permissions = new DivisionPermissions(data.game.divisions)
  const uncounted = new Map<number, number>()
  for (const row of later.rows) {
    if (permissions.may(row.division_id, 'AffectDynamicScore', row.cid)) uncounted.set(row.cid, (uncounted.get(row.cid) ?? 0) + 1)
  }
  return {
    ...data,
    challenges: data.challenges.map((c) => ({ ...c, acceptedCount: Math.max(0, c.acceptedCount - (uncounted.get(c.id) ?? 0)) })),
    solves: data.solves.filter((s) => s.time < until),
    unlocks: data.unlocks?.filter((u) => u.time < until),
  }
}
