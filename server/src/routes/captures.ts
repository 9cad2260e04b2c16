/**
 * Group `game`, traffic captures for monitors (docs/compatibility.md#group-game-monitors). The literal `all`
 * segment is declared before `{filename}` so it takes precedence.
 */
import { z } from 'zod'
import { intParam, RAW, route } from '../http/route.js'
import { ChallengeTrafficModel, FileRecord, TeamTrafficModel } from '@flagwave/shared/schemas/admin'
import { captureArchive, captureFile, challengeCaptures, deleteAllCaptures, deleteCapture, gameCaptures, teamCaptures } from '../domain/containers/captures.js'
import { presentChallengeTraffic, presentFileRecord, presentTeamTraffic } from '../presenters/containers.js'
import type { Team } from '../entities/Team.js'
import type { Division } from '../entities/Division.js'
import { sendDownload } from './gameMonitor.js'
import { sendBytes } from '../http/ranges.js'

const TeamCaptureParams = z.object({ challengeId: intParam, partId: intParam })

export const captureRoutes = [
  route({
    method: 'GET',
    path: '/api/game/games/:id/captures',
    role: 'Monitor',
    params: z.object({ id: intParam }),
    response: z.array(ChallengeTrafficModel),
    summary: 'Challenges with traffic capture enabled (ChallengeTrafficModel[])',
    handler: async (_ctx, { params, scope }) =>
      (await gameCaptures(scope.em, scope.services, params.id)).map(({ challenge, count }) => presentChallengeTraffic(challenge, count)),
  }),
  route({
    method: 'GET',
    path: '/api/game/captures/:challengeId',
    role: 'Monitor',
    params: z.object({ challengeId: intParam }),
    response: z.array(TeamTrafficModel),
    summary: 'Teams with captured traffic for a challenge (TeamTrafficModel[])',
    handler: async (_ctx, { params, scope }) =>
      (await challengeCaptures(scope.em, scope.services, params.challengeId)).map(({ participation, count }) =>
        presentTeamTraffic(participation.id, participation.team as Team, (participation.division as Division | null)?.name ?? null, count),
      ),
  }),
  route({
    method: 'GET',
    path: '/api/game/captures/:challengeId/:partId',
    role: 'Monitor',
    params: TeamCaptureParams,
    response: z.array(FileRecord),
    summary: "A team's capture files for a challenge (FileRecord[])",
    handler: async (_ctx, { params, scope }) =>
      (await teamCaptures(scope.services, params.challengeId, params.partId)).map((f) => presentFileRecord(f.name, f.size, f.modified)),
  }),
  route({
    method: 'GET',
    path: '/api/game/captures/:challengeId/:partId/all',
    role: 'Monitor',
    params: TeamCaptureParams,
    response: 'file:application/zip',
    summary: "All of a team's capture files as a zip",
    handler: async (ctx, { params, scope }) => {
      return sendDownload(ctx, await captureArchive(scope.services, params.challengeId, params.partId), 'application/zip')
    },
  }),
  route({
    method: 'GET',
    path: '/api/game/captures/:challengeId/:partId/:filename',
    role: 'Monitor',
    params: z.object({ challengeId: intParam, partId: intParam, filename: z.string() }),
    response: 'file:application/octet-stream',
    summary: 'One capture file (pcap); single byte ranges are honoured',
    handler: async (ctx, { params, scope }) => {
      const { ref, file } = await captureFile(scope.services, params.challengeId, params.partId, params.filename)
      ctx.status = 200
      ctx.attachment(file.name)
      ctx.type = 'application/octet-stream'
      ctx.set('Last-Modified', file.modified.toUTCString())
      await sendBytes(ctx, { size: file.size, mtime: file.modified, open: (range) => scope.services.captures.open(ref, range) })
      return RAW
    },
  }),
  // Capture deletion (GZ::CTF 1.0, docs/compatibility.md#newer-gzctf-versions); `all` before `{filename}` as above.
  route({
    method: 'DELETE',
    path: '/api/game/captures/:challengeId/:partId/all',
    role: 'Monitor',
    params: TeamCaptureParams,
    response: 'empty',
    summary: "Delete all of a team's capture files for a challenge",
    handler: async (_ctx, { params, actor, scope }) => {
      await deleteAllCaptures(scope, actor, params.challengeId, params.partId)
      return undefined
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/game/captures/:challengeId/:partId/:filename',
    role: 'Monitor',
    params: z.object({ challengeId: intParam, partId: intParam, filename: z.string() }),
    response: 'empty',
    summary: 'Delete one capture file',
    handler: async (_ctx, { params, actor, scope }) => {
      await deleteCapture(scope, actor, params.challengeId, params.partId, params.filename)
      return undefined
    },
  }),
]
