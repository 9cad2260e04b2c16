/**
 * Every route of docs/compatibility.md#screens-and-routes. Matching is case-insensitive (react-router's default: no route sets
 * `caseSensitive`), each screen is lazy-loaded behind the full-screen bars loader, `*` is the
 * not-found screen and the default error screen catches render and loader errors.
 *
 * Guards: WithRole (minimum role; signed out → /account/login?from=…). Frames: WithNavbar
 * (everything), WithGameTab (games/:id/*), AdminLayout (admin/*).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { Navigate, type RouteObject } from 'react-router-dom'
import { ErrorScreen } from './components/ErrorScreen/ErrorScreen'
import { FullScreenLoader } from './components/FullScreenLoader/FullScreenLoader'
import { WithNavbar } from './layouts/WithNavbar'
import { WithRole } from './layouts/WithRole'

type Loader = () => Promise<{ default: ComponentType }>

const RELOAD_MARK = 'flagwave:chunk-reload'

/**
 * After a deployment the old hashed chunks are gone: a screen whose code fails to load reloads
 * the page once (fresh index.html, new chunk names) instead of failing for good.
 */
function reloadOnce(load: Loader): Loader {
  return () =>
    load().then(
      (module) => {
        sessionStorage.removeItem(RELOAD_MARK)
        return module
      },
      (error: unknown) => {
        if (sessionStorage.getItem(RELOAD_MARK)) throw error
        sessionStorage.setItem(RELOAD_MARK, '1')
        window.location.reload()
        return new Promise<never>(() => {})
      },
    )
}

/** A lazily loaded screen with its own loader, so surrounding frames stay visible. */
function screen(load: Loader) {
  const Component: LazyExoticComponent<ComponentType> = lazy(reloadOnce(load))
  return (
    <Suspense fallback={<FullScreenLoader />}>
      <Component />
    </Suspense>
  )
}

const role = (minimum: 'User' | 'Monitor' | 'Admin', children: RouteObject[]): RouteObject => ({
  element: <WithRole role={minimum} />,
  children,
})

export const routes: RouteObject[] = [
  // Big-screen scoreboard: full viewport, no navbar, anonymous once the game has started.
  { path: 'games/:id/scoreboard/bigscreen', errorElement: <ErrorScreen />, element: screen(() => import('./pages/games/BigScreen')) },
  {
    element: <WithNavbar />,
    errorElement: <ErrorScreen />,
    children: [
      {
        // Errors inside a screen keep the navbar.
        errorElement: <ErrorScreen />,
        children: [
          { index: true, element: screen(() => import('./pages/Home')) },
          { path: 'about', element: screen(() => import('./pages/About')) },
          role('User', [{ path: 'teams', element: screen(() => import('./pages/teams/Teams')) }]),
          {
            path: 'account',
            children: [
              { path: 'login', element: screen(() => import('./pages/account/Login')) },
              { path: 'register', element: screen(() => import('./pages/account/Register')) },
              { path: 'recovery', element: screen(() => import('./pages/account/Recovery')) },
              { path: 'reset', element: screen(() => import('./pages/account/Reset')) },
              { path: 'verify', element: screen(() => import('./pages/account/Verify')) },
              role('User', [
                { path: 'profile', element: screen(() => import('./pages/account/Profile')) },
                { path: 'confirm', element: screen(() => import('./pages/account/Confirm')) },
              ]),
            ],
          },
          {
            path: 'games',
            children: [
              { index: true, element: screen(() => import('./pages/games/Games')) },
              {
                path: ':id',
                element: screen(() => import('./layouts/WithGameTab')),
                children: [
                  { index: true, element: screen(() => import('./pages/games/GameDetail')) },
                  role('User', [{ path: 'challenges', element: screen(() => import('./pages/games/Challenges')) }]),
                  { path: 'scoreboard', element: screen(() => import('./pages/games/Scoreboard')) },
                  // Replay and the admin's reveal control (docs/scoring.md#replay, #staged-reveal).
                  { path: 'scoreboard/replay', element: screen(() => import('./pages/games/Replay')) },
                  role('Admin', [{ path: 'scoreboard/reveal', element: screen(() => import('./pages/games/RevealControl')) }]),
                  {
                    path: 'monitor',
                    element: <WithRole role="Monitor" />,
                    children: [
                      { index: true, element: <Navigate to="events" replace /> },
                      { path: 'cheatinfo', element: screen(() => import('./pages/games/monitor/CheatInfo')) },
                      { path: 'events', element: screen(() => import('./pages/games/monitor/Events')) },
                      { path: 'submissions', element: screen(() => import('./pages/games/monitor/Submissions')) },
                      { path: 'traffic', element: screen(() => import('./pages/games/monitor/Traffic')) },
                    ],
                  },
                ],
              },
            ],
          },
          { path: 'monitor', element: <WithRole role="Monitor" />, children: [{ index: true, element: screen(() => import('./pages/games/monitor/MonitorGames')) }] },
          {
            path: 'posts',
            children: [
              { index: true, element: screen(() => import('./pages/posts/PostList')) },
              { path: ':postId', element: screen(() => import('./pages/posts/PostDetail')) },
              role('Admin', [{ path: ':postId/edit', element: screen(() => import('./pages/posts/PostEdit')) }]),
            ],
          },
          {
            path: 'admin',
            element: <WithRole role="Admin" />,
            children: [
              {
                element: screen(() => import('./layouts/AdminLayout')),
                children: [
                  { index: true, element: <Navigate to="games" replace /> },
                  { path: 'configs', element: screen(() => import('./pages/admin/Configs')) },
                  { path: 'files', element: screen(() => import('./pages/admin/Files')) },
                  { path: 'instances', element: screen(() => import('./pages/admin/Instances')) },
                  { path: 'logs', element: screen(() => import('./pages/admin/Logs')) },
                  { path: 'sso', element: screen(() => import('./pages/admin/Sso')) },
                  { path: 'teams', element: screen(() => import('./pages/admin/Teams')) },
                  { path: 'users', element: screen(() => import('./pages/admin/Users')) },
                  {
                    path: 'games',
                    children: [
                      { index: true, element: screen(() => import('./pages/admin/Games')) },
                      {
                        path: ':id',
                        children: [
                          { index: true, element: <Navigate to="info" replace /> },
                          { path: 'info', element: screen(() => import('./pages/admin/games/Info')) },
                          { path: 'notices', element: screen(() => import('./pages/admin/games/Notices')) },
                          { path: 'divisions', element: screen(() => import('./pages/admin/games/Divisions')) },
                          { path: 'review', element: screen(() => import('./pages/admin/games/Review')) },
                          { path: 'writeups', element: screen(() => import('./pages/admin/games/Writeups')) },
                          { path: 'integrations', element: screen(() => import('./pages/admin/games/Integrations')) },
                          {
                            path: 'challenges',
                            children: [
                              { index: true, element: screen(() => import('./pages/admin/games/Challenges')) },
                              { path: ':chalId', element: screen(() => import('./pages/admin/games/ChallengeEdit')) },
                              { path: ':chalId/flags', element: screen(() => import('./pages/admin/games/Flags')) },
                            ],
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          { path: '*', element: screen(() => import('./pages/NotFound')) },
        ],
      },
    ],
  },
]
