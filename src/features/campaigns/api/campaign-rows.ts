/** A campaign as the API returns it, with its progress figures read from campaign_progress, made the screens' Campaign. */
import type { AccountType, CampaignRecurrence, CampaignStatus } from '@/domain/labels'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { Campaign, NextOccurrence } from '../model'

export interface CampaignRow {
  id: string
  name: string
  description: string | null
  application_id: string | null
  account_type: string | null
  start_date: string
  end_date: string
  status: string
  created_by: string | null
  created_at: string
  recurrence: string | null
  auto_start: boolean | null
  notifications_enabled: boolean | null
  reminders_enabled: boolean | null
  reminder_days: number[] | null
  escalation_delay_days: number | null
  application: { name: string } | null
  creator: { first_name: string | null; last_name: string | null; email: string | null } | null
}

export interface ProgressRow {
  campaign_id: string | null
  rights_count: number | null
  reviewed_count: number | null
  undecided_count: number | null
  progress: number | null
  pending_count: number | null
  validated_manager_count: number | null
  validated_bpo_metier_count: number | null
}

export const CAMPAIGN_SELECT = '*, application:application_id(name), creator:created_by(first_name,last_name,email)'

export function toCampaign(row: CampaignRow, figures: ProgressRow | undefined, next: NextOccurrence | null = null): Campaign {
  const creator = row.creator ? [row.creator.first_name, row.creator.last_name].filter(Boolean).join(' ') : ''
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    applicationId: row.application_id,
    applicationName: row.application?.name ?? null,
    accountType: (row.account_type ?? null) as AccountType | null,
    startDate: row.start_date,
    endDate: row.end_date,
    status: row.status as CampaignStatus,
    createdBy: row.created_by,
    creatorName: creator || row.creator?.email || null,
    createdAt: row.created_at,
    recurrence: (row.recurrence ?? null) as CampaignRecurrence | null,
    autoStart: row.auto_start ?? false,
    nextOccurrence: next,
    notificationsEnabled: row.notifications_enabled ?? true,
    remindersEnabled: row.reminders_enabled ?? true,
    reminderDays: row.reminder_days ?? [],
    escalationDelayDays: row.escalation_delay_days ?? 0,
    progress: figures?.progress ?? null,
    rightsCount: figures?.rights_count ?? 0,
    reviewedCount: figures?.reviewed_count ?? 0,
    undecidedCount: figures?.undecided_count ?? 0,
    pendingCount: figures?.pending_count ?? 0,
    validatedManagerCount: figures?.validated_manager_count ?? 0,
    validatedBpoMetierCount: figures?.validated_bpo_metier_count ?? 0,
  }
}

/** The occurrences that follow the given campaigns, by the campaign they follow. */
export async function nextOccurrencesOf(ids: readonly string[]): Promise<Map<string, NextOccurrence>> {
  if (ids.length === 0) return new Map()
  const { data, error } = await getSupabase()
    .from('campaigns')
    .select('id, name, start_date, previous_occurrence_id')
    .in('previous_occurrence_id', ids)
  if (error) throwApiError(error)
  return new Map(
    (data ?? []).flatMap((row) =>
      row.previous_occurrence_id ? [[row.previous_occurrence_id, { id: row.id, name: row.name, startDate: row.start_date }] as const] : [],
    ),
  )
}

/** The figures of the given campaigns only. */
export async function progressOf(ids: readonly string[]): Promise<Map<string | null, ProgressRow>> {
  if (ids.length === 0) return new Map()
  const { data, error } = await getSupabase().from('campaign_progress').select('*').in('campaign_id', ids)
  if (error) throwApiError(error)
  return new Map(((data ?? []) as ProgressRow[]).map((row) => [row.campaign_id, row]))
}
