/**
 * Group `game`, players' containers (docs/compatibility.md#group-game-containers): start, prolong and destroy the
 * container of the caller team's instance. Each command runs the context gate (steps 1–5) first.
 */
import { z } from 'zod'
import { intParam, route, servedAlsoAt } from '../http/route.js'
import { prolongInstanceContainer, startInstanceContainer, stopInstanceContainer } from '../domain/containers/playerContainers.js'
import { presentContainerInfo } from '../presenters/containers.js'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'

const ContainerParams = z.object({ id: intParam, challengeId: intParam })

const prolongRoute = route({
    method: 'POST',
    path: '/api/game/:id/container/:challengeId/prolong',
    role: 'User',
    rateLimit: 'Container',
    params: ContainerParams,
    response: ContainerInfoModel,
    summary: "Prolong the team's container by 2 hours, in its last 10 minutes (ContainerInfoModel)",
    handler: async (_ctx, { params, actor, scope }) => presentContainerInfo(await prolongInstanceContainer(scope, actor, params.id, params.challengeId)),
  })

export const containerRoutes = [
  route({
    method: 'POST',
    path: '/api/game/:id/container/:challengeId',
    role: 'User',
    rateLimit: 'Container',
    params: ContainerParams,
    response: ContainerInfoModel,
    summary: "Start the team's container of a challenge (ContainerInfoModel)",
    handler: async (_ctx, { params, actor, scope }) => presentContainerInfo(await startInstanceContainer(scope, actor, params.id, params.challengeId)),
  }),
  prolongRoute,
  servedAlsoAt(prolongRoute, '/api/game/:id/container/:challengeId/extend', 'GZ::CTF 0.18 name of …/prolong'),
  route({
    method: 'DELETE',
    path: '/api/game/:id/container/:challengeId',
    role: 'User',
    rateLimit: 'Container',
    params: ContainerParams,
    response: 'empty',
    summary: "Destroy the team's container of a challenge",
    handler: async (_ctx, { params, actor, scope }) => {
      await stopInstanceContainer(scope, actor, params.id, params.challengeId)
      return undefined
    },
  }),
]
