import { countText } from '@/domain/plural'
import type { Tone } from '@/lib/tones'

/** How many unsent messages the page lists (the counts cover them all). */
export const OUTBOX_LIST_LIMIT = 100

export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed'
export type OutboxKind = 'campaign_started' | 'stage_digest' | 'reminder' | 'escalation' | 'campaign_decided' | 'invitation' | 'delegation'

export interface OutboxRow {
  id: string
  recipient_email: string
  kind: OutboxKind
  status: OutboxStatus
  attempts: number
  next_attempt_at: string
  last_error: string | null
  created_at: string
  payload: { campaign_name?: string } | null
}

export interface OutboxSummary {
  queued: number
  sending: number
  failed: number
  rows: OutboxRow[]
}

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

/** « 3 envoyés, 1 en échec » after "Envoyer maintenant". */
export function sendNowText(result: SendNowResult): string {
  if (result.sent === 0 && result.failed === 0) return 'Aucun message à envoyer.'
  const parts = [countText(result.sent, 'message envoyé', 'messages envoyés')]
  if (result.failed > 0) parts.push(`${countText(result.failed, 'échec', 'échecs')}, réessayé${result.failed > 1 ? 's' : ''} plus tard`)
  return `${parts.join(', ')}.`
}
