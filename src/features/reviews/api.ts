/** The only file of the reviews feature that calls Supabase: the queue awaiting the caller, and decisions. */
import { useEffect, useMemo } from 'react'
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { getSupabase } from '@/lib/supabase'
import { runBulk, type BulkOutcome, type DecisionInput, type DecisionRequest, type QueueItem, type RightConflict } from './model'
import type { DelegatedItem, Delegation, DelegationInput, PersonChoice, StageSignoff } from './delegation-model'
import { decisionPayload, type ApplyResult, type OfflineFile } from './offline-model'

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

/** How many rights await the caller's decision: their queue and the rights confided to them, each once (the bell). */
export async function fetchReviewQueueCount(): Promise<number> {
  const { data, error } = await getSupabase().rpc('review_queue_count', {})
  if (error) throwApiError(error)
  return Number(data ?? 0)
}

/** The separation-of-duties conflicts of the given rights of the caller's queue (one page of it at most). */
export async function fetchReviewConflicts(rightIds: readonly string[]): Promise<RightConflict[]> {
  const { data, error } = await getSupabase().rpc('review_conflicts', { p_right_ids: [...rightIds] })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as RightConflict[]
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
  conflicts: (rightIds: readonly string[]) => [RIGHTS_QUERY_ROOT, 'conflicts', rightIds] as const,
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
 * Asks for the queue's first page as soon as Mes revues is being opened, while the page's code is still loading: the
 * layout, which already holds this module, calls it with whether the page being opened is Mes revues. In render, as
 * usePrefetchInfiniteQuery does, since an effect would wait for the page's code (the navigation commits with it); once
 * the queue has any state in the cache, the page itself decides whether to fetch again.
 */
export function usePrefetchReviewQueue(opening: boolean) {
  const queryClient = useQueryClient()
  if (opening && !queryClient.getQueryState(reviewKeys.queue())) void queryClient.prefetchInfiniteQuery(reviewQueueQuery())
}

/** The conflicts of the rights on screen, by right; empty until they arrive, and for a right without any. */
export function useReviewConflicts(rightIds: readonly string[]): ReadonlyMap<string, RightConflict[]> {
  const query = useQuery({
    queryKey: reviewKeys.conflicts(rightIds),
    queryFn: () => fetchReviewConflicts(rightIds),
    enabled: rightIds.length > 0,
  })
  return useMemo(() => {
    const byRight = new Map<string, RightConflict[]>()
    for (const conflict of query.data ?? []) byRight.set(conflict.right_id, [...(byRight.get(conflict.right_id) ?? []), conflict])
    return byRight
  }, [query.data])
}

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

// ─── Delegation and sign-off ────────────────────────────────────────────────────────────────────────────

/** The rights the caller may decide for someone else: delegated to them, or without reviewer in a campaign where they are a fallback reviewer. */
export async function fetchDelegatedQueue(): Promise<DelegatedItem[]> {
  const { data, error } = await getSupabase().rpc('delegated_review_queue')
  if (error) throwApiError(error)
  return (data ?? []) as unknown as DelegatedItem[]
}

export async function fetchMyDelegations(): Promise<Delegation[]> {
  const { data, error } = await getSupabase().rpc('my_delegations')
  if (error) throwApiError(error)
  return (data ?? []) as unknown as Delegation[]
}

export async function fetchMySignoffs(): Promise<StageSignoff[]> {
  const { data, error } = await getSupabase().rpc('my_signoffs')
  if (error) throwApiError(error)
  return (data ?? []) as unknown as StageSignoff[]
}

/** At most 20 active people matching the search, looked up on the server. */
export async function searchDelegates(search: string): Promise<PersonChoice[]> {
  if (search.trim().length < 2) return []
  const { data, error } = await getSupabase().rpc('delegate_candidates', { p_search: search })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as PersonChoice[]
}

export async function delegateItems(input: DelegationInput): Promise<void> {
  const { error } = await getSupabase().rpc('delegate_review_items', {
    p_campaign_id: input.campaignId,
    p_delegate_id: input.delegateId,
    p_reason: input.reason,
    p_ends_on: input.endsOn,
    ...(input.rightIds ? { p_right_ids: input.rightIds } : {}),
  })
  if (error) throwApiError(error)
}

export async function revokeDelegation(id: string): Promise<void> {
  const { error } = await getSupabase().rpc('revoke_delegation', { p_delegation_id: id })
  if (error) throwApiError(error)
}

export async function signOffStage({ campaignId, stage }: Pick<StageSignoff, 'stage'> & { campaignId: string }): Promise<void> {
  const { error } = await getSupabase().rpc('sign_off_campaign_stage', { p_campaign_id: campaignId, p_stage: stage })
  if (error) throwApiError(error)
}

// Under the rights root too: a decision changes what is delegated and what is left to sign.
export const delegationKeys = {
  delegatedQueue: () => [RIGHTS_QUERY_ROOT, 'delegated-queue'] as const,
  delegations: () => [RIGHTS_QUERY_ROOT, 'delegations'] as const,
  signoffs: () => [RIGHTS_QUERY_ROOT, 'signoffs'] as const,
  candidates: (search: string) => ['delegate-candidates', search] as const,
}

/** The rights of the caller's queue loaded so far, from the cache Mes revues fills (it loads the following pages). */
export function useLoadedReviewQueue(): QueueItem[] {
  const query = useInfiniteQuery(reviewQueueQuery())
  return useMemo(() => query.data?.pages.flat() ?? [], [query.data])
}
export const useDelegatedQueue = () => useQuery({ queryKey: delegationKeys.delegatedQueue(), queryFn: fetchDelegatedQueue })
export const useMyDelegations = () => useQuery({ queryKey: delegationKeys.delegations(), queryFn: fetchMyDelegations })
/**
 * The caller's sign-offs, asked once the queue's first page is in (or has failed): my_signoffs counts the caller's items
 * in every running campaign, seconds of a database core at ten times the large dataset, which Mes revues's first rows
 * must not share.
 */
export function useMySignoffs() {
  const queueAnswered = !useInfiniteQuery(reviewQueueQuery()).isPending
  return useQuery({ queryKey: delegationKeys.signoffs(), queryFn: fetchMySignoffs, enabled: queueAnswered })
}
export const useDelegateCandidates = (search: string) =>
  useQuery({ queryKey: delegationKeys.candidates(search), queryFn: () => searchDelegates(search) })

/** A change to delegations or a signature: every view of rights refreshes, as after a decision. */
function useRightsMutation<T>(fn: (input: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation<void, Error, T>({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RIGHTS_QUERY_ROOT] }),
  })
}
export const useDelegateItems = () => useRightsMutation(delegateItems)
export const useRevokeDelegation = () => useRightsMutation(revokeDelegation)
export const useSignOffStage = () => useRightsMutation(signOffStage)

