import { Suspense } from 'react'
import { AppShell, Container } from '@mantine/core'
import { Outlet } from 'react-router-dom'
import { AppNavbar } from '../components/AppNavbar/AppNavbar'
import { Footer } from '../components/Footer/Footer'
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader'
import classes from './WithNavbar.module.css'

/** The application shell: top navbar, the routed screen, the footer. */
export function WithNavbar() {
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header>
        <AppNavbar />
      </AppShell.Header>
      <AppShell.Main className={classes.main}>
        <Container size="xl" w="100%" py="lg" className={classes.content}>
          <Suspense fallback={<FullScreenLoader />}>
            <Outlet />
          </Suspense>
        </Container>
        <Footer />
      </AppShell.Main>
    </AppShell>
  )
}

