/**
 * Group `edit`, editors' test containers (docs/compatibility.md#group-edit). With the platform proxy a
 * test container is reached through `/api/proxy/noinst/{entry}`.
 */
import { z } from 'zod'
import { intParam, route } from '../http/route.js'
import { createTestContainer, removeTestContainer } from '../domain/containers/lifecycle.js'
import { presentContainerInfo } from '../presenters/containers.js'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'

const EditChallengeParams = z.object({ id: intParam, cId: intParam })

export const editContainerRoutes = [
  route({
    method: 'POST',
    path: '/api/edit/games/:id/challenges/:cId/container',
    role: 'Admin',
    params: EditChallengeParams,
    response: ContainerInfoModel,
    summary: 'Start a test container of the challenge (ContainerInfoModel)',
    handler: async (_ctx, { params, scope }) => presentContainerInfo(await createTestContainer(scope.em, scope.services, params.id, params.cId)),
  }),
  route({
    method: 'DELETE',
    path: '/api/edit/games/:id/challenges/:cId/container',
    role: 'Admin',
    params: EditChallengeParams,
    response: 'empty',
    summary: "Destroy the challenge's test container (none is not an error)",
    handler: async (_ctx, { params, scope }) => {
      await removeTestContainer(scope.em, scope.services, params.id, params.cId)
      return undefined
    },
  }),
]
