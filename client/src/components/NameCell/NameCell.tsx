import type { ReactNode } from 'react'
import { Avatar, Group, Stack, Text, type MantineRadius } from '@mantine/core'

interface NameCellProps {
  avatar: string | null | undefined
  name: string | null | undefined
  avatarSize: number
  avatarRadius: MantineRadius
  avatarColor: string
  /** Shown after the name (badges, the id). */
  tags?: ReactNode
  /** The dimmed second line (e-mail, bio). */
  detail: ReactNode
  detailWidth?: number
}

/** The first cell of an admin table row: avatar (initial as fallback), name with tags, a dimmed detail line. */
export function NameCell({ avatar, name, avatarSize, avatarRadius, avatarColor, tags, detail, detailWidth }: NameCellProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={avatar ?? undefined} size={avatarSize} radius={avatarRadius} color={avatarColor}>
        {name?.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500} truncate>
            {name}
          </Text>
          {tags}
        </Group>
        <Text size="xs" c="dimmed" truncate maw={detailWidth}>
          {detail}
        </Text>
      </Stack>
    </Group>
  )
}