// ─── Offline files sent back ───────────────────────────────────────────────────────────────────

/**
 * The decisions read from a filled-in stage file, checked (dryRun) or applied as the caller, all or nothing, by
 * apply_review_decisions: each goes through validate_user_right, so a file can do nothing its reviewer could not.
 */
export async function applyOfflineDecisions({ file, dryRun }: { file: OfflineFile; dryRun: boolean }): Promise<ApplyResult> {
  const { data, error } = await getSupabase().rpc('apply_review_decisions', {
    p_stage: file.stage,
    p_decisions: decisionPayload(file),
    p_dry_run: dryRun,
  })
  if (error) throwApiError(error)
  return data as unknown as ApplyResult
}

/** Checks a file: nothing changes, so nothing is refreshed. */
export const useCheckOfflineFile = () =>
  useMutation<ApplyResult, Error, OfflineFile>({ mutationFn: (file) => applyOfflineDecisions({ file, dryRun: true }) })

/** Applies a file: every view of rights refreshes, as after a decision. */
export function useApplyOfflineFile() {
  const queryClient = useQueryClient()
  return useMutation<ApplyResult, Error, OfflineFile>({
    mutationFn: (file) => applyOfflineDecisions({ file, dryRun: false }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RIGHTS_QUERY_ROOT] }),
  })
}
