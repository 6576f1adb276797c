/** The RSSI's « Suppressions non constatées »: removals still held by their application past its delay. */
import { queryOptions } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { UnverifiedRemovals } from './model'

// The list shows the oldest first; beyond this the tile still counts them all.
const LIST_LIMIT = 500

async function fetchUnverifiedRemovals(): Promise<UnverifiedRemovals> {
  const { data, error, count } = await getSupabase()
    .from('right_removals')
    .select(
      'id, application_name, holder_name, holder_email, role_name, method, ticket, requested_at, requested_by_name, due_at, unverified_at, apply_outcome, apply_message',
      { count: 'exact' },
    )
    .eq('state', 'unverified')
    .order('requested_at', { ascending: true })
    .order('id', { ascending: true })
    .limit(LIST_LIMIT)
  if (error) throwApiError(error)
  return { count: count ?? data.length, rows: data }
}

export const unverifiedRemovalsQuery = () =>
  queryOptions({ queryKey: ['dashboards', 'unverified-removals'], queryFn: fetchUnverifiedRemovals })
