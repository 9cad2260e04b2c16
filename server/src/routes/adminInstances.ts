/**
 * Group `admin`, container instances (docs/compatibility.md#group-admin): every team container, oldest
 * first, and removing one (no game event).
 */
import { z } from 'zod'
import { guidParam, route } from '../http/route.js'
import { adminDestroyInstance, listTeamInstances } from '../domain/containers/lifecycle.js'
import { presentContainerInstance } from '../presenters/containers.js'
import { ContainerInstanceModel } from '@flagwave/shared/schemas/admin'
import { arrayResponseOf } from '@flagwave/shared/schemas/common'

export const adminInstanceRoutes = [
  route({
    method: 'GET',
    path: '/api/admin/instances',
    role: 'Admin',
    response: arrayResponseOf(ContainerInstanceModel),
    summary: 'Team containers ordered by start (ArrayResponse<ContainerInstanceModel>)',
    handler: async (_ctx, { scope }) => {
      const data = (await listTeamInstances(scope.em)).map((i) => presentContainerInstance(i.container, i.team, i.challenge))
      return { data, length: data.length, total: data.length }
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/admin/instances/:id',
    role: 'Admin',
    params: z.object({ id: guidParam }),
    response: 'empty',
    summary: 'Destroy a container instance',
    handler: async (_ctx, { params, actor, scope }) => {
      await adminDestroyInstance(scope, actor, params.id)
      return undefined
    },
  }),
]
