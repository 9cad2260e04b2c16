/** Group `team` (docs/compatibility.md#group-team): 12 endpoints. Membership changes are pushed live (docs/realtime.md#room-moves). */
import { z } from 'zod'
import { SignatureVerifyModel, TeamAcceptCode, TeamInfoModel, TeamTransferModel, TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { BODY_LIMITS } from '@flagwave/shared/limits'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { badRequest, notFound, unauthorized } from '../lib/errors.js'
import { presentTeamInfo } from '../presenters/teams.js'
import {
  acceptInvite,
  createTeam,
  deleteTeam,
  findTeam,
  kickMember,
  leaveTeam,
  setTeamAvatar,
  teamForInvite,
  teamsOfUser,
  transferTeam,
  updateTeam,
} from '../domain/teams/teams.js'
import { inviteCode } from '../domain/teams/inviteCode.js'
import { verifyTeamToken } from '../domain/games/keys.js'

const idParams = z.object({ id: intParam })
const kickParams = z.object({ id: intParam, userid: z.string().min(1) })

export const teamRoutes = [
  // Literal segments before `/api/team/:id`.
  route({
    method: 'POST',
    path: '/api/team/verify',
    body: SignatureVerifyModel,
    response: 'empty',
    summary: "GZ::CTF 1.x: check a team token against a game's public key (200, 400 malformed, 401 wrong signature)",
    handler: async (_ctx, { body }) => {
      const valid = verifyTeamToken(body.teamToken, body.publicKey)
      if (valid === null) throw badRequest('队伍 Token 无效')
      if (!valid) throw unauthorized('签名无效')
    },
  }),
  route({
    method: 'POST',
    path: '/api/team/accept',
    role: 'User',
    rateLimit: 'InviteCode',
    body: TeamAcceptCode,
    response: 'empty',
    summary: 'Join a team with an invite code (bare JSON string body)',
    handler: async (_ctx, { scope, actor, body }) => {
      await acceptInvite(scope, actor, body)
    },
  }),
  route({
    method: 'GET',
    path: '/api/team',
    role: 'User',
    response: z.array(TeamInfoModel),
    summary: "The caller's teams",
    handler: async (ctx, { actor }) => (await teamsOfUser(ctx.em, actor.user.id)).map(presentTeamInfo),
  }),
  route({
    method: 'POST',
    path: '/api/team',
    role: 'User',
    rateLimit: 'Concurrency',
    body: TeamUpdateModel,
    response: TeamInfoModel,
    summary: 'Create a team; the caller becomes its captain',
    handler: async (_ctx, { scope, actor, body }) => presentTeamInfo(await createTeam(scope, actor, body)),
  }),
  route({
    method: 'GET',
    path: '/api/team/:id',
    params: idParams,
    response: TeamInfoModel,
    summary: 'A team with its members',
    handler: async (ctx, { params }) => {
      const team = await findTeam(ctx.em, params.id)
      if (!team) throw notFound('队伍不存在')
      return presentTeamInfo(team)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id',
    role: 'User',
    params: idParams,
    body: TeamUpdateModel,
    response: TeamInfoModel,
    summary: 'Update name and bio (captain)',
    handler: async (_ctx, { scope, actor, params, body }) => presentTeamInfo(await updateTeam(scope, actor, params.id, body)),
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/transfer',
    role: 'User',
    params: idParams,
    body: TeamTransferModel,
    response: TeamInfoModel,
    summary: 'Hand the captaincy to another user (captain)',
    handler: async (_ctx, { scope, actor, params, body }) => presentTeamInfo(await transferTeam(scope, actor, params.id, body.newCaptainId)),
  }),
  route({
    method: 'GET',
    path: '/api/team/:id/invite',
    role: 'User',
    params: idParams,
    response: z.string(),
    summary: 'The invite code (captain)',
    handler: async (_ctx, { scope, actor, params }) => inviteCode(await teamForInvite(scope, actor, params.id, false)),
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/invite',
    role: 'User',
    params: idParams,
    response: z.string(),
    summary: 'Regenerate the invite code (captain)',
    handler: async (_ctx, { scope, actor, params }) => inviteCode(await teamForInvite(scope, actor, params.id, true)),
  }),
  route({
    method: 'POST',
    path: '/api/team/:id/kick/:userid',
    role: 'User',
    params: kickParams,
    response: TeamInfoModel,
    summary: 'Remove a member and their registrations for this team (captain)',
    handler: async (_ctx, { scope, actor, params }) => presentTeamInfo(await kickMember(scope, actor, params.id, params.userid)),
  }),
  route({
    method: 'POST',
    path: '/api/team/:id/leave',
    role: 'User',
    params: idParams,
    response: 'empty',
    summary: 'Leave a team',
    handler: async (_ctx, { scope, actor, params }) => {
      await leaveTeam(scope, actor, params.id)
    },
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/avatar',
    role: 'User',
    params: idParams,
    body: 'multipart',
    bodyLimit: BODY_LIMITS.image,
    response: z.string(),
    summary: 'Upload the team avatar (captain)',
    handler: async (_ctx, { scope, actor, params, files }) => (await setTeamAvatar(scope, actor, params.id, requireFile(files))).url,
  }),
  route({
    method: 'DELETE',
    path: '/api/team/:id',
    role: 'User',
    params: idParams,
    response: 'empty',
    summary: 'Delete the team (captain)',
    handler: async (_ctx, { scope, actor, params }) => {
      await deleteTeam(scope, actor, params.id)
    },
  }),
]
