import { Anchor, Group, Stack, Text } from '@mantine/core'
import { BUILD, buildLabel, isOfficialBuild } from '../../build'
import { platformName, sloganText, useGlobalConfig } from '../../api/globalConfig'
import { RealtimeStatus } from '../RealtimeStatus/RealtimeStatus'
import classes from './Footer.module.css'
import { t } from '../../i18n'

/** Title, slogan, footer and ICP filing texts from GET /api/config, and the build information. */
export function Footer() {
  const config = useGlobalConfig()
  const official = isOfficialBuild(BUILD)
  const label = buildLabel(BUILD)
  return (
    <footer className={classes.root} data-testid="footer">
      <Stack gap={4} align="center">
        <Text fw={700} ff="monospace" data-testid="footer-title">
          {platformName(config)}
        </Text>
        <Text size="sm" c="dimmed" data-testid="footer-slogan">
          {sloganText(config)}
        </Text>
        {config.footerInfo && (
          <Text size="xs" c="dimmed" className={classes.pre}>
            {config.footerInfo}
          </Text>
        )}
        {config.beianInfo && (
          <Anchor href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" size="xs" c="dimmed" data-testid="footer-beian">
            {config.beianInfo}
          </Anchor>
        )}
        <Group gap={6} justify="center">
          <RealtimeStatus />
          <Text size="xs" c="dimmed">
            ·
          </Text>
          <Text size="xs" c="dimmed">
            {t('Powered by Flagwave')}
          </Text>
          <Text size="xs" c="dimmed">
            ·
          </Text>
          {official ? (
            <Text size="xs" c="dimmed" ff="monospace" data-testid="footer-build" data-official="true" title={t('构建于 {{time}}', { time: BUILD.buildTime })}>
              {label} @ {BUILD.timestamp}
            </Text>
          ) : (
            <Text size="xs" c="alert" ff="monospace" data-testid="footer-build" data-official="false">
              {t('Unofficial build ({{tag}}#{{sha}})', { tag: BUILD.tag || t('未知标签'), sha: BUILD.sha ? BUILD.sha.slice(0, 7) : t('未知') })}
            </Text>
          )}
        </Group>
      </Stack>
    </footer>
  )
}
