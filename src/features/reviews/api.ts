/** The only file of the reviews feature that calls Supabase: the queue awaiting the caller, and decisions. */
import { useEffect, useMemo } from 'react'
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { getSupabase } from '@/lib/supabase'
import { runBulk, type BulkOutcome, type DecisionInput, type DecisionRequest, type QueueItem } from './model'

/** The largest page the API serves (p_limit 1..1000). */
export const QUEUE_PAGE_SIZE = 1000
/** A small first page, so that the first rows are on screen while the rest of a long queue is still coming. */
export const QUEUE_FIRST_PAGE_SIZE = 100

const queuePageSize = (afterId: string | null) => (afterId === null ? QUEUE_FIRST_PAGE_SIZE : QUEUE_PAGE_SIZE)

/** One keyset page of the rights awaiting the caller's decision: those after `afterId` in right_id order. */
export async function fetchReviewQueuePage(afterId: string | null): Promise<QueueItem[]> {
  const { data, error } = await getSupabase().rpc('review_queue', {
    ...(afterId === null ? {} : { p_after_id: afterId }),
    p_limit: queuePageSize(afterId),
  })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as QueueItem[]
}

export async function fetchReviewQueueCount(): Promise<number> {
  const { data, error } = await getSupabase().rpc('review_queue_count', {})
  if (error) throwApiError(error)
  return Number(data ?? 0)
}

/** One decision, through the database's workflow; a refusal carries its French message. */
export async function decideRight({ rightId, status, comment }: DecisionInput): Promise<void> {
  const trimmed = comment.trim()
  const { error } = await getSupabase().rpc('validate_user_right', {
    right_id: rightId,
    new_status: status,
    ...(trimmed ? { comment: trimmed } : {}),
  })
  if (error) throwApiError(error)
}

// Under the rights root, which every decision invalidates.
export const reviewKeys = {
  queue: () => [RIGHTS_QUERY_ROOT, 'queue'] as const,
  queueCount: () => [RIGHTS_QUERY_ROOT, 'queue-count'] as const,
}

/**
 * The whole queue as keyset pages (nothing is cut at 1000). A refetch walks the pages again from the first, taking
 * each cursor from the fresh page before it, so a right decided or added meanwhile is neither skipped nor doubled.
 */
export const reviewQueueQuery = () =>
  infiniteQueryOptions({
    queryKey: reviewKeys.queue(),
    queryFn: ({ pageParam }) => fetchReviewQueuePage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage, _pages, lastParam) =>
      lastPage.length < queuePageSize(lastParam) ? undefined : (lastPage[lastPage.length - 1]?.right_id ?? undefined),
  })
export const reviewQueueCountQuery = () => queryOptions({ queryKey: reviewKeys.queueCount(), queryFn: fetchReviewQueueCount })

/** The queue, shown from its first page on while the next pages load one after the other. */
export function useReviewQueue() {
  const query = useInfiniteQuery(reviewQueueQuery())
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage()
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage])
  const items = useMemo(() => query.data?.pages.flat() ?? [], [query.data])
  return { ...query, items, complete: query.isSuccess && !hasNextPage }
}
export const useReviewQueueCount = () => useQuery(reviewQueueCountQuery())

/**
 * Every decision, one right or a selection, goes through this mutation: one validate_user_right call per right, in
 * turn, so that a refusal leaves the others decided; then every view of rights and decisions (queue, bell, person's
 * rights, history, dashboards, team) is refreshed at once, failures included, since a refusal often means the right
 * changed meanwhile. `decide` is the call that records one decision (a stub in tests).
 */
export function useDecideRights(decide: (input: DecisionInput) => Promise<void> = decideRight) {
  const queryClient = useQueryClient()
  return useMutation<BulkOutcome[], Error, readonly DecisionRequest[]>({
    mutationFn: (requests) => runBulk(requests, decide),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RIGHTS_QUERY_ROOT] }),
  })
}
