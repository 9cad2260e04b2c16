import { Group, Text } from '@mantine/core'
import { Link } from 'react-router-dom'
import { PLATFORM_SUFFIX, logoUrl, platformName, useGlobalConfig } from '../../api/globalConfig'
import classes from './Logo.module.css'

/** The organiser's logo or the flag mark, and `{title}::CTF`, linking home. */
export function Logo() {
  const config = useGlobalConfig()
  const logo = logoUrl(config)
  return (
    <Link to="/" className={classes.root} data-testid="nav-logo">
      <Group gap={8} wrap="nowrap">
        {logo ? (
          <img src={logo} alt="" height={28} className={classes.image} data-testid="platform-logo" />
        ) : (
        <svg viewBox="0 0 64 64" width={28} height={28} aria-hidden>
          <path d="M18 10v44" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
          <path d="M21 13c8-5 14 4 22 0s9-2 9-2v22s-4-3-10 0-14-5-21 0z" fill="currentColor" />
        </svg>
        )}
        <Text className={classes.title} data-testid="platform-title" title={platformName(config)}>
          {config.title}
          <span className={classes.suffix}>{PLATFORM_SUFFIX}</span>
        </Text>
      </Group>
    </Link>
  )
}
