/**
 * What a replay reads of one game, once (docs/scoring.md#replay): the game as it is now, every
 * challenge (enabled or not) with the instances that hold it, the accepted teams, every
 * participation's first counted solve (any status: the dynamic score counts them all) in time
 * order, the costed hint unlocks in time order, and the recorded score-changing edits. `load.ts` reads the live board's inputs; this
 * reads the whole history instead.
 */
import type pg from 'pg'
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import type { GameMeta, HintUnlockData, TeamData } from '../engine.js'

export interface ReplayChallenge {
  id: number
  title: string
  tag: ChallengeTag
  originalScore: number
  minScoreRate: number
  difficulty: number
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
export interface ReplayEdit {
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
  const [divisions, challenges, teams, instances, solves, edits, unlocks] = await Promise.all([
    pool.query<{ id: number; name: string; default_permissions: number; challenge_configs: ChallengeConfig[] }>(
      `select id, name, default_permissions, challenge_configs from divisions where game_id = $1 order by id`,
      [gameId],
    ),
    pool.query<{ id: number; title: string; tag: ChallengeTag; original_score: number; min_score_rate: number; difficulty: number; is_enabled: boolean; deadline: number | null }>(
      `select id, title, tag, original_score, min_score_rate, difficulty, is_enabled, ${ms('deadline_utc')} as deadline from challenges where game_id = $1`,
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
         from instances i join participations p on p.id = i.participation_id
        where p.game_id = $1 and p.status = 'Accepted'
        group by i.participation_id`,
      [gameId],
    ),
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
    pool.query<{ id: number; pid: number; cid: number; t: number; cost: number }>(
      `select id, participation_id as pid, challenge_id as cid, ${ms('unlocked_at')} as t, cost from hint_unlocks where game_id = $1 order by unlocked_at, id`,
      [gameId],
    ),
  ])
  const held = new Map<number, number[]>()
  for (const row of instances.rows) held.set(row.pid, row.cids.split(',').map(Number))
  return {
    game: {
      id: game.id,
      start: game.start,
      end: game.end,
      bloodBonus: Number(game.blood_bonus),
      divisions: divisions.rows.map((d) => ({ id: d.id, name: d.name, defaultPermissions: d.default_permissions, challengeConfigs: d.challenge_configs })),
      freezeTime: game.freeze,
      unfrozenAt: game.unfrozen,
      replayPublic: game.replay_public,
    },
    challenges: challenges.rows.map((c) => ({
      id: c.id,
      title: c.title,
      tag: c.tag,
      originalScore: c.original_score,
      minScoreRate: Number(c.min_score_rate),
      difficulty: Number(c.difficulty),
      isEnabled: c.is_enabled,
      deadline: c.deadline,
    })),
    teams: teams.rows.map((t) => ({ participationId: t.pid, teamId: t.team_id, name: t.name, bio: t.bio, avatarHash: t.avatar_hash, divisionId: t.division_id })),
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
    unlocks: unlocks.rows.map((u) => ({ unlockId: u.id, participationId: u.pid, challengeId: u.cid, time: u.t, cost: u.cost })),
  }
}
