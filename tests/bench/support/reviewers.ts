import { DATASET_EMAIL_DOMAIN } from '../../../supabase/local/dataset/options'
import type { Api } from './api'

/** The demo reviewers; the large dataset adds generated managers with pending items. */
const DEMO_REVIEWERS = ['manager@example.com', 'bpo@example.com', 'bpo.groupe@example.com', 'ra@example.com', 'user@example.com']

/**
 * Accounts that may have items to decide: the generated managers first (the service role lists them), then the demo
 * reviewers. The caller signs them in and keeps those whose queue is long enough.
 */
export async function reviewerCandidates(service: Api, wanted: number): Promise<string[]> {
  const { data, error } = await service
    .from('users')
    .select('email')
    .eq('role', 'manager')
    .like('email', `%@${DATASET_EMAIL_DOMAIN}`)
    .order('email')
    .limit(wanted * 2)
  if (error) throw new Error(error.message)
  return [...(data ?? []).map((user) => user.email), ...DEMO_REVIEWERS]
}
