/**
 * The notifications feature's calls to Supabase, one module per operation; the feature's screens and the
 * administrators' bell import them from here.
 */
export { fetchMessagesPage, useMessagesPage } from './get-messages-page'
export { fetchOutboxSummary, outboxSummaryQuery, useOutbox } from './get-outbox-summary'
export { notificationKeys } from './notification-keys'
export { sendNow, useSendNow } from './send-now'
