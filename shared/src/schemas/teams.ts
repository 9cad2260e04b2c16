/** Teams and participations (docs/compatibility.md#team-shapes). */
import { z } from 'zod'
import { ParticipationStatus, wireEnum } from '../enums.js'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '../limits.js'
import { ProfileUserInfoModel } from './account.js'
import { intOut, keep, optionalMaxString, requiredString, typeMessage, wireBool, wireInt } from './fields.js'

export const TeamUserInfoModel = z.object({
  id: z.string(),
  userName: z.string(),
  bio: z.string(),
  avatar: z.string().nullable(),
  captain: z.boolean(),
})
export type TeamUserInfoModel = z.infer<typeof TeamUserInfoModel>

export const TeamInfoModel = z.object({
  id: intOut(),
  name: z.string().nullable(),
  bio: z.string().nullable(),
  avatar: z.string().nullable(),
  locked: z.boolean(),
  /** `null` only when embedded in WriteupInfoModel. */
  members: z.array(TeamUserInfoModel).nullable(),
})
export type TeamInfoModel = z.infer<typeof TeamInfoModel>

/**
 * Request of `POST /api/team` and `PUT /api/team/{id}`. Only the length rules are validation;
 * the create-time `队伍名不能为空` is checked by the endpoint after `不允许创建多个队伍`
 * (docs/compatibility.md#group-team), see `TEAM_NAME_EMPTY_MESSAGE`.
 */
export const TeamUpdateModel = z.object({
  name: optionalMaxString(TEAM_NAME_MAX, '队伍名称过长'),
  bio: optionalMaxString(TEAM_BIO_MAX, '队伍签名过长'),
})
export type TeamUpdateModel = z.infer<typeof TeamUpdateModel>

export const TEAM_NAME_EMPTY_MESSAGE = '队伍名不能为空'

/**
 * Body of `POST /api/team/accept`: a bare JSON string literal holding the invite code
 * (docs/compatibility.md#group-team); JSON null → `The code field is required.`.
 */
export const TeamAcceptCode = z.string({
  error: (issue) => (issue.input === undefined || issue.input === null ? 'The code field is required.' : typeMessage(issue.input, 'String')),
})
export type TeamAcceptCode = z.infer<typeof TeamAcceptCode>

export const TeamTransferModel = z.object({
  newCaptainId: requiredString('The NewCaptainId field is required.'),
})
export type TeamTransferModel = z.infer<typeof TeamTransferModel>

/** Request of `PUT /api/admin/teams/{id}`: null/empty name or bio keeps, null locked keeps. */
export const AdminTeamModel = z.object({
  name: optionalMaxString(TEAM_NAME_MAX, '队伍名称过长'),
  bio: optionalMaxString(TEAM_BIO_MAX, '队伍签名过长'),
  locked: keep(wireBool()),
})
export type AdminTeamModel = z.infer<typeof AdminTeamModel>

export const TeamModel = z.object({
  id: intOut(),
  name: z.string(),
  avatar: z.string().nullable(),
})
export type TeamModel = z.infer<typeof TeamModel>

export const TeamWithDetailedUserInfo = z.object({
  id: intOut(),
  name: z.string(),
  bio: z.string().nullable(),
  avatar: z.string().nullable(),
  locked: z.boolean(),
  captainId: z.string(),
  members: z.array(ProfileUserInfoModel).nullable(),
})
export type TeamWithDetailedUserInfo = z.infer<typeof TeamWithDetailedUserInfo>

export const ParticipationModel = z.object({
  id: intOut(),
  team: TeamModel,
  status: z.enum(ParticipationStatus),
  organization: z.string().nullable(),
})
export type ParticipationModel = z.infer<typeof ParticipationModel>

export const ParticipationInfoModel = z.object({
  id: intOut(),
  team: TeamWithDetailedUserInfo,
  registeredMembers: z.array(z.string()),
  organization: z.string().nullable(),
  status: z.enum(ParticipationStatus),
  /** GZ::CTF 1.0's `division` (the organization's name) and 1.7's `divisionId` (none yet). */
  division: z.string().nullable(),
  divisionId: intOut().nullable(),
})
export type ParticipationInfoModel = z.infer<typeof ParticipationInfoModel>

/** Request of `POST /api/team/verify` (GZ::CTF 1.x): a team token and the game's public key. */
export const SignatureVerifyModel = z.object({
  teamToken: requiredString('The TeamToken field is required.').max(256, '队伍 Token 无效'),
  publicKey: requiredString('The PublicKey field is required.').max(128, '队伍 Token 无效'),
})
export type SignatureVerifyModel = z.infer<typeof SignatureVerifyModel>

/** Request of `PUT /api/admin/participation/{id}` (GZ::CTF 1.7): absent or null members are left as they are. */
export const ParticipationEditModel = z.object({
  status: keep(wireEnum(ParticipationStatus)),
  divisionId: keep(wireInt()),
})
