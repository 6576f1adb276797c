import { addDays, format } from 'date-fns'
import type { ApiClient } from './api'

const RA_ID = '00000000-0000-4000-a000-000000000005'
const BPO_METIER_ID = '00000000-0000-4000-a000-000000000003'

/** An RPC's data, or its error thrown. */
export async function rpc(client: ApiClient, ...call: Parameters<ApiClient['rpc']>) {
  const { data, error } = await client.rpc(...call)
  if (error) throw error
  return data
}

/** An application of a journey's own, owned by the demo RA and BPO Métier (and the demo BPO Groupe, by default). */
export async function createJourneyApplication(admin: ApiClient, name: string, description: string): Promise<string> {
  const created = (await rpc(admin, 'create_application', { name, description, ra_id: RA_ID, bpo_metier_id: BPO_METIER_ID })) as { id: string }
  return created.id
}

/** A draft campaign on one application, from today for 30 days. */
export async function createJourneyCampaign(admin: ApiClient, name: string, applicationId: string): Promise<string> {
  const today = new Date()
  const created = await admin
    .from('campaigns')
    .insert({ name, start_date: format(today, 'yyyy-MM-dd'), end_date: format(addDays(today, 30), 'yyyy-MM-dd'), application_id: applicationId })
    .select('id')
    .single()
  if (created.error) throw created.error
  return created.data.id
}

/** Standard rights of Julie Martin (user@example.com, whose manager is Marc) on an application, into a draft campaign. */
export async function importJulieRights(admin: ApiClient, campaignId: string, application: string, roles: string[]): Promise<void> {
  const imported = await rpc(admin, 'import_user_rights', {
    campaign_id: campaignId,
    rows: roles.map((role, index) => ({
      line: index + 2,
      email: 'user@example.com',
      application,
      role_name: role,
      account_type: 'standard',
      granted_at: '2025-03-01',
      last_used_at: null,
      justification: null,
    })),
  })
  if (!(imported as { success?: boolean }).success) throw new Error(`Import refused: ${JSON.stringify(imported)}`)
}

export async function setCampaignStatus(admin: ApiClient, campaignId: string, status: 'active' | 'completed'): Promise<void> {
  const { error } = await admin.rpc('set_campaign_status', { p_campaign_id: campaignId, p_status: status })
  if (error) throw error
}
