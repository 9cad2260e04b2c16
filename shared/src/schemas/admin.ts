/** Administration helpers (CONTRACT §4.11). */
import { z } from 'zod'
import { ChallengeTag, ChallengeType } from '../enums.js'
import { ChallengeModel } from './challenges.js'
import { intOut, wireDateOut } from './fields.js'
import { TeamModel } from './teams.js'

export const ContainerInstanceModel = z.object({
  team: TeamModel.nullable(),
  challenge: ChallengeModel.nullable(),
  image: z.string(),
  containerGuid: z.string(),
  containerId: z.string(),
  startedAt: wireDateOut(),
  expectStopAt: wireDateOut(),
  ip: z.string(),
  port: intOut(),
})
export type ContainerInstanceModel = z.infer<typeof ContainerInstanceModel>

/**
 * A log line. `level` and `status` are plain strings on the wire (a LogLevel name and a
 * TaskStatus name or null/empty), not validated enums (CONTRACT §5.14).
 */
export const LogMessageModel = z.object({
  time: wireDateOut(),
  name: z.string().nullable(),
  level: z.string().nullable(),
  ip: z.string().nullable(),
  msg: z.string().nullable(),
  status: z.string().nullable(),
})
export type LogMessageModel = z.infer<typeof LogMessageModel>

export const LocalFile = z.object({
  hash: z.string(),
  name: z.string(),
})
export type LocalFile = z.infer<typeof LocalFile>

export const FileRecord = z.object({
  fileName: z.string(),
  size: intOut(),
  updateTime: wireDateOut(),
})
export type FileRecord = z.infer<typeof FileRecord>

export const ChallengeTrafficModel = z.object({
  id: intOut(),
  title: z.string(),
  tag: z.enum(ChallengeTag),
  type: z.enum(ChallengeType),
  isEnabled: z.boolean(),
  count: intOut(),
})
export type ChallengeTrafficModel = z.infer<typeof ChallengeTrafficModel>

export const TeamTrafficModel = z.object({
  id: intOut(),
  teamId: intOut(),
  name: z.string().nullable(),
  organization: z.string().nullable(),
  avatar: z.string().nullable(),
  count: intOut(),
})
export type TeamTrafficModel = z.infer<typeof TeamTrafficModel>
