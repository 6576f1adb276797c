/**
 * The campaigns feature's calls to Supabase, one module per operation; the feature's screens import them from here.
 * The export and evidence workers import their readers (read-export-rows, read-evidence-pack) directly.
 */
export { campaignKeys } from './campaign-keys'
export { deleteCampaign, useDeleteCampaign } from './delete-campaign'
export { applicationOptionsQuery, fetchApplicationOptions, useApplicationOptions } from './get-application-options'
export { fetchCampaign, useCampaign } from './get-campaign'
export { fetchCampaignBurndown, useCampaignBurndown } from './get-campaign-burndown'
export { fetchCampaignSignoffs, useCampaignSignoffs } from './get-campaign-signoffs'
export { campaignsQuery, fetchCampaigns, useCampaigns } from './get-campaigns'
export { CAMPAIGN_SORTS, fetchCampaignsPage, useCampaignsPage, type CampaignSort } from './get-campaigns-page'
export { fetchFallbackReviewers, useFallbackReviewers } from './get-fallback-reviewers'
export { fetchImportReference, useImportReference } from './get-import-reference'
export { fetchReviewerGaps, useReviewerGaps } from './get-reviewer-gaps'
export { fetchRunningCampaigns, useRunningCampaigns } from './get-running-campaigns'
export { importUserRights, useImportUserRights, type ImportReport } from './import-user-rights'
export { useLiveCampaigns } from './live-campaigns'
export { reassignItems, useReassignItems } from './reassign-items'
export { createCampaign, updateCampaign, useSaveCampaign } from './save-campaign'
export { searchReviewers, useReviewerSearch } from './search-reviewers'
export { setCampaignStatus, useSetCampaignStatus } from './set-campaign-status'
export { setFallbackReviewers, useSetFallbackReviewers } from './set-fallback-reviewers'
