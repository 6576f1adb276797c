import type { QueueItem } from '@/features/reviews/model'

/** A right in a manager's queue as rpc('review_queue') returns it: pending, never used, so refusal is suggested. */
export function makeQueueItem(id: string, overrides: Partial<QueueItem> = {}): QueueItem {
  return {
    right_id: id,
    holder_id: 'h-emma',
    holder_name: 'Emma Girard',
    holder_email: 'emma.girard@example.com',
    holder_position: null,
    holder_department: null,
    application_id: 'a-sn',
    application_name: 'ServiceNow',
    role_name: `Rôle ${id}`,
    account_type: 'standard',
    justification: null,
    status: 'pending',
    granted_at: '2023-01-10',
    last_used_at: null,
    campaign_id: 'c1',
    campaign_name: 'Revue T4 2026 — comptes standard',
    campaign_status: 'active',
    campaign_end_date: '2026-12-15',
    stage: 'manager',
    approve_status: 'validated_manager',
    refuse_status: 'refused_manager',
    days_unused: null,
    suggests_refusal: true,
    recommendation: 'Jamais utilisé',
    ...overrides,
  }
}

/** The same right used twenty days ago, so nothing is suggested. */
export const RECENTLY_USED: Partial<QueueItem> = {
  last_used_at: '2026-11-01T00:00:00Z',
  days_unused: 20,
  suggests_refusal: false,
  recommendation: null,
}
