import type { Role } from '@flagwave/shared/enums'
import { t } from '../i18n'

/** Role names in the interface language (never the raw enum: "User", "Admin"). */
export const ROLE_LABELS: Record<Role, string> = { Banned: t('已封禁'), User: t('用户'), Monitor: t('监视者'), Admin: t('管理员') }
