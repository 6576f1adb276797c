import { queryOptions, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { OutboxStatus, OutboxSummary } from '../model'
import { notificationKeys } from './notification-keys'

/** How many messages the outbox holds in each status: one head request each (admin and rssi read it, RLS). */
export async function fetchOutboxSummary(): Promise<OutboxSummary> {
  const supabase = getSupabase()
  const countOf = async (status: OutboxStatus) => {
    const { count, error } = await supabase.from('notifications').select('id', { count: 'exact', head: true }).eq('status', status)
    if (error) throwApiError(error, 'Erreur lors du chargement des notifications')
    return count ?? 0
  }
  const [queued, sending, sent, failed] = await Promise.all([countOf('queued'), countOf('sending'), countOf('sent'), countOf('failed')])
  return { queued, sending, sent, failed }
}

export const outboxSummaryQuery = () => queryOptions({ queryKey: notificationKeys.summary(), queryFn: fetchOutboxSummary })

/** The counts of the page and of the administrators' bell (the e-mails given up). */
export function useOutbox() {
  return useQuery(outboxSummaryQuery())
}
