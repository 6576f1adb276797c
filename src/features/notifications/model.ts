import { countText } from '@/domain/plural'
import type { PageRequest } from '@/lib/paging'
import type { Tone } from '@/lib/tones'

export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed'
export type OutboxKind = 'campaign_started' | 'stage_digest' | 'reminder' | 'escalation' | 'campaign_decided' | 'invitation' | 'delegation'

/** How many messages the outbox holds in each status. */
export interface OutboxSummary {
  queued: number
  sending: number
  sent: number
  failed: number
}

/** One e-mail of the list, sent or not: to whom, which, when, and how its sending went. */
export interface MessageRow {
  id: string
  recipient_email: string
  recipient_name: string | null
  kind: OutboxKind
  status: OutboxStatus
  attempts: number
  next_attempt_at: string
  last_error: string | null
  created_at: string
  sent_at: string | null
  campaign_name: string | null
}

/** The list's filters: every message, or those of one status group. */
export type MessageFilter = 'all' | 'sent' | 'waiting' | 'failed'

/** The statuses each filter keeps (null: all of them). */
export const FILTER_STATUSES: Record<MessageFilter, OutboxStatus[] | null> = {
  all: null,
  sent: ['sent'],
  waiting: ['queued', 'sending'],
  failed: ['failed'],
}

/** One page of the list, always newest first: only the page, its size, the filter and the search vary. */
export type MessagesRequest = Pick<PageRequest<'created_at'>, 'page' | 'size' | 'search'> & { filter: MessageFilter }

export interface SendNowResult {
  requeued: number
  sent: number
  failed: number
}

export const KIND_LABELS: Record<OutboxKind, string> = {
  campaign_started: 'Démarrage de campagne',
  stage_digest: 'Droits arrivés à une étape',
  reminder: 'Rappel',
  escalation: 'Escalade (retard)',
  campaign_decided: 'Campagne entièrement décidée',
  invitation: 'Invitation à se connecter',
  delegation: 'Revues déléguées',
}

export const STATUS_LABELS: Record<OutboxStatus, { label: string; tone: Tone }> = {
  queued: { label: 'En attente', tone: 'amber' },
  sending: { label: "En cours d'envoi", tone: 'blue' },
  sent: { label: 'Envoyé', tone: 'green' },
  failed: { label: 'Abandonné', tone: 'red' },
}

/** The filters' buttons, each with how many messages it keeps. */
export function filterOptions(summary: OutboxSummary | undefined): { filter: MessageFilter; label: string; count: number | undefined }[] {
  const all = summary && summary.queued + summary.sending + summary.sent + summary.failed
  return [
    { filter: 'all', label: 'Tous', count: all },
    { filter: 'sent', label: 'Envoyés', count: summary?.sent },
    { filter: 'waiting', label: 'En attente', count: summary && summary.queued + summary.sending },
    { filter: 'failed', label: 'Abandonnés', count: summary?.failed },
  ]
}

/** What the list says when a filter or a search finds nothing. */
export function emptyMessage(filter: MessageFilter, search: string): string {
  if (search.trim()) return 'Aucun e-mail ne correspond à cette adresse.'
  return {
    all: "Aucun e-mail n'a encore été écrit : ils le sont au démarrage des campagnes, aux étapes, aux rappels, aux escalades et aux délégations.",
    sent: "Aucun e-mail n'a encore été envoyé.",
    waiting: "Aucun e-mail n'attend d'être envoyé.",
    failed: "Aucun e-mail n'a été abandonné.",
  }[filter]
}

/** Tries made, and how many of them were retries: « 1 », « 3 (2 nouveaux essais) ». */
export function attemptsText(attempts: number): string {
  return attempts > 1 ? `${attempts} (${countText(attempts - 1, 'nouvel essai', 'nouveaux essais')})` : String(attempts)
}

/** « 3 envoyés, 1 en échec » after "Envoyer maintenant". */
export function sendNowText(result: SendNowResult): string {
  if (result.sent === 0 && result.failed === 0) return 'Aucun message à envoyer.'
  const parts = [countText(result.sent, 'message envoyé', 'messages envoyés')]
  if (result.failed > 0) parts.push(`${countText(result.failed, 'échec', 'échecs')}, réessayé${result.failed > 1 ? 's' : ''} plus tard`)
  return `${parts.join(', ')}.`
}
