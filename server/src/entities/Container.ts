import { defineEntity, p } from '@mikro-orm/core'
import { ContainerStatus } from '@flagwave/shared/enums'

/** A running (or just destroyed) challenge container, team instance or admin test container. */
export const ContainerSchema = defineEntity({
  name: 'Container',
  tableName: 'containers',
  properties: {
    /** Lowercase GUID; the proxy capability and `containerGuid` on the wire. */
    id: p.uuid().primary(),
    /** The id the engine (Docker/Kubernetes) assigned. */
    containerId: p.string().length(128),
    image: p.string().length(256),
    status: p.enum(ContainerStatus).default('Pending'),
    startedAt: p.datetime(),
    expectStopAt: p.datetime().index(),
    ip: p.string().length(128),
    port: p.integer(),
    publicIp: p.string().length(128).nullable(),
    publicPort: p.integer().nullable(),
    isProxy: p.boolean().default(false),
    /** Set for admin test containers (the challenge they test); null for team containers. */
    testChallengeId: p.integer().nullable().index(),
    /** The flag handed to the container as GZCTF_FLAG, if any (kept for capture metadata). */
    flag: p.string().length(128).nullable(),
  },
})
export class Container extends ContainerSchema.class {}
ContainerSchema.setClass(Container)
