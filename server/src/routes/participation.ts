/**
 * Admin endpoints about participations (docs/compatibility.md#group-admin): the review decision and the
 * write-ups of a game (list, and all of them as one zip streamed while it is built).
 */
import { z } from 'zod'
import { ParticipationStatus, wireEnum } from '@flagwave/shared/enums'
import { WriteupInfoModel, WriteupsOfDivisions } from '@flagwave/shared/schemas/play'
import { ParticipationEditModel } from '@flagwave/shared/schemas/teams'
import { wantsNewerForms } from '../http/compat.js'
import { intParam, route } from '../http/route.js'
import { badRequest } from '../lib/errors.js'
import { editParticipation, setParticipationStatus } from '../domain/participations/review.js'
import { uploadedWriteups, writeupArchive } from '../domain/writeups/writeups.js'
import { sendDownload } from './gameMonitor.js'
import { presentWriteupInfo } from '../presenters/writeups.js'

const StatusInput = wireEnum(ParticipationStatus)

export const participationRoutes = [
  route({
    method: 'PUT',
    path: '/api/admin/participation/:id/:status',
    response: 'empty',
    role: 'Admin',
    params: z.object({ id: intParam, status: z.string() }),
    summary: 'Set a participation status (Accepted locks the team and creates its instances)',
    handler: async (_ctx, { params, actor, scope }) => {
      const status = StatusInput.safeParse(params.status)
      if (!status.success) throw badRequest(`The value '${params.status}' is not valid.`)
      await setParticipationStatus(scope, actor, params.id, status.data)
      return undefined
    },
  }),
  route({
    method: 'PUT',
    path: '/api/admin/participation/:id',
    response: 'empty',
    role: 'Admin',
    params: z.object({ id: intParam }),
    body: ParticipationEditModel,
    summary: 'GZ::CTF 1.7: change a participation ({status?, divisionId?}): move it to another division of its game, set its status',
    handler: async (_ctx, { params, body, actor, scope }) => {
      await editParticipation(scope, actor, params.id, body)
      return undefined
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/writeups/:id',
    response: z.union([z.array(WriteupInfoModel), WriteupsOfDivisions]),
    role: 'Admin',
    params: z.object({ id: intParam }),
    summary: 'Uploaded write-ups of a game, newest first (WriteupInfoModel[]); under X-GZCTF-Compat, the 1.8 {divisions, writeups}',
    handler: async (ctx, { params, scope }) => {
      const writeups = (await uploadedWriteups(scope.em, params.id)).rows.map((r) => presentWriteupInfo(r.participation, r.file))
      return wantsNewerForms(ctx) ? { divisions: {}, writeups } : writeups
    },
  }),
  route({
    method: 'GET',
    path: '/api/admin/writeups/:id/all',
    response: 'file:application/zip',
    role: 'Admin',
    params: z.object({ id: intParam }),
    summary: 'Every write-up of a game as one zip',
    handler: async (ctx, { params, scope }) => sendDownload(ctx, await writeupArchive(scope.em, scope.services, params.id), 'application/zip'),
  }),
]
