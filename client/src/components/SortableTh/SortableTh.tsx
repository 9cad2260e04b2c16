/**
 * Admin lists sorted, with the sort visible (issue 16): a column header that shows whether the rows
 * are sorted by it and which way (arrow, `aria-sort`), and sorts by it when clicked (again: the
 * other way). `useSortedRows` keeps the sort and applies it to the rows on screen: the whole list
 * where the client holds it all, the page shown where the server pages it (the contract fixes the
 * server's order, docs/compatibility.md#lists-and-paging).
 */
import { useMemo, useState, type ReactNode } from 'react'
import { Group, Table, UnstyledButton, type TableThProps } from '@mantine/core'
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react'

export type SortDirection = 'asc' | 'desc'

export interface SortState<K extends string> {
  key: K
  direction: SortDirection
}

/** How to compare two rows by each sortable column. */
export type Sorters<T, K extends string> = Record<K, (a: T, b: T) => number>

export function useSortedRows<T, K extends string>(rows: readonly T[], sorters: Sorters<T, K>, initial: SortState<NoInfer<K>>) {
  const [sort, setSort] = useState<SortState<K>>(initial)
  const sorted = useMemo(() => {
    const compare = sorters[sort.key]
    const sign = sort.direction === 'asc' ? 1 : -1
    return [...rows].sort((a, b) => sign * compare(a, b))
  }, [rows, sorters, sort])
  /** Sort by `key`: its natural direction first (newest first for times), the other way when already sorted by it. */
  const toggle = (key: K, first: SortDirection = 'asc') =>
    setSort((current) => (current.key === key ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: first }))
  return { sorted, sort, toggle }
}

/** Compare texts the way the interface's language orders them; numbers in them by value. */
export const byText = (a: string | null | undefined, b: string | null | undefined): number => (a ?? '').localeCompare(b ?? '', undefined, { numeric: true, sensitivity: 'base' })

/** Compare wire dates (ISO strings or epoch milliseconds). */
export const byTime = (a: string | number | null | undefined, b: string | number | null | undefined): number => new Date(a ?? 0).getTime() - new Date(b ?? 0).getTime()

interface SortableThProps<K extends string> extends Omit<TableThProps, 'onClick' | 'children'> {
  column: K
  sort: SortState<K>
  onSort: (column: K) => void
  children: ReactNode
  testId?: string
}

export function SortableTh<K extends string>({ column, sort, onSort, children, testId, ...props }: SortableThProps<K>) {
  const active = sort.key === column
  const Icon = !active ? IconArrowsSort : sort.direction === 'asc' ? IconArrowUp : IconArrowDown
  return (
    <Table.Th {...props} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} data-testid={testId} data-sorted={active ? sort.direction : undefined}>
      <UnstyledButton onClick={() => onSort(column)} fw={active ? 700 : 600} fz="sm">
        <Group gap={4} wrap="nowrap">
          {children}
          <Icon size={14} stroke={active ? 2.2 : 1.5} opacity={active ? 1 : 0.5} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  )
}

/** A header of a list in one fixed order (a live feed, newest first): the order shown, not changeable. */
export function FixedSortLabel({ label, direction, testId }: { label: ReactNode; direction: SortDirection; testId?: string }) {
  const Icon = direction === 'asc' ? IconArrowUp : IconArrowDown
  return (
    <Group gap={4} wrap="nowrap" component="span" aria-sort={direction === 'asc' ? 'ascending' : 'descending'} data-testid={testId} data-sorted={direction}>
      {label}
      <Icon size={14} stroke={2.2} />
    </Group>
  )
}
