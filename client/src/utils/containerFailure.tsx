/**
 * Why a container did not start, in words the reader can act on: the `reason` member the server
 * adds to the contract's error body (docs/compatibility.md#container-failure-reasons). Players are
 * told what they can do or whom to ask; editors what to fix.
 */
import { Stack, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { ContainerFailureReason } from '@flagwave/shared/enums'
import { useQuery } from '@tanstack/react-query'
import { ApiError, errorMessage } from '../api/http'
import { editApi } from '../api/edit'
import { queryKeys } from '../api/queryKeys'
import { t } from '../i18n'

type Audience = 'player' | 'editor'

const TEXTS: Record<Audience, Record<ContainerFailureReason, string>> = {
  player: {
    noProvider: t('平台尚未配置容器后端，暂时无法启动容器。请联系主办方。'),
    imageMissing: t('这道题的容器镜像不存在或无法拉取。请联系主办方。'),
    limitReached: t('队伍的容器数量已达上限：请先销毁其他题目的容器再试。'),
    engineUnreachable: t('暂时无法连接容器引擎，请稍后再试；持续失败请联系主办方。'),
    engineError: t('容器引擎出错，请稍后再试；持续失败请联系主办方。'),
    misconfigured: t('这道题的容器尚未配置完整（镜像或端口）。请联系主办方。'),
  },
  editor: {
    noProvider: t('平台未配置容器后端：设置 CONTAINER_PROVIDER（docker 或 kubernetes）并重启平台后才能启动容器。'),
    imageMissing: t('镜像不存在或无法拉取：检查镜像名称与标签，以及容器引擎能否访问镜像仓库。'),
    limitReached: t('队伍的容器数量已达上限。'),
    engineUnreachable: t('无法连接容器引擎：检查 DOCKER_HOST 或 Kubernetes 配置，以及引擎是否在运行。'),
    engineError: t('容器引擎拒绝了请求：详情见管理日志。'),
    misconfigured: t('请先填写容器镜像与服务端口。'),
  },
}

/** The reason of a container refusal in `audience`'s words, or null when the error carries none. */
function containerFailureText(error: unknown, audience: Audience): string | null {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return null
  const reason = (error.body as { reason?: unknown }).reason
  return typeof reason === 'string' && (ContainerFailureReason as readonly string[]).includes(reason) ? TEXTS[audience][reason as ContainerFailureReason] : null
}

/** A container error as a notification: the API's title as it is, and below it the reason when there is one. */
export function notifyContainerError(error: unknown, audience: Audience, title?: string): void {
  const reason = containerFailureText(error, audience)
  notifications.show({
    color: 'alert',
    title,
    message: reason ? (
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          {errorMessage(error)}
        </Text>
        <Text size="sm">{reason}</Text>
      </Stack>
    ) : (
      errorMessage(error)
    ),
    autoClose: reason ? 10_000 : undefined,
    // Tests and assistive technology find it by its reason.
    ...(reason ? { 'data-testid': 'container-failure' } : {}),
  })
}

/** Whether the platform has no container engine (editors only; false until known). */
export function useNoContainerProvider(): boolean {
  const { data } = useQuery({ queryKey: queryKeys.edit.containerProvider, queryFn: editApi.containerProvider, staleTime: 60_000 })
  return data?.provider === 'none'
}

/** Told when a container challenge is enabled while no engine is configured. */
export const NO_PROVIDER_WARNING = t('平台未配置容器后端：选手无法启动这道题的容器。设置 CONTAINER_PROVIDER 并重启平台后才能使用。')
