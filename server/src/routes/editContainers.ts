/**
 * Group `edit`, editors' test containers (docs/compatibility.md#group-edit). With the platform proxy a
 * test container is reached through `/api/proxy/noinst/{entry}`.
 */
import { z } from 'zod'
import { intParam, route } from '../http/route.js'
import { createTestContainer, removeTestContainer } from '../domain/containers/lifecycle.js'
import { presentContainerInfo } from '../presenters/containers.js'
import { ContainerInfoModel } from '@flagwave/shared/schemas/challenges'
import { ContainerProviderModel } from '@flagwave/shared/schemas/admin'

const EditChallengeParams = z.object({ id: intParam, cId: intParam })

export const editContainerRoutes = [
  route({
    method: 'GET',
    path: '/api/edit/containers/provider',
    role: 'Admin',
    response: ContainerProviderModel,
    summary: 'The container engine configured (Flagwave): the challenge editor warns when none is',
    handler: async (ctx): Promise<ContainerProviderModel> => ({ provider: ctx.services.containers.provider.name }),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/challenges/:cId/container',
    role: 'Admin',
    params: EditChallengeParams,
    response: ContainerInfoModel,
    summary: 'Start a test container of the challenge (ContainerInfoModel)',
    handler: async (_ctx, { params, scope, actor }) => presentContainerInfo(await createTestContainer(scope.em, scope.services, params.id, params.cId, actor)),
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
