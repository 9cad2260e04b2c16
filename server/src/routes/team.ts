/** Group `team` (CONTRACT §3.8): 12 endpoints. Membership changes are pushed live (DESIGN §5). */
import type { Context } from 'koa'
import { z } from 'zod'
import { TeamAcceptCode, TeamInfoModel, TeamTransferModel, TeamUpdateModel } from '@flagwave/shared/schemas/teams'
import { intParam, route } from '../http/route.js'
import { requireFile } from '../lib/uploads.js'
import { notFound } from '../lib/errors.js'
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
import { announceTeamChange, type TeamChange } from '../domain/teams/events.js'
import { requestScoreboardRebuild } from '../domain/scoreboard/hooks.js'

const idParams = z.object({ id: intParam })
const kickParams = z.object({ id: intParam, userid: z.string().min(1) })

const me = (ctx: Context) => ctx.state.user!

async function audit(ctx: Context, message: string): Promise<void> {
  await ctx.services.audit.write({ message, userName: me(ctx).userName, ip: ctx.clientIp, status: 'Success' })
}

const announce = (ctx: Context, change: TeamChange) => announceTeamChange(ctx.outbox, change)

export const teamRoutes = [
  // Literal segments before `/api/team/:id`.
  route({
    method: 'POST',
    path: '/api/team/accept',
    role: 'User',
    rateLimit: 'InviteCode',
    body: TeamAcceptCode,
    response: 'empty',
    summary: 'Join a team with an invite code (bare JSON string body)',
    handler: async (ctx, { body }) => {
      const team = await acceptInvite(ctx.em, me(ctx).id, body)
      announce(ctx, { teamId: team.id, team: presentTeamInfo(team), joined: [me(ctx).id] })
      await audit(ctx, `加入队伍 ${team.name}`)
      return undefined
    },
  }),
  route({
    method: 'GET',
    path: '/api/team',
    role: 'User',
    response: z.array(TeamInfoModel),
    summary: "The caller's teams",
    handler: async (ctx) => (await teamsOfUser(ctx.em, me(ctx).id)).map(presentTeamInfo),
  }),
  route({
    method: 'POST',
    path: '/api/team',
    role: 'User',
    rateLimit: 'Concurrency',
    body: TeamUpdateModel,
    response: TeamInfoModel,
    summary: 'Create a team; the caller becomes its captain',
    handler: async (ctx, { body }) => {
      const team = await createTeam(ctx.em, me(ctx).id, body)
      const info = presentTeamInfo(team)
      announce(ctx, { teamId: team.id, team: info, joined: [me(ctx).id] })
      await audit(ctx, `创建队伍 ${team.name}`)
      return info
    },
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
    handler: async (ctx, { params, body }) => {
      const team = await updateTeam(ctx.em, me(ctx).id, params.id, body)
      const info = presentTeamInfo(team)
      announce(ctx, { teamId: team.id, team: info })
      await audit(ctx, `更新队伍信息 ${team.name}`)
      return info
    },
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/transfer',
    role: 'User',
    params: idParams,
    body: TeamTransferModel,
    response: TeamInfoModel,
    summary: 'Hand the captaincy to another user (captain)',
    handler: async (ctx, { params, body }) => {
      const { team, newCaptain } = await transferTeam(ctx.em, me(ctx).id, params.id, body.newCaptainId)
      const info = presentTeamInfo(team)
      announce(ctx, { teamId: team.id, team: info })
      await audit(ctx, `转移队伍 ${team.name} 给 ${newCaptain.userName}`)
      return info
    },
  }),
  route({
    method: 'GET',
    path: '/api/team/:id/invite',
    role: 'User',
    params: idParams,
    response: z.string(),
    summary: 'The invite code (captain)',
    handler: async (ctx, { params }) => inviteCode(await teamForInvite(ctx.em, me(ctx).id, params.id, false)),
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/invite',
    role: 'User',
    params: idParams,
    response: z.string(),
    summary: 'Regenerate the invite code (captain)',
    handler: async (ctx, { params }) => inviteCode(await teamForInvite(ctx.em, me(ctx).id, params.id, true)),
  }),
  route({
    method: 'POST',
    path: '/api/team/:id/kick/:userid',
    role: 'User',
    params: kickParams,
    response: TeamInfoModel,
    summary: 'Remove a member and their registrations for this team (captain)',
    handler: async (ctx, { params }) => {
      const { team, kicked } = await kickMember(ctx.em, me(ctx).id, params.id, params.userid)
      const info = presentTeamInfo(team)
      announce(ctx, { teamId: team.id, team: info, left: [kicked.id] })
      await audit(ctx, `从队伍 ${team.name} 踢除 ${kicked.userName}`)
      return info
    },
  }),
  route({
    method: 'POST',
    path: '/api/team/:id/leave',
    role: 'User',
    params: idParams,
    response: 'empty',
    summary: 'Leave a team',
    handler: async (ctx, { params }) => {
      const team = await leaveTeam(ctx.em, me(ctx).id, params.id)
      announce(ctx, { teamId: team.id, team: presentTeamInfo(team), left: [me(ctx).id] })
      await audit(ctx, `离开队伍 ${team.name}`)
      return undefined
    },
  }),
  route({
    method: 'PUT',
    path: '/api/team/:id/avatar',
    role: 'User',
    params: idParams,
    body: 'multipart',
    response: z.string(),
    summary: 'Upload the team avatar (captain)',
    handler: async (ctx, { params, files }) => {
      const file = requireFile(files)
      const { team, url } = await setTeamAvatar(ctx.em, ctx.services.storage, me(ctx).id, params.id, file)
      announce(ctx, { teamId: team.id, team: presentTeamInfo(team) })
      await audit(ctx, `更新队伍 ${team.name} 的头像：[${team.avatarHash?.slice(0, 8)}]`)
      return url
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/team/:id',
    role: 'User',
    params: idParams,
    response: 'empty',
    summary: 'Delete the team (captain)',
    handler: async (ctx, { params }) => {
      const { team, members, gameIds } = await deleteTeam(ctx.em, ctx.services.storage, me(ctx).id, params.id)
      announce(ctx, { teamId: params.id, team: null, left: members })
      for (const gameId of gameIds) await requestScoreboardRebuild(ctx.services, gameId)
      await audit(ctx, `删除队伍 ${team.name}`)
      return undefined
    },
  }),
]
