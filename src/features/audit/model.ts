/** The audit page's data and pure rules (SPEC §2 audit page, §9: 100 entries per page, newest first). */
import type { CsvCell } from '@/lib/csv'
import { formatDateTime } from '@/lib/dates'
import { countText } from '@/domain/plural'
import { auditActionLabel } from '@/domain/audit-labels'
import { auditEventText, resourceTypeLabel, type AuditNames } from './sentence'

/** SPEC §9's fetch limit of 100 becomes the page size. */
export const AUDIT_PAGE_SIZE = 100
/** Page size of the export's keyset walk: the API's cap. */
export const AUDIT_EXPORT_PAGE_SIZE = 1000
/** rssi_audit_filters names events without a person with this id. */
export const SYSTEM_USER_ID = '00000000-0000-0000-0000-000000000000'

export interface AuditEvent {
  id: number
  user_id: string | null
  user_email: string | null
  user_name: string | null
  action: string
  resource_type: string
  resource_id: string | null
  details: unknown
  timestamp: string
  ip_address: string | null
}

export interface AuditUserOption {
  user_id: string
  user_email: string | null
  user_name: string | null
}

export interface AuditFilterOptions {
  actions: string[]
  users: AuditUserOption[]
}

export interface AuditFilters {
  search: string
  userId: string
  action: string
  /** 'yyyy-MM-dd', both included; '' = no bound. */
  from: string
  to: string
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { search: '', userId: '', action: '', from: '', to: '' }

/** French for every action the database writes (src/domain/audit-labels.ts), the raw code for one it does not. */
export const actionLabel = auditActionLabel

export function auditUserLabel(event: Pick<AuditEvent, 'user_id' | 'user_name' | 'user_email'>): string {
  if (!event.user_id || event.user_id === SYSTEM_USER_ID) return event.user_name || event.user_email || 'Système'
  return event.user_name || event.user_email || event.user_id
}

export function userOptionLabel(option: AuditUserOption): string {
  if (option.user_id === SYSTEM_USER_ID) return 'Système'
  if (option.user_name && option.user_email) return `${option.user_name} (${option.user_email})`
  return option.user_name || option.user_email || option.user_id
}

/** The details as indented JSON text (shown in a <pre>, never as HTML). */
export function detailsText(details: unknown): string {
  if (details === null || details === undefined) return ''
  if (typeof details === 'string') return details
  return JSON.stringify(details, null, 2)
}

export const ipText = (ip: string | null | undefined) => (ip ? ip : '-')

export function auditArgs(filters: AuditFilters) {
  return {
    p_search: filters.search.trim() || undefined,
    p_user_id: filters.userId || undefined,
    p_action: filters.action || undefined,
    p_from: filters.from || undefined,
    p_to: filters.to || undefined,
  }
}

export function pageCount(total: number, pageSize = AUDIT_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize))
}

/** 'Événements 101 à 200 sur 250'. */
export function pageRangeText(page: number, shown: number, total: number, pageSize = AUDIT_PAGE_SIZE): string {
  if (total === 0 || shown === 0) return `0 événement sur ${total}`
  const first = page * pageSize + 1
  return `Événements ${first} à ${first + shown - 1} sur ${total}`
}

/** For people, the event as a sentence; for machines, the details as written, in the last column. */
export const AUDIT_CSV_HEADER = [
  'Date',
  'Utilisateur',
  'E-mail',
  'Action',
  'Événement',
  'Type de ressource',
  'Identifiant',
  'Adresse IP',
  'Détails (JSON)',
] as const

export function auditCsvRow(event: AuditEvent, names?: AuditNames): CsvCell[] {
  return [
    formatDateTime(event.timestamp, ''),
    auditUserLabel(event),
    event.user_email ?? '',
    actionLabel(event.action),
    auditEventText(event, names),
    resourceTypeLabel(event.resource_type),
    event.resource_id ?? '',
    ipText(event.ip_address),
    event.details === null || event.details === undefined ? '' : JSON.stringify(event.details),
  ]
}

export function auditFileName(today: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `journal-audit-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}.csv`
}

/** What `verify_audit_chain` answers: the hash chain over every audit row, walked in id order. */
export interface AuditSeal {
  intact: boolean
  rows_checked: number
  head_id: number | null
  head_hash: string | null
  first_broken_id: number | null
  reason: 'missing_row' | 'prev_hash_mismatch' | 'hash_mismatch' | null
}

/** The seal's state as one French sentence, naming the first row that breaks the chain. */
export function auditSealText(seal: AuditSeal): string {
  if (seal.intact) {
    if (seal.rows_checked === 0) return 'Le journal est vide.'
    if (seal.rows_checked === 1) return "L'unique entrée du journal est intacte : elle n'a été ni modifiée ni retirée."
    return `Les ${countText(seal.rows_checked, 'entrée', 'entrées')} du journal forment une chaîne intacte : aucune n'a été modifiée, retirée ou insérée.`
  }
  const row = seal.first_broken_id === null ? 'inconnue' : `n° ${seal.first_broken_id}`
  switch (seal.reason) {
    case 'missing_row':
      return `Une entrée manque avant l'entrée ${row}.`
    case 'prev_hash_mismatch':
      return `Le lien de l'entrée ${row} avec la précédente a été modifié.`
    default:
      return `L'entrée ${row} a été modifiée.`
  }
}
