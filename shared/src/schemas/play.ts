/** Playing a game (docs/compatibility.md#play-shapes). */
import { z } from 'zod'
import { AnswerResult, ChallengeTag, ChallengeType } from '../enums.js'
import { SUBMIT_FLAG_MAX } from '../limits.js'
import { intOut, requiredString, wireDateOut } from './fields.js'
import { ParticipationModel, TeamInfoModel } from './teams.js'

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
})
export type WriteupInfoModel = z.infer<typeof WriteupInfoModel>
