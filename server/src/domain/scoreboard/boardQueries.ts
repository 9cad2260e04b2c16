/**
 * The reads the live board (load.ts) and a replay (replay/data.ts) share: a game's divisions, its
 * accepted teams, the challenges each holds, and its costed hint unlocks. Times travel as epoch
 * milliseconds to keep row parsing cheap.
 */
import type pg from 'pg'
import type { ChallengeConfig } from '@flagwave/shared/divisions'
import type { ChallengeTag } from '@flagwave/shared/enums'
import type { DivisionMeta, HintUnlockData, TeamData } from './engine.js'

export async function readDivisions(pool: pg.Pool, gameId: number): Promise<DivisionMeta[]> {
  const { rows } = await pool.query<{ id: number; name: string; default_permissions: number; challenge_configs: ChallengeConfig[] }>(
    `select id, name, default_permissions, challenge_configs from divisions where game_id = $1 order by id`,
    [gameId],
  )
  return rows.map((d) => ({ id: d.id, name: d.name, defaultPermissions: d.default_permissions, challengeConfigs: d.challenge_configs }))
}

/** The accepted participations, as the board shows them. */
export async function readBoardTeams(pool: pg.Pool, gameId: number): Promise<TeamData[]> {
  const { rows } = await pool.query<{ pid: number; team_id: number; name: string; bio: string | null; avatar_hash: string | null; division_id: number | null }>(
    `select p.id as pid, p.team_id, t.name, t.bio, t.avatar_hash, p.division_id
       from participations p join teams t on t.id = p.team_id
      where p.game_id = $1 and p.status = 'Accepted'`,
    [gameId],
  )
  return rows.map((t) => ({ participationId: t.pid, teamId: t.team_id, name: t.name, bio: t.bio, avatarHash: t.avatar_hash, divisionId: t.division_id }))
}

/** Participation id → the challenges it holds an instance of (only enabled ones with `enabledOnly`). */
export async function readHeldChallenges(pool: pg.Pool, gameId: number, enabledOnly: boolean): Promise<Map<number, number[]>> {
  const { rows } = await pool.query<{ pid: number; cids: string }>(
    `select i.participation_id as pid, string_agg(i.challenge_id::text, ',') as cids
       from instances i
       join participations p on p.id = i.participation_id
       join challenges c on c.id = i.challenge_id
      where p.game_id = $1 and p.status = 'Accepted' and c.game_id = $1 ${enabledOnly ? 'and c.is_enabled' : ''}
      group by i.participation_id`,
    [gameId],
  )
  return new Map(rows.map((row) => [row.pid, row.cids.split(',').map(Number)]))
}

/** The costed hint unlocks (append-only, docs/challenge-rules.md#costed-hints), time order. */
export async function readHintUnlocks(pool: pg.Pool, gameId: number): Promise<HintUnlockData[]> {
  const { rows } = await pool.query<{ id: number; pid: number; cid: number; t: number; cost: number }>(
    `select id, participation_id as pid, challenge_id as cid, floor(extract(epoch from unlocked_at) * 1000)::float8 as t, cost
       from hint_unlocks where game_id = $1 order by unlocked_at, id`,
    [gameId],
  )
  return rows.map((u) => ({ unlockId: u.id, participationId: u.pid, challengeId: u.cid, time: u.t, cost: u.cost }))
}

/** A challenge row's columns the board and a replay both read. */
export interface ChallengeScoringRow {
  id: number
  title: string
  tag: ChallengeTag
  original_score: number
  min_score_rate: number
  difficulty: number
}

/** Those columns as the engine takes them (numeric columns arrive as text). */
export const challengeScoring = (c: ChallengeScoringRow) => ({
  id: c.id,
  title: c.title,
  tag: c.tag,
  originalScore: c.original_score,
  minScoreRate: Number(c.min_score_rate),
  difficulty: Number(c.difficulty),
})
