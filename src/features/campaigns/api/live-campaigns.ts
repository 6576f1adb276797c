import { useLiveInvalidation } from '@/lib/realtime'
import { campaignKeys } from './campaign-keys'

/**
 * Campaigns and their progress follow what others do. Progress is counted over every right
 * of a campaign, so a stream of decisions refreshes it every few seconds rather than on each one.
 */
export const useLiveCampaigns = () =>
  useLiveInvalidation(['campaigns', 'user_rights', 'applications', 'users'], campaignKeys.all, { debounceMs: 1000, maxWaitMs: 5000 })
