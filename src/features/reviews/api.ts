/** The only file of the reviews feature that calls Supabase. */
import { useEffect, useMemo } from 'react'
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { DecisionInput, OwnRight, QueueItem, ReviewDeadline, RightsSummary } from './model'

/** The largest page the API serves (p_limit 1..1000). */
export const QUEUE_PAGE_SIZE = 1000
/** A small first page, so that the first rows are on screen while the rest of a long queue is still coming. */
export const QUEUE_FIRST_PAGE_SIZE = 100

function fail(error: { message: string }): never {
  throw new Error(error.message)
}

const queuePageSize = (afterId: string | null) => (afterId === null ? QUEUE_FIRST_PAGE_SIZE : QUEUE_PAGE_SIZE)

/** One keyset page of the rights awaiting the caller's decision: those after `afterId` in right_id order. */
export async function fetchReviewQueuePage(afterId: string | null): Promise<QueueItem[]> {
  const { data, error } = await getSupabase().rpc('review_queue', {
    ...(afterId === null ? {} : { p_after_id: afterId }),
    p_limit: queuePageSize(afterId),
  })
  if (error) fail(error)
  return (data ?? []) as unknown as QueueItem[]
}

export async function fetchReviewQueueCount(): Promise<number> {
  const { data, error } = await getSupabase().rpc('review_queue_count', {})
  if (error) fail(error)
  return Number(data ?? 0)
}

export async function fetchRightsSummary(): Promise<RightsSummary> {
  const { data, error } = await getSupabase().rpc('my_rights_summary')
  if (error) fail(error)
  const row = (Array.isArray(data) ? data[0] : data) as Partial<RightsSummary> | null | undefined
  return {
    rights_count: Number(row?.rights_count ?? 0),
    pending_count: Number(row?.pending_count ?? 0),
    validated_count: Number(row?.validated_count ?? 0),
    refused_count: Number(row?.refused_count ?? 0),
  }
}

export async function fetchReviewDeadline(): Promise<ReviewDeadline | null> {
  const { data, error } = await getSupabase().rpc('my_review_deadline')
  if (error) fail(error)
  const rows = (data ?? []) as unknown as ReviewDeadline[]
  return rows[0] ?? null
}

/** The caller's own rights, newest grant first, every page. */
export function fetchOwnRights(userId: string): Promise<OwnRight[]> {
  return readAllPages(
    (from, to) =>
      getSupabase()
        .from('user_rights')
        .select('id, status, role_name, granted_at, last_used_at, application:application_id(name), campaign:campaign_id(name,end_date)')
        .eq('user_id', userId)
        .order('granted_at', { ascending: false })
        .order('id', { ascending: true })
        .range(from, to)
        .overrideTypes<OwnRight[], { merge: false }>(),
    fail,
  )
}

/** One decision, through the database's workflow; a refusal carries its French message. */
export async function validateRight({ rightId, status, comment }: DecisionInput): Promise<void> {
  const trimmed = comment.trim()
  const { error } = await getSupabase().rpc('validate_user_right', {
    right_id: rightId,
    new_status: status,
    ...(trimmed ? { comment: trimmed } : {}),
  })
  if (error) fail(error)
}

export const reviewKeys = {
  all: ['reviews'] as const,
  queue: () => ['reviews', 'queue'] as const,
  queueCount: () => ['reviews', 'queue-count'] as const,
  summary: () => ['reviews', 'summary'] as const,
  deadline: () => ['reviews', 'deadline'] as const,
  ownRights: (userId: string) => ['reviews', 'own-rights', userId] as const,
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
export const reviewQueueCountQuery = () =>
  queryOptions({ queryKey: reviewKeys.queueCount(), queryFn: fetchReviewQueueCount })
export const rightsSummaryQuery = () => queryOptions({ queryKey: reviewKeys.summary(), queryFn: fetchRightsSummary })
export const reviewDeadlineQuery = () => queryOptions({ queryKey: reviewKeys.deadline(), queryFn: fetchReviewDeadline })
export const ownRightsQuery = (userId: string) =>
  queryOptions({ queryKey: reviewKeys.ownRights(userId), queryFn: () => fetchOwnRights(userId) })

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
export const useRightsSummary = () => useQuery(rightsSummaryQuery())
export const useReviewDeadline = () => useQuery(reviewDeadlineQuery())
export const useOwnRights = (userId: string) => useQuery(ownRightsQuery(userId))

/**
 * Decisions taken elsewhere (another reviewer, another tab), a campaign started or closed, a person renamed:
 * every review list and the bell's count refresh without a reload.
 */
export const useLiveReviews = () => useLiveInvalidation(['user_rights', 'campaigns', 'users'], reviewKeys.all)

/** Everything a decision can change: the queue, its count, the caller's rights and counters. */
export function invalidateReviews(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: reviewKeys.all })
}

/** One decision; on success every review query is refreshed. */
export function useValidateRight(decide: (input: DecisionInput) => Promise<void> = validateRight) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: decide, onSuccess: () => invalidateReviews(queryClient) })
}
