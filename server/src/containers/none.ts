/**
 * CONTAINER_PROVIDER=none: the platform runs without a container engine. Creating fails with
 * a ProviderError('disabled'), which every endpoint answers with its contract title
 * (`题目创建容器失败`, `容器创建失败`); nothing can exist to destroy or list.
 */
import { ProviderError, type ContainerProvider, type CreatedContainer, type DialTarget, type EngineContainer } from './provider.js'

export class NoContainerProvider implements ContainerProvider {
  readonly name = 'none' as const

  async create(): Promise<CreatedContainer> {
    throw new ProviderError('disabled', 'no container provider is configured (CONTAINER_PROVIDER=none)')
  }

  async destroy(): Promise<void> {}

  async list(): Promise<EngineContainer[]> {
    return []
  }

  async alive(): Promise<boolean> {
    return false
  }

  dialTarget(container: { ip: string; port: number }): DialTarget {
    return { host: container.ip, port: container.port }
  }

  async close(): Promise<void> {}
}
