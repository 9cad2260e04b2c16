import { Center, Loader } from '@mantine/core'

/** The loader shown while a screen (or its data) loads: bars (theme default), filling the view. */
export function FullScreenLoader() {
  return (
    <Center mih="calc(100dvh - var(--app-shell-header-offset, 0px) - var(--app-shell-footer-offset, 0px))" w="100%" data-testid="full-screen-loader">
      <Loader size="lg" />
    </Center>
  )
}

