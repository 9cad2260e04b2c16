/**
 * The full-rebuild read of one game's scoreboard: set-based queries run side by side on the
 * pool (game, divisions, enabled challenges, accepted teams with the challenges they hold, earliest
 * counted solve per team × challenge, costed hint unlocks). Times travel as epoch milliseconds to keep row parsing cheap.
 */
import type pg from 'pg'
import { DivisionPermissions } from '@flagwave/shared/divisions'
import type { GameData, SolveData } from './engine.js'
import { challengeScoring, readBoardTeams, readDivisions, readHeldChallenges, readHintUnlocks, type ChallengeScoringRow } from './boardQueries.js'
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
  const [divisions, challenges, teams, held, solves, unlocks] = await Promise.all([
    readDivisions(pool, gameId),
    pool.query<ChallengeScoringRow & { accepted_count: number; prerequisites: number[]; deadline_ms: number | null }>(
      `select id, title, tag, original_score, min_score_rate, difficulty, accepted_count, prerequisites,
              floor(extract(epoch from deadline_utc) * 1000)::float8 as deadline_ms
         from challenges where game_id = $1 and is_enabled`,
      [gameId],
    ),
    readBoardTeams(pool, gameId),
    readHeldChallenges(pool, gameId, true),
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
    readHintUnlocks(pool, gameId),
  ])
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
      divisions,
    },
    challenges: challenges.rows.map((c) => ({
      ...challengeScoring(c),
      acceptedCount: c.accepted_count,
      prerequisites: c.prerequisites,
      deadline: c.deadline_ms,
    })),
    teams,
    instances: held,
    solves: solveData,
    unlocks,
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
