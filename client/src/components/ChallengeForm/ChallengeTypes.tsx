/** Challenge types (docs/compatibility.md#enums): labels, descriptions and a badge. */
import { Badge, type BadgeProps } from '@mantine/core'
import { ChallengeType as TYPES, type ChallengeType } from '@flagwave/shared/enums'
import { t } from '../../i18n'

export interface ChallengeTypeMeta {
  label: string
  description: string
  color: string
}

export const CHALLENGE_TYPE_META: Record<ChallengeType, ChallengeTypeMeta> = {
  StaticAttachment: { label: t('静态附件'), description: t('共用附件，任意 flag 均可提交'), color: 'blue' },
  StaticContainer: { label: t('静态容器'), description: t('共用容器镜像，不下发 flag，任意 flag 均可提交'), color: 'grape' },
  DynamicAttachment: { label: t('动态附件'), description: t('为每支队伍分配一份附件及其对应的 flag'), color: 'orange' },
  DynamicContainer: { label: t('动态容器'), description: t('为每支队伍启动容器，flag 由模板生成并经环境变量 GZCTF_FLAG 下发'), color: 'teal' },
}

export const CHALLENGE_TYPES: readonly ChallengeType[] = TYPES


export function ChallengeTypeBadge({ type, ...props }: { type: ChallengeType } & BadgeProps) {
  const meta = CHALLENGE_TYPE_META[type]
  return (
    <Badge color={meta.color} variant="outline" {...props}>
      {meta.label}
    </Badge>
  )
}
