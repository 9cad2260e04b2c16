/**
 * `data-testid` as a typed HTML attribute. TypeScript accepts `data-*` names only as JSX
 * attributes; this lets props objects handed to Mantine (`inputProps`, `confirmProps`) carry the
 * browser tests' hooks without a cast.
 */
import 'react'

declare module 'react' {
  interface HTMLAttributes<T> {
    'data-testid'?: string
  }
}
