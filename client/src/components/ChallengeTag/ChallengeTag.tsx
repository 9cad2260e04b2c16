/** Challenge categories (docs/compatibility.md#enums): label, colour and icon, in tag order. */
import { Badge, type BadgeProps } from '@mantine/core'
import {
  IconArrowsShuffle,
  IconBolt,
  IconBrain,
  IconCode,
  IconCpu,
  IconCurrencyEthereum,
  IconDeviceMobile,
  IconFingerprint,
  IconLock,
  IconPuzzle,
  IconSpy,
  IconTarget,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react'
import { ChallengeTag as TAGS, type ChallengeTag } from '@flagwave/shared/enums'

export interface TagMeta {
  label: string
  color: string
  icon: Icon
}

export const TAG_META: Record<ChallengeTag, TagMeta> = {
  Misc: { label: 'Misc', color: 'teal', icon: IconPuzzle },
  Crypto: { label: 'Crypto', color: 'indigo', icon: IconLock },
  Pwn: { label: 'Pwn', color: 'red', icon: IconBolt },
  Web: { label: 'Web', color: 'blue', icon: IconWorldWww },
  Reverse: { label: 'Reverse', color: 'orange', icon: IconArrowsShuffle },
  Blockchain: { label: 'Blockchain', color: 'lime', icon: IconCurrencyEthereum },
  Forensics: { label: 'Forensics', color: 'cyan', icon: IconFingerprint },
  Hardware: { label: 'Hardware', color: 'violet', icon: IconCpu },
  Mobile: { label: 'Mobile', color: 'pink', icon: IconDeviceMobile },
  PPC: { label: 'PPC', color: 'yellow', icon: IconCode },
  AI: { label: 'AI', color: 'grape', icon: IconBrain },
  Pentest: { label: 'Pentest', color: 'red', icon: IconTarget },
  OSINT: { label: 'OSINT', color: 'gray', icon: IconSpy },
}

/** The tags in contract order. */
export const TAG_ORDER: readonly ChallengeTag[] = TAGS

export function tagMeta(tag: string): TagMeta {
  return TAG_META[tag as ChallengeTag] ?? TAG_META.Misc
}

/** A small category badge with its icon. */
export function ChallengeTagBadge({ tag, ...props }: { tag: string } & BadgeProps) {
  const meta = tagMeta(tag)
  const Icon = meta.icon
  return (
    <Badge color={meta.color} variant="light" leftSection={<Icon size={12} />} {...props}>
      {meta.label}
    </Badge>
  )
}
