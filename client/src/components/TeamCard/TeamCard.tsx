import type { ReactNode } from 'react'
import { Avatar, Badge, Card, Divider, Group, Stack, Text, Title, Tooltip } from '@mantine/core'
import { IconCrown, IconLock } from '@tabler/icons-react'
import type { TeamInfoModel } from '@flagwave/shared/schemas/teams'
import { sortedMembers } from '../../stores/teams'
import { t } from '../../i18n'

export interface TeamCardProps {
  team: TeamInfoModel
  /** The signed-in user (their own row is marked). */
  userId?: string | null
  /** Buttons at the bottom of the card. */
  actions?: ReactNode
}

/** One team: avatar, name, bio, lock state and its members with the captain marked. */
export function TeamCard({ team, userId, actions }: TeamCardProps) {
  const members = sortedMembers(team)
  return (
    <Card withBorder radius="md" padding="lg" data-testid="team-card" data-team-id={team.id} data-team-name={team.name ?? ''}>
      <Stack gap="sm" h="100%">
        <Group wrap="nowrap" align="flex-start" gap="md">
          <Avatar src={team.avatar ?? undefined} size={64} radius="md" color="brand" data-testid="team-avatar" data-src={team.avatar ?? ''}>
            {team.name?.slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs" wrap="nowrap" justify="space-between">
              <Title order={4} lineClamp={1} data-testid="team-name">
                {team.name}
              </Title>
              {team.locked && (
                <Tooltip label={t('队伍参与的比赛进行中，成员变动已锁定')} withArrow>
                  <Badge color="alert" variant="light" leftSection={<IconLock size={12} />} data-testid="team-locked">
                    {t('已锁定')}
                  </Badge>
                </Tooltip>
              )}
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2} data-testid="team-bio">
              {team.bio || t('这个队伍还没有签名')}
            </Text>
          </Stack>
        </Group>
        <Divider label={t('成员 · {{length}}', { length: members.length })} labelPosition="left" />
        <Stack gap={6} data-testid="team-members" style={{ flex: 1 }}>
          {members.map((member) => (
            <Group key={member.id} gap="xs" wrap="nowrap" data-testid="team-member" data-user-id={member.id} data-user-name={member.userName} data-captain={member.captain}>
              <Avatar src={member.avatar ?? undefined} size={24} radius="xl" color="brand">
                {member.userName.slice(0, 1).toUpperCase()}
              </Avatar>
              <Text size="sm" fw={member.id === userId ? 600 : 400} truncate style={{ flex: 1 }}>
                {member.userName}
                {member.id === userId && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    {t('（我）')}
                  </Text>
                )}
              </Text>
              {member.captain && (
                <Badge size="sm" variant="light" leftSection={<IconCrown size={12} />} data-testid="team-captain">
                  {t('队长')}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
        {actions && (
          <Group justify="flex-end" gap="xs">
            {actions}
          </Group>
        )}
      </Stack>
    </Card>
  )
}
