/** French wording of the enumerations the database uses (SPEC §1, §3, §4). */

export const ROLES = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi'] as const
export type Role = (typeof ROLES)[number]

export const ROLE_LABELS: Record<Role, string> = {
  user: 'Utilisateur',
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: "Responsable d'Application",
  admin: 'Administrateur',
  rssi: 'RSSI',
}

export const RIGHT_STATUSES = [
  'pending',
  'validated_user',
  'refused_user',
  'validated_manager',
  'refused_manager',
  'validated_bpo_metier',
  'refused_bpo_metier',
  'validated_bpo_groupe',
  'refused_bpo_groupe',
  'treatment_required',
  'treated',
] as const
export type RightStatus = (typeof RIGHT_STATUSES)[number]

export const RIGHT_STATUS_LABELS: Record<RightStatus, string> = {
  pending: 'En attente',
  validated_user: "Validé par l'utilisateur",
  refused_user: "Refusé par l'utilisateur",
  validated_manager: 'Validé par le manager',
  refused_manager: 'Refusé par le manager',
  validated_bpo_metier: 'Validé par le BPO Métier',
  refused_bpo_metier: 'Refusé par le BPO Métier',
  validated_bpo_groupe: 'Validé par le BPO Groupe',
  refused_bpo_groupe: 'Refusé par le BPO Groupe',
  treatment_required: 'Traitement requis',
  treated: 'Traité',
}

export const CAMPAIGN_STATUSES = ['draft', 'active', 'completed', 'archived'] as const
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number]

export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Brouillon',
  active: 'Active',
  completed: 'Terminée',
  archived: 'Archivée',
}

export const CAMPAIGN_RECURRENCES = ['quarterly', 'semiannual', 'annual'] as const
export type CampaignRecurrence = (typeof CAMPAIGN_RECURRENCES)[number]

export const CAMPAIGN_RECURRENCE_LABELS: Record<CampaignRecurrence, string> = {
  quarterly: 'Trimestrielle',
  semiannual: 'Semestrielle',
  annual: 'Annuelle',
}

export const ACCOUNT_TYPES = ['standard', 'privileged', 'technical', 'shared', 'emergency', 'external'] as const
export type AccountType = (typeof ACCOUNT_TYPES)[number]

export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = {
  standard: 'Standard',
  privileged: 'À privilèges',
  technical: 'Technique',
  shared: 'Partagé / Générique',
  emergency: 'Urgence (Break Glass)',
  external: 'Externe',
}

function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value as K] : value
}

export const roleLabel = (role: string) => labelOf(ROLE_LABELS, role)
export const rightStatusLabel = (status: string) => labelOf(RIGHT_STATUS_LABELS, status)
export const campaignStatusLabel = (status: string) => labelOf(CAMPAIGN_STATUS_LABELS, status)
export const accountTypeLabel = (type: string) => labelOf(ACCOUNT_TYPE_LABELS, type)

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}
