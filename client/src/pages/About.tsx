import { Anchor, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { BUILD, isOfficialBuild } from '../build'
import { platformName, useGlobalConfig } from '../api/globalConfig'
import { t } from '../i18n'
import { READING_WIDTH } from '../layouts/widths'

const unknown = (value: string) => (value ? value : <Text span c="dimmed">{t('未知')}</Text>)

/** About: the platform, its compatibility and the build information. */
export default function About() {
  const config = useGlobalConfig()
  const official = isOfficialBuild(BUILD)
  return (
    <Stack gap="lg" maw={READING_WIDTH} mx="auto" data-testid="about-page">
      <Stack gap={4}>
        <Title order={2} ff="monospace">
          {platformName(config)}
        </Title>
        <Text c="dimmed">{config.slogan}</Text>
      </Stack>
      <Text>
        {t('本平台由 Flagwave 驱动：一个实时优先的 CTF 竞赛平台，与 GZ::CTF 的接口保持兼容。比赛公告、积分榜与提交结果通过实时连接推送，网络中断时自动回退为定时刷新。')}
      </Text>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={4}>
            {t('构建信息')}{' '}
            <Badge color={official ? 'brand' : 'alert'} variant="light" tt="none" data-testid="about-build-status">
              {official ? t('官方构建') : t('非官方构建')}
            </Badge>
          </Title>
          <Table withRowBorders={false} ff="monospace" fz="sm" translate="no">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td w={140}>tag</Table.Td>
                <Table.Td>{unknown(BUILD.tag)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>sha</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{unknown(BUILD.sha)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>timestamp</Table.Td>
                <Table.Td>{unknown(BUILD.timestamp)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>buildtime</Table.Td>
                <Table.Td>{unknown(BUILD.buildTime)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
      </Paper>
      <Text size="sm" c="dimmed">
        {t('接口规范参考')}{' '}
        <Anchor href="https://github.com/GZTimeWalker/GZCTF" target="_blank" rel="noreferrer">
          {'GZ::CTF'}
        </Anchor>
        {t('。')}
      </Text>
    </Stack>
  )
}
