/**
 * The frozen board's version, kept in the database beside the game (docs/scoring.md#freeze): a node
 * that builds the frozen board again — after a restart, or taking the game over — keeps the version
 * it finds when the board it builds is the one recorded, so the frozen board's ETag and version
 * stand still through the freeze with or without Redis. The record names the freeze time and a
 * digest of the board's JSON: a board that shows anything else gets a new version.
 */
import { createHash } from 'node:crypto'
import type pg from 'pg'

export interface FrozenVersion {
  version: number
  digest: string
}

export const boardDigest = (json: string): string => createHash('sha256').update(json).digest('base64url')

/** The version recorded for the game's board frozen at `at` (epoch ms), if any. */
export async function readFrozenVersion(pool: pg.Pool, gameId: number, at: number): Promise<FrozenVersion | null> {
  const { rows } = await pool.query<{ version: string; digest: string }>({
    name: 'flagwave-frozen-board-read',
    text: `select version, digest from frozen_boards where game_id = $1 and freeze_at = to_timestamp($2::float8 / 1000)`,
    values: [gameId, at],
  })
  return rows[0] ? { version: Number(rows[0].version), digest: rows[0].digest } : null
}

/** Record the version of the game's board frozen at `at`. */
export async function writeFrozenVersion(pool: pg.Pool, gameId: number, at: number, frozen: FrozenVersion): Promise<void> {
  await pool.query({
    name: 'flagwave-frozen-board-write',
    text: `insert into frozen_boards (game_id, freeze_at, version, digest) values ($1, to_timestamp($2::float8 / 1000), $3, $4)
           on conflict (game_id) do update set freeze_at = excluded.freeze_at, version = excluded.version, digest = excluded.digest`,
    values: [gameId, at, frozen.version, frozen.digest],
  })
}
