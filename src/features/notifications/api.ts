/**
 * The only file of the notifications feature that calls Supabase. Admin and rssi read the outbox (RLS); "Envoyer
 * maintenant" goes through /.netlify/functions/notifications-send with the caller's token, never the service role.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { OUTBOX_LIST_LIMIT, type OutboxRow, type OutboxSummary, type SendNowResult } from './model'

const FUNCTION_URL = '/.netlify/functions/notifications-send'
const UNREACHABLE = "Le service d'envoi n'a pas répondu. Veuillez réessayer."

/**
 * What waits or failed: the count per status (one head request each) and the most recent unsent messages, the
 * given-up ones first. The outbox of a large campaign holds thousands of queued messages, which the scheduled pass
 * drains on its own; the page shows how many and the latest, not every one.
 */
export async function fetchOutbox(): Promise<OutboxSummary> {
  const supabase = getSupabase()
  const countOf = async (status: 'queued' | 'sending' | 'failed') => {
    const { count, error } = await supabase.from('notifications').select('id', { count: 'exact', head: true }).eq('status', status)
    if (error) throwApiError(error, 'Erreur lors du chargement des notifications')
    return count ?? 0
  }
  const [queued, sending, failed, list] = await Promise.all([
    countOf('queued'),
    countOf('sending'),
    countOf('failed'),
    supabase
      .from('notifications')
      .select('id, recipient_email, kind, status, attempts, next_attempt_at, last_error, created_at, payload')
      .in('status', ['failed', 'queued', 'sending'])
      .order('status', { ascending: false })
      .order('created_at', { ascending: false })
      .order('id')
      .limit(OUTBOX_LIST_LIMIT),
  ])
  if (list.error) throwApiError(list.error, 'Erreur lors du chargement des notifications')
  return { queued, sending, failed, rows: (list.data ?? []) as OutboxRow[] }
}

export const outboxQuery = () => queryOptions({ queryKey: ['notifications', 'outbox'], queryFn: fetchOutbox })

export function useOutbox() {
  return useQuery(outboxQuery())
}

/** Makes every unsent message due and runs the delivery pass at once (admin and rssi: the database checks). */
export async function sendNow(): Promise<SendNowResult> {
  const { data } = await getSupabase().auth.getSession()
  const token = data.session?.access_token
  if (!token) throw new ApiError({ message: 'Vous devez être connecté.' })
  let response: Response
  try {
    response = await fetch(FUNCTION_URL, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
  } catch {
    throw new ApiError({ message: UNREACHABLE })
  }
  const answer = (await response.json().catch(() => null)) as (SendNowResult & { error?: string }) | null
  if (!response.ok || !answer) throw new ApiError({ message: answer?.error ?? UNREACHABLE })
  return answer
}

export function useSendNow() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: sendNow, onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }) })
}
