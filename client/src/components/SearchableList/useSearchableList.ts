import { useState } from 'react'
import { useQuery, type QueryKey } from '@tanstack/react-query'
import type { ArrayResponse } from '@flagwave/shared/schemas/common'
import { queryClient } from '../../api/queryClient'

export interface SearchableListSource<T> {
  pageSize: number
  listKey: (count: number, skip: number) => QueryKey
  list: (count: number, skip: number) => Promise<ArrayResponse<T>>
  searchKey: (hint: string) => QueryKey
  search: (hint: string) => Promise<ArrayResponse<T>>
}

/**
 * An admin list that is either paged (GET …?count=&skip=) or a search (POST …/search?hint=):
 * the page and search state, the query of what is shown, and a local patch of one row.
 */
export function useSearchableList<T>(source: SearchableListSource<T>) {
  const [page, setPage] = useState(1)
  const [input, setInput] = useState('')
  const [hint, setHint] = useState('')
  const skip = (page - 1) * source.pageSize
  const queryKey = hint ? source.searchKey(hint) : source.listKey(source.pageSize, skip)
  const query = useQuery<ArrayResponse<T>>({ queryKey, queryFn: () => (hint ? source.search(hint) : source.list(source.pageSize, skip)) })
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / source.pageSize))

  return {
    query,
    page,
    setPage,
    pages,
    hint,
    input,
    setInput,
    search: () => {
      setHint(input.trim())
      setPage(1)
    },
    clear: () => {
      setInput('')
      setHint('')
    },
    /** Apply a change to the shown rows at once (the refetch that follows confirms it). */
    patchRows: (update: (row: T) => T) =>
      queryClient.setQueryData<ArrayResponse<T>>(queryKey, (current) => (current ? { ...current, data: current.data.map(update) } : current)),
  }
}

export type SearchableListState<T> = ReturnType<typeof useSearchableList<T>>
