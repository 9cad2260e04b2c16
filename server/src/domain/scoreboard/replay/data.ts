/**
 * What a replay reads of one game, once (docs/scoring.md#replay): the game as it is now, every
 * challenge (enabled or not) with the instances that hold it, the accepted teams, every
 * participation's first counted solve (any status: the dynamic score counts them all) in time
 * order, the costed hint unlocks in time order, and the recorded score-changing edits. `load.ts` reads the live board's inputs; this
 * reads the whole history instead.
 */
import type pg from 'pg'
import type { ChallengeData, GameMeta, HintUnlockData, TeamData } from '../engine.js'
import { challengeScoring, readBoardTeams, readDivisions, readHeldChallenges, readHintUnlocks, type ChallengeScoringRow } from '../boardQueries.js'

/** A challenge as a replay reads it: its scoring as the engine takes it, enabled or not. */
interface ReplayChallenge extends Pick<ChallengeData, 'id' | 'title' | 'tag' | 'originalScore' | 'minScoreRate' | 'difficulty'> {
  isEnabled: boolean
  /** Its current deadline (epoch ms; docs/challenge-rules.md#deadline): boards show it, edits of it are not recorded. */
  deadline: number | null
}

/** A first counted solve of a participation (of any status), with the solver's division for the counter. */
export interface ReplaySolve {
  participationId: number
  challengeId: number
  submissionId: number
  time: number
  userName: string | null
  divisionId: number | null
}

/** The values in force until `at` (null fields were not part of that edit); `challengeId` null: the game's blood bonus. */
interface ReplayEdit {
  at: number
  challengeId: number | null
  originalScore: number | null
  minScoreRate: number | null
  difficulty: number | null
  isEnabled: boolean | null
  bloodBonus: number | null
}

export interface ReplayData {
  game: GameMeta & { freezeTime: number | null; unfrozenAt: number | null; replayPublic: boolean }
  challenges: ReplayChallenge[]
  teams: TeamData[]
  /** Participation id → every challenge it holds an instance of. */
  instances: Map<number, number[]>
  /** Time order (then submission id). */
  solves: ReplaySolve[]
  /** Edit time order. */
  edits: ReplayEdit[]
  /** Costed hint unlocks (docs/challenge-rules.md#costed-hints), time order: a board at `t` takes those up to `t`. */
  unlocks: HintUnlockData[]
}

const ms = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`

export async function loadReplayData(pool: pg.Pool, gameId: number): Promise<ReplayData | null> {
  const games = await pool.query<{ id: number; start: number; end: number; blood_bonus: string; freeze: number | null; unfrozen: number | null; replay_public: boolean }>(
    `select id, ${ms('start')} as start, ${ms('"end"')} as "end", blood_bonus::text as blood_bonus,
            ${ms('freeze_time')} as freeze, ${ms('unfrozen_at')} as unfrozen, replay_public
       from games where id = $1`,
    [gameId],
  )
  const game = games.rows[0]
  if (!game) return null
  const [divisions, challenges, teams, held, solves, edits, unlocks] = await Promise.all([
    readDivisions(pool, gameId),
    pool.query<ChallengeScoringRow & { is_enabled: boolean; deadline: number | null }>(
      `select id, title, tag, original_score, min_score_rate, difficulty, is_enabled, ${ms('deadline_utc')} as deadline from challenges where game_id = $1`,
      [gameId],
    ),
    readBoardTeams(pool, gameId),
    readHeldChallenges(pool, gameId, false),
    pool.query<{ pid: number; cid: number; sid: number; t: number; user_name: string | null; division_id: number | null }>(
      `select f.pid, f.cid, f.sid, f.t, u.user_name, p.division_id
         from (select distinct on (s.participation_id, s.challenge_id)
                      s.participation_id as pid, s.challenge_id as cid, s.id as sid, s.user_id, ${ms('s.submit_time')} as t
                 from submissions s
                where s.game_id = $1 and s.status = 'Accepted' and s.submit_time < (select g."end" from games g where g.id = $1)
                order by s.participation_id, s.challenge_id, s.submit_time, s.id) f
         join participations p on p.id = f.pid
         left join users u on u.id = f.user_id
        order by f.t, f.sid`,
      [gameId],
    ),
    pool.query<{ at: number; challenge_id: number | null; original_score: number | null; min_score_rate: number | null; difficulty: number | null; is_enabled: boolean | null; blood_bonus: string | null }>(
      `select ${ms('edited_at')} as at, challenge_id, original_score, min_score_rate, difficulty, is_enabled, blood_bonus::text as blood_bonus
         from score_edits where game_id = $1 order by edited_at, id`,
      [gameId],
    ),
    readHintUnlocks(pool, gameId),
  ])
  return {
    game: {
      id: game.id,
      start: game.start,
      end: game.end,
      bloodBonus: Number(game.blood_bonus),
      divisions,
      freezeTime: game.freeze,
      unfrozenAt: game.unfrozen,
      replayPublic: game.replay_public,
    },
    challenges: challenges.rows.map((c) => ({
      ...challengeScoring(c),
      isEnabled: c.is_enabled,
      deadline: c.deadline,
    })),
    teams,
    instances: held,
    solves: solves.rows.map((r) => ({ participationId: r.pid, challengeId: r.cid, submissionId: r.sid, time: r.t, userName: r.user_name, divisionId: r.division_id })),
    edits: edits.rows.map((e) => ({
      at: e.at,
      challengeId: e.challenge_id,
      originalScore: e.original_score,
      minScoreRate: e.min_score_rate === null ? null : Number(e.min_score_rate),
      difficulty: e.difficulty === null ? null : Number(e.difficulty),
      isEnabled: e.is_enabled,
      bloodBonus: e.blood_bonus === null ? null : Number(e.blood_bonus),
    })),
    unlocks,
  }
}
