/**
 * `data-testid` as a typed HTML attribute. TypeScript accepts `data-*` names only as JSX
 * attributes; this lets props objects handed to Mantine (`inputProps`, `confirmProps`) carry the
 * browser tests' hooks without a cast.
 */
import 'react'

declare module 'react' {
  // Merged declarations must repeat React's type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    'data-testid'?: string
  }
}
