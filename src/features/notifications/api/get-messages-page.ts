import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { pageRange, searchFilter, type Page } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { FILTER_STATUSES, type MessageRow, type MessagesRequest } from '../model'
import { notificationKeys } from './notification-keys'

// The columns a row shows; of the payload only the names, not the counts and lists a message's text is made of.
const MESSAGE_COLUMNS =
  'id, recipient_email, kind, status, attempts, next_attempt_at, last_error, created_at, sent_at, recipient_name:payload->>recipient_name, campaign_name:payload->>campaign_name'

/**
 * One page of the e-mails the outbox holds, sent or not, newest first, in one status group or all, searched on the
 * recipient's address, with how many the filter finds in all. Admin and rssi read them; anyone else reads none (RLS).
 */
export async function fetchMessagesPage(request: MessagesRequest): Promise<Page<MessageRow>> {
  let query = getSupabase().from('notifications').select(MESSAGE_COLUMNS, { count: 'exact' })
  const statuses = FILTER_STATUSES[request.filter]
  if (statuses) query = query.in('status', statuses)
  const search = searchFilter(request.search, ['recipient_email'])
  if (search) query = query.or(search)
  const { data, error, count } = await query
    .order('created_at', { ascending: false })
    .order('id')
    .range(...pageRange(request))
  if (error) throwApiError(error, 'Erreur lors du chargement des e-mails')
  return { rows: (data ?? []) as MessageRow[], total: count ?? 0 }
}

// The page read keeps showing while the next one loads, so that paging and filtering never blank the list.
export const useMessagesPage = (request: MessagesRequest) =>
  useQuery({ queryKey: notificationKeys.messages(request), queryFn: () => fetchMessagesPage(request), placeholderData: keepPreviousData })
