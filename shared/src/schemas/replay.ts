/** Replay and staged-reveal shapes (docs/scoring.md#replay, #staged-reveal). */
import { z } from 'zod'
import { intOut, wireDateOut } from './fields.js'
import { ScoreboardModel } from './scoreboard.js'

const AT_UNREADABLE = '无效的回放时间'

/** `?at=`: ISO 8601 with an offset, or Unix milliseconds. */
const ReplayAt = z
  .string()
  .max(40, AT_UNREADABLE)
  .refine((v) => (/^-?\d{1,16}$/.test(v) ? Math.abs(Number(v)) <= 8.64e15 : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))), AT_UNREADABLE)
  .transform((v) => new Date(/^-?\d+$/.test(v) ? Number(v) : v))

/**
 * The scoreboard's query: `at` asks for the replayed board; `view=live` the live board for monitors
 * and admins during a freeze (docs/scoring.md#freeze) — any other value or caller reads the public board.
 */
export const ScoreboardQuery = z.object({ at: ReplayAt.optional(), view: z.unknown().optional() })

/**
 * One step of a reveal: one pending cell of a team opened (docs/scoring.md#staged-reveal). A cell is
 * pending when the team submitted to it after the freeze, right or wrong; opened, it turns solved or
 * resolves to not solved.
 */
export const RevealStep = z.object({
  /** The team whose cells opened (null: only solves of teams not on the board, folded into the last step). */
  teamId: intOut().nullable(),
  name: z.string().nullable(),
  /** 1-based places on the board before and after the step. */
  fromPlace: intOut(),
  toPlace: intOut(),
  fromScore: intOut(),
  toScore: intOut(),
  /** The challenges of the opened cells, those of them the team solved (the others resolved to not solved), and those that are bloods. */
  challenges: z.array(intOut()),
  solved: z.array(intOut()),
  bloods: z.array(intOut()),
})
export type RevealStep = z.infer<typeof RevealStep>

/** A team's cells still hidden at the current step (submitted to after the freeze, right or wrong), in the order they will open. */
export const RevealPending = z.object({ teamId: intOut(), challenges: z.array(intOut()) })
export type RevealPending = z.infer<typeof RevealPending>

/** The shared state of a game's reveal (`GET /api/game/{id}/reveal`, pushed as `ReceivedRevealUpdate`). */
export const RevealState = z.object({
  gameId: intOut(),
  /** A reveal is open (and not finished). */
  open: z.boolean(),
  finished: z.boolean(),
  /** Steps shown (0 = the frozen board) and the number of steps. */
  step: intOut(),
  steps: intOut(),
  /** Auto-play interval in milliseconds, null when paused. */
  autoMs: intOut().nullable(),
  freezeTime: wireDateOut().nullable(),
  /** The step that led to this board (null at step 0). */
  last: RevealStep.nullable(),
  pending: z.array(RevealPending),
  /** The board at this step (null when no reveal is open). */
  board: ScoreboardModel.nullable(),
})
export type RevealState = z.infer<typeof RevealState>

/** `PUT /api/edit/games/{id}/reveal/auto`: steps every `intervalMs` (250 ms – 60 s), null pauses. */
const INTERVAL_INVALID = '自动播放间隔无效'
export const RevealAutoModel = z.object({
  intervalMs: z.number({ error: INTERVAL_INVALID }).int(INTERVAL_INVALID).min(250, INTERVAL_INVALID).max(60_000, INTERVAL_INVALID).nullable(),
})
export type RevealAutoModel = z.infer<typeof RevealAutoModel>
