/**
 * The `flagwave_solves` channel: counted solves travel from the checker that settled them to the
 * node that owns the game's scoreboard as a NOTIFY sent inside the settling transaction, so they
 * are delivered only once it has committed. Payloads stay small with a positional encoding.
 * Costed hint unlocks travel the same way, from the unlocking request's transaction (`h`).
 */
import type { HintUnlockData, SolveData } from './engine.js'

export const SOLVE_CHANNEL = 'flagwave_solves'

/** The compact form of counted solves on the `flagwave_solves` channel. */
export interface SolveMessage {
  g: number
  /** [participationId, challengeId, submissionId, time, acceptedCount, board 0|1, userName] */
  s: [number, number, number, number, number, number, string | null][]
  /** [unlockId, participationId, challengeId, time, cost] (docs/challenge-rules.md#costed-hints). */
  h?: [number, number, number, number, number][]
}

/** The NOTIFY payload of one hint unlock. */
export const hintUnlockMessage = (gameId: number, u: HintUnlockData): string =>
  JSON.stringify({ g: gameId, s: [], h: [[u.unlockId, u.participationId, u.challengeId, u.time, u.cost]] } satisfies SolveMessage)

export const encodeSolve = (s: SolveData): SolveMessage['s'][number] => [
  s.participationId,
  s.challengeId,
  s.submissionId,
  s.time,
  s.acceptedCount ?? 0,
  s.board ? 1 : 0,
  s.userName,
]

const decodeSolve = (s: SolveMessage['s'][number]): SolveData => ({
  participationId: s[0],
  challengeId: s[1],
  submissionId: s[2],
  time: s[3],
  acceptedCount: s[4] || undefined,
  board: s[5] === 1,
  userName: s[6],
})

/** The game and solves of a payload, or null when it is not one of ours. */
export function parseSolveMessage(payload: string): { gameId: number; solves: SolveData[]; unlocks: HintUnlockData[] } | null {
  let message: SolveMessage
  try {
    message = JSON.parse(payload) as SolveMessage
  } catch {
    return null
  }
  const unlocks = (message.h ?? []).map(([unlockId, participationId, challengeId, time, cost]) => ({ unlockId, participationId, challengeId, time, cost }))
  return { gameId: message.g, solves: message.s.map(decodeSolve), unlocks }
}
