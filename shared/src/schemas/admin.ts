/** Administration helpers (docs/compatibility.md#administration-shapes). */
import { z } from 'zod'
import { ChallengeTag, ChallengeType } from '../enums.js'
import { ChallengeModel } from './challenges.js'
import { intOut, wireDateOut } from './fields.js'
import { ADMIN_LOG_MAX, queryInt } from './common.js'
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
 * TaskStatus name or null/empty), not validated enums (docs/compatibility.md#enums).
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

/** A paging integer that must not be negative (the reference passes negatives to the database, docs/compatibility.md#lists-and-paging). */
const nonNegative = (name: string, fallback: number) =>
  queryInt(name, fallback).pipe(z.number().min(0, `The field ${name} must not be negative.`))

/** `GET /api/admin/logs` query: `level` = `All`, absent or empty disables the filter. */
export const LogsQuery = z.object({
  level: z
    .union([z.string(), z.array(z.string())])
    .nullish()
    .transform((raw) => {
      const value = Array.isArray(raw) ? raw[0] : raw
      return value === undefined || value === null || value === '' || value === 'All' ? null : value
    }),
  count: nonNegative('count', 50).transform((count) => Math.min(count, ADMIN_LOG_MAX)),
  skip: nonNegative('skip', 0),
})
export type LogsQuery = z.infer<typeof LogsQuery>

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
  /** GZ::CTF 0.25's name of `tag`. */
  category: z.enum(ChallengeTag),
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

/** `GET /api/edit/containers/provider` (Flagwave): the container engine configured, `none` when containers cannot start. */
export const ContainerProviderModel = z.object({
  provider: z.enum(['docker', 'kubernetes', 'none']),
})
export type ContainerProviderModel = z.infer<typeof ContainerProviderModel>
