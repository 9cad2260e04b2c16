/** Playing a game (docs/compatibility.md#play-shapes). */
import { z } from 'zod'
import { AnswerResult, ChallengeTag, ChallengeType } from '../enums.js'
import { SUBMIT_FLAG_MAX } from '../limits.js'
import { intOut, requiredString, wireDateOut } from './fields.js'
import { ParticipationModel, TeamInfoModel } from './teams.js'
import { CostedHintState } from './challengeRules.js'

export const ClientFlagContext = z.object({
  closeTime: wireDateOut().nullable(),
  instanceEntry: z.string().nullable(),
  url: z.string().nullable(),
  fileSize: intOut().nullable(),
})
export type ClientFlagContext = z.infer<typeof ClientFlagContext>

export const ChallengeDetailModel = z.object({
  id: intOut(),
  title: z.string(),
  content: z.string(),
  tag: z.enum(ChallengeTag),
  hints: z.array(z.string()).nullable(),
  score: intOut(),
  type: z.enum(ChallengeType),
  context: ClientFlagContext,
  /** Newer members: `category` = `tag` (GZ::CTF 0.25), attempt `limit` (0 = none) and `attempts` (1.6), `deadline` (1.7). */
  category: z.enum(ChallengeTag),
  limit: intOut(),
  attempts: intOut(),
  deadline: wireDateOut().nullable(),
  /** Flagwave: every costed hint with its cost and whether the team unlocked it (docs/challenge-rules.md#costed-hints). */
  costedHints: z.array(CostedHintState),
})
export type ChallengeDetailModel = z.infer<typeof ChallengeDetailModel>

/**
 * Request of `POST /api/game/{id}/challenges/{challengeId}`. The length rule applies to the raw
 * text; the parsed `flag` is trimmed (the stored and compared answer).
 */
export const FlagSubmitModel = z.object({
  flag: requiredString('flag 是必需的')
    .max(SUBMIT_FLAG_MAX, 'flag 过长')
    .transform((s) => s.trim()),
})
export type FlagSubmitModel = z.infer<typeof FlagSubmitModel>

export const Submission = z.object({
  answer: z.string(),
  status: z.enum(AnswerResult),
  time: wireDateOut(),
  user: z.string(),
  team: z.string(),
  challenge: z.string(),
})
export type Submission = z.infer<typeof Submission>

export const CheatInfoModel = z.object({
  ownedTeam: ParticipationModel,
  submitTeam: ParticipationModel,
  submission: Submission,
})
export type CheatInfoModel = z.infer<typeof CheatInfoModel>

export const BasicWriteupInfoModel = z.object({
  submitted: z.boolean(),
  name: z.string(),
  fileSize: intOut(),
  note: z.string(),
})
export type BasicWriteupInfoModel = z.infer<typeof BasicWriteupInfoModel>

export const WriteupInfoModel = z.object({
  id: intOut(),
  team: TeamInfoModel,
  url: z.string(),
  uploadTimeUTC: wireDateOut(),
  /** GZ::CTF 0.18's name, same value. */
  uploadTimeUtc: wireDateOut(),
})
export type WriteupInfoModel = z.infer<typeof WriteupInfoModel>

/** `GET /api/admin/writeups/{id}` of GZ::CTF 1.8 (under the opt-in): division names by id, and the list. */
export const WriteupsOfDivisions = z.object({
  divisions: z.record(z.string(), z.string()),
  writeups: z.array(WriteupInfoModel),
})
