import { useRef } from 'react'

/**
 * How many times `value` has changed since mount (0 on mount). Use it as a React `key` plus a
 * class to replay a CSS "changed" animation on updates only, never on first render.
 */
export function useChangeCount<T>(value: T): number {
  const previous = useRef(value)
  const count = useRef(0)
  if (!Object.is(previous.current, value)) {
    previous.current = value
    count.current += 1
  }
  return count.current
}
