import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import './global.css'
import { languageReady } from './i18n'

// The application's modules call t() as they load (constants, labels): they are imported only
// after the active language's dictionary has arrived (i18n/index.ts).
void languageReady
  .then(() => import('./App'))
  .then(({ App }) =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  )
